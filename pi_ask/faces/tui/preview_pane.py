"""The preview box of preview questions (behaviour.md §7.4), drawn only where it is seen.

A preview may hold 20,000 lines; the box shows a window of them. Its content is a list of
paragraphs (label, description, a blank line, then the preview's lines), split and
sanitized once per option and cached; each frame wraps only the paragraphs from the scroll
position down to the box's last visible row, so a key costs the same for a 20-line preview
as for a 20,000-line one. The scroll position is a paragraph and the wrapped rows of it
already passed, so a page moves by the box's rows (wrapping only the paragraphs it passes)
and a paragraph taller than the box can still be read to its end.
"""

from __future__ import annotations

from functools import lru_cache

from pi_ask.contract.payload import Option
from pi_ask.faces.tui import theme
from pi_ask.faces.tui.styled_text import Line, join, pad, span, truncate
from pi_ask.faces.tui.wrapping import wrap_paragraph
from pi_ask.terminal_text import sanitize_block, sanitize_line

NO_PREVIEW = "No preview available"
SCROLL_HINT = "PgUp/PgDn"
_BOX_MIN_WIDTH = 10

Paragraph = tuple[str, str]
# (paragraph index, wrapped rows of that paragraph scrolled past)
ScrollPosition = tuple[int, int]
TOP: ScrollPosition = (0, 0)


@lru_cache(maxsize=16)
def preview_paragraphs(option: Option | None) -> tuple[Paragraph, ...]:
    """The box content of ``option`` as ``(style, paragraph)`` pairs, sanitized."""
    if option is None:
        return ((theme.DIM, NO_PREVIEW),)
    items: list[Paragraph] = [(theme.ACCENT, sanitize_line(option.label))]
    if option.description:
        items += [(theme.MUTED, p) for p in sanitize_block(option.description).split("\n")]
    items.append((theme.DIM, ""))
    if option.preview:
        items += [(theme.TEXT, p) for p in sanitize_block(option.preview).split("\n")]
    else:
        items.append((theme.DIM, NO_PREVIEW))
    return tuple(items)


def _inner(width: int) -> int:
    return max(4, max(_BOX_MIN_WIDTH, width) - 2)


def _rows_of(items: tuple[Paragraph, ...], index: int, inner: int) -> int:
    return len(wrap_paragraph(items[index][1], inner))


def _moved(
    items: tuple[Paragraph, ...], inner: int, at: ScrollPosition, rows: int
) -> ScrollPosition:
    paragraph, row = at
    if rows >= 0:
        while rows > 0:
            rest = _rows_of(items, paragraph, inner) - row
            if rows < rest:
                return paragraph, row + rows
            if paragraph + 1 >= len(items):
                return paragraph, row + rest - 1
            rows -= rest
            paragraph, row = paragraph + 1, 0
        return paragraph, row
    rows = -rows
    while rows > row and paragraph > 0:
        rows -= row + 1
        paragraph -= 1
        row = _rows_of(items, paragraph, inner) - 1
    return paragraph, max(0, row - rows)


def scroll_by(
    option: Option | None, width: int, at: ScrollPosition, rows: int, visible: int
) -> ScrollPosition:
    """``at`` moved ``rows`` wrapped rows down (up when negative) in a box ``width`` wide.

    Moving down stops where the last ``visible`` rows fill the box. Only the paragraphs
    passed are wrapped, so the cost follows ``rows`` and ``visible``, not the preview.
    """
    items = preview_paragraphs(option)
    inner = _inner(width)
    at = (max(0, min(at[0], len(items) - 1)), max(0, at[1]))
    moved = _moved(items, inner, at, rows)
    if rows > 0:
        last = len(items) - 1
        end = _moved(items, inner, (last, _rows_of(items, last, inner) - 1), -(max(1, visible) - 1))
        moved = max(at, min(moved, end))
    return moved


def _border(left: str, right: str, inner: int, label: str) -> Line:
    rule = f"─ {label} " if label else ""
    fill = "─" * max(0, inner - len(rule))
    return span(theme.ACCENT, f"{left}{rule}{fill}{right}"[: inner + 2])


@lru_cache(maxsize=64)
def render_preview_box(
    option: Option | None, width: int, rows: int, scroll: ScrollPosition = TOP
) -> tuple[Line, ...]:
    """The box for ``option``: at most ``rows`` content lines from ``scroll`` on.

    The borders count the preview lines (paragraphs) above and below what is shown; a
    paragraph shown in part counts as one more.

    Args:
        option: The option under the cursor (``None``: "No preview available").
        width: The box's width (at least 10 is used).
        rows: Most content lines to draw (at least one is drawn).
        scroll: The first paragraph shown and its wrapped rows scrolled past.
    """
    inner = _inner(width)
    items = preview_paragraphs(option)
    first = max(0, min(scroll[0], len(items) - 1))
    skip = max(0, scroll[1])
    rows = max(1, rows)
    content: list[Line] = []
    next_item = first
    cut = False
    while next_item < len(items) and len(content) < rows:
        style, text = items[next_item]
        pieces = wrap_paragraph(text, inner)
        if next_item == first:
            pieces = pieces[min(skip, len(pieces) - 1) :]
        room = rows - len(content)
        cut = len(pieces) > room
        content += [span(style, piece) for piece in pieces[:room]]
        next_item += 1
    below = len(items) - next_item + cut
    above = first + (skip > 0)
    edge = span(theme.ACCENT, "│")
    top = _border("┌", "┐", inner, f"↑ {above} more" if above else "")
    bottom = _border("└", "┘", inner, f"↓ {below} more · {SCROLL_HINT}" if below else "")
    body = [join(edge, pad(truncate(line, inner), inner), edge) for line in content]
    return (top, *body, bottom)
