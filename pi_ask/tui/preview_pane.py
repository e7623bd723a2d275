"""The preview box of preview questions (behaviour.md §7.4), drawn only where it is seen.

A preview may hold 20,000 lines; the box shows a window of them. Its content is a list of
paragraphs (label, description, a blank line, then the preview's lines), split and
sanitized once per option and cached; each frame wraps only the paragraphs from the scroll
position down to the box's last visible row, so a key costs the same for a 20-line preview
as for a 20,000-line one. Scrolling moves by paragraphs (the preview's own lines).
"""

from __future__ import annotations

from functools import lru_cache

from pi_ask.contract.payload import Option
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.tui import theme
from pi_ask.tui.styled_text import Line, join, pad, span, truncate
from pi_ask.tui.wrapping import wrap_paragraph

NO_PREVIEW = "No preview available"
SCROLL_HINT = "PgUp/PgDn"
_BOX_MIN_WIDTH = 10

Paragraph = tuple[str, str]


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


def max_scroll(option: Option | None) -> int:
    """The largest useful scroll position for ``option``'s box."""
    return max(0, len(preview_paragraphs(option)) - 1)


def _border(left: str, right: str, inner: int, label: str) -> Line:
    rule = f"─ {label} " if label else ""
    fill = "─" * max(0, inner - len(rule))
    return span(theme.ACCENT, f"{left}{rule}{fill}{right}"[: inner + 2])


@lru_cache(maxsize=64)
def render_preview_box(
    option: Option | None, width: int, rows: int, scroll: int = 0
) -> tuple[Line, ...]:
    """The box for ``option``: at most ``rows`` content lines from paragraph ``scroll`` on.

    Args:
        option: The option under the cursor (``None``: "No preview available").
        width: The box's width (at least 10 is used).
        rows: Most content lines to draw (at least one is drawn).
        scroll: Index of the first paragraph shown.
    """
    box_width = max(_BOX_MIN_WIDTH, width)
    inner = max(4, box_width - 2)
    items = preview_paragraphs(option)
    scroll = max(0, min(scroll, len(items) - 1))
    rows = max(1, rows)
    content: list[Line] = []
    next_item = scroll
    while next_item < len(items) and len(content) < rows:
        style, text = items[next_item]
        pieces = wrap_paragraph(text, inner)
        content += [span(style, piece) for piece in pieces[: rows - len(content)]]
        next_item += 1
    below = len(items) - next_item
    edge = span(theme.ACCENT, "│")
    top = _border("┌", "┐", inner, f"↑ {scroll} more" if scroll else "")
    bottom = _border("└", "┘", inner, f"↓ {below} more · {SCROLL_HINT}" if below else "")
    body = [join(edge, pad(truncate(line, inner), inner), edge) for line in content]
    return (top, *body, bottom)
