"""The preview box of preview questions (behaviour.md §7.4), drawn only where it is seen.

A preview may hold 20,000 lines; the box shows a window of them. Its content is a list of
paragraphs (label, description, a blank line, then the preview's lines), split and
sanitized once per option and cached; each frame wraps only the paragraphs from the scroll
position down to the box's last visible row, so a key costs the same for a 20-line preview
as for a 20,000-line one. A Markdown preview keeps one paragraph per source line too, and
its lines are parsed and highlighted a window at a time, only where the box shows them
(``pi_ask.markdown.document``). The scroll position is a paragraph and the wrapped rows of it
already passed, so a page moves by the box's rows (wrapping only the paragraphs it passes)
and a paragraph taller than the box can still be read to its end.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pi_ask.contract.payload import Option
from pi_ask.faces.tui import theme
from pi_ask.faces.tui.markdown_lines import (
    code_highlighted,
    markdown_block,
    markdown_on,
    use_markdown,
)
from pi_ask.faces.tui.scrolling import more_label
from pi_ask.faces.tui.styled_text import Line, join, pad, span, take_width, text_width, truncate
from pi_ask.faces.tui.wrapping import wrap_paragraph
from pi_ask.i18n import N_, active_language, gettext
from pi_ask.terminal_text import sanitize_block, sanitize_line

if TYPE_CHECKING:
    from pi_ask.markdown.document import Outline

NO_PREVIEW = N_("No preview available")
SCROLL_HINT = "PgUp/PgDn"
_BOX_MIN_WIDTH = 10

Paragraph = tuple[str, str]
# (paragraph index, wrapped rows of that paragraph scrolled past)
ScrollPosition = tuple[int, int]
TOP: ScrollPosition = (0, 0)


class PreviewContent:
    """The box's paragraphs: the plain ones, then a Markdown preview's source lines (its
    fenced code coloured when ``highlighted``)."""

    __slots__ = ("_highlighted", "_markdown", "_plain")

    def __init__(
        self,
        plain: tuple[Paragraph, ...],
        markdown: Outline | None = None,
        highlighted: bool = True,
    ) -> None:
        self._plain = plain
        self._markdown = markdown
        self._highlighted = highlighted

    def __len__(self) -> int:
        return len(self._plain) + (len(self._markdown) if self._markdown is not None else 0)

    def __getitem__(self, index: int) -> Paragraph:
        """A plain paragraph (what the tests and the transcript read)."""
        if index < len(self._plain):
            return self._plain[index]
        assert self._markdown is not None
        return theme.TEXT, self._markdown.lines[index - len(self._plain)]

    def rows(self, index: int, inner: int) -> tuple[Line, ...]:
        """Paragraph ``index`` wrapped to ``inner`` cells."""
        if index < len(self._plain):
            return _plain_rows(self._plain[index], inner)
        assert self._markdown is not None
        lines = self._markdown.line(index - len(self._plain), self._highlighted)
        return markdown_block(lines, inner, theme.TEXT)


@lru_cache(maxsize=4096)
def _plain_rows(paragraph: Paragraph, inner: int) -> tuple[Line, ...]:
    style, text = paragraph
    return tuple(span(style, piece) for piece in wrap_paragraph(text, inner))


def preview_paragraphs(option: Option | None) -> PreviewContent:
    """The box content of ``option``, sanitized (Markdown when ``[ui] markdown`` is on)."""
    return _content(option, markdown_on(), code_highlighted(), active_language())


@lru_cache(maxsize=16)
def _content(
    option: Option | None, markdown: bool, highlighted: bool, language: str
) -> PreviewContent:
    # ``language`` keys the cache: the "no preview" text is in it.
    if option is None:
        return PreviewContent(((theme.DIM, gettext(NO_PREVIEW)),))
    items: list[Paragraph] = [(theme.ACCENT, sanitize_line(option.label))]
    if option.description:
        items += [(theme.MUTED, p) for p in sanitize_block(option.description).split("\n")]
    items.append((theme.DIM, ""))
    if option.preview and markdown and use_markdown(option.preview):
        from pi_ask.markdown.document import outline

        return PreviewContent(tuple(items), outline(option.preview), highlighted)
    if option.preview:
        items += [(theme.TEXT, p) for p in sanitize_block(option.preview).split("\n")]
    else:
        items.append((theme.DIM, gettext(NO_PREVIEW)))
    return PreviewContent(tuple(items))


def _inner(width: int) -> int:
    return max(4, max(_BOX_MIN_WIDTH, width) - 2)


def _rows_of(items: PreviewContent, index: int, inner: int) -> int:
    return len(items.rows(index, inner))


def _moved(items: PreviewContent, inner: int, at: ScrollPosition, rows: int) -> ScrollPosition:
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
    fill = "─" * max(0, inner - text_width(rule))
    # Cut by cells, not characters: a translated label may hold two-cell characters.
    cut, _used = take_width(f"{left}{rule}{fill}{right}", inner + 2)
    return span(theme.ACCENT, cut)


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
    return _box(
        option,
        width,
        rows,
        scroll,
        markdown=markdown_on(),
        highlighted=code_highlighted(),
        language=active_language(),
    )


@lru_cache(maxsize=64)
def _box(
    option: Option | None,
    width: int,
    rows: int,
    scroll: ScrollPosition,
    *,
    markdown: bool,
    highlighted: bool,
    language: str,
) -> tuple[Line, ...]:
    # ``language`` keys the cache: the borders' words are in it.
    inner = _inner(width)
    items = _content(option, markdown, highlighted, language)
    first = max(0, min(scroll[0], len(items) - 1))
    skip = max(0, scroll[1])
    rows = max(1, rows)
    content: list[Line] = []
    next_item = first
    cut = False
    while next_item < len(items) and len(content) < rows:
        pieces = items.rows(next_item, inner)
        if next_item == first:
            pieces = pieces[min(skip, len(pieces) - 1) :]
        room = rows - len(content)
        cut = len(pieces) > room
        content += pieces[:room]
        next_item += 1
    below = len(items) - next_item + cut
    above = first + (skip > 0)
    edge = span(theme.ACCENT, "│")
    top = _border("┌", "┐", inner, more_label("up", above) if above else "")
    bottom = _border(
        "└", "┘", inner, f"{more_label('down', below)} · {SCROLL_HINT}" if below else ""
    )
    body = [join(edge, pad(truncate(line, inner), inner), edge) for line in content]
    return (top, *body, bottom)
