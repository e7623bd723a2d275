"""Markdown drawn in the TUI: the parse's lines (``pi_ask.markdown``) styled and wrapped.

Roles become theme styles (headings, emphasis, inline and fenced code with Pygments' token
kinds in the theme's syntax colours, links with their URL after them, quote bars, list
bullets); a paragraph wraps by words as behaviour.md §7.9 says, a code line by characters
with its spacing kept, and a table's columns are fitted to the width (a cell too wide wraps
inside its column). ``text_block`` is what the screens call: Markdown only when the text has
Markdown syntax and ``[ui] markdown`` is on, else the plain wrap they always drew.

A flow's first frame does not wait for markdown-it and Pygments (python-port.md §8): it
draws the text as written, the services' worker thread loads the parser
(``load_markdown``) and the next frame, asked for at once, draws the Markdown with its
fenced code uncoloured; then the worker loads Pygments and the lexers the payload names
(``load_highlighting``) and the frame after colours the code. So the Markdown waits only
for markdown-it's import (~17 ms), not for Pygments' (a Python lexer alone is ~30 ms).
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.styled_text import (
    EMPTY,
    Line,
    Span,
    join,
    line_width,
    pad,
    span,
    text_width,
    truncate,
)
from pi_ask.faces.tui.wrapping import wrapped
from pi_ask.markdown.lines import HREF, MdLine, Runs, TableShape
from pi_ask.markdown.scan import has_markdown
from pi_ask.markdown.switch import markdown_enabled
from pi_ask.terminal_text import sanitize_block

if TYPE_CHECKING:
    from collections.abc import Iterable

ROLE_STYLES = {
    "strong": "bold",
    "em": "italic",
    "strike": "strike",
    "code": theme.CODE,
    "link": theme.LINK,
    "url": theme.DIM,
    "heading": theme.HEADING,
    "quote": theme.MUTED,
    "bullet": theme.ACCENT,
    "number": theme.ACCENT,
    "fence": theme.DIM,
    "rule": theme.DIM,
    "recommended": theme.WARNING,
    "syntax-keyword": theme.SYNTAX_KEYWORD,
    "syntax-string": theme.SYNTAX_STRING,
    "syntax-comment": theme.SYNTAX_COMMENT,
    "syntax-number": theme.SYNTAX_NUMBER,
    "syntax-function": theme.SYNTAX_FUNCTION,
    "syntax-type": theme.SYNTAX_TYPE,
    "inserted": theme.SUCCESS,
    "deleted": theme.ERROR,
}
_MARKS = {"bullet": glyphs.BULLET, "quote": glyphs.EDGE + " "}
_COLUMN_GAP = f" {glyphs.EDGE} "
_SPACES = r"(\s+)"


_DEFERRED = [False]
_CODE_DEFERRED = [False]
# The language after a fence's opening marks, for the lexers worth loading early. A fence is
# Markdown itself (``has_markdown`` says so), so plain text needs no separate sifting out.
_FENCE_LANGUAGE = r"(?m)^ {0,3}(?:`{3,}|~{3,})[ \t]*([\w+#.-]+)"


def markdown_on() -> bool:
    """Whether Markdown is drawn now: ``[ui] markdown`` is on and the parser is loaded or
    may be loaded on the spot."""
    return markdown_enabled() and not _DEFERRED[0]


def use_markdown(text: str | None) -> bool:
    """Whether ``text`` is drawn as Markdown."""
    return bool(text) and markdown_on() and has_markdown(text or "")


def code_highlighted() -> bool:
    """Whether fenced code is coloured now: its lexers are loaded or may be on the spot."""
    return not _CODE_DEFERRED[0]


def defer_markdown() -> None:
    """For a flow's first frame: draw Markdown as written until ``load_markdown`` has run,
    and fenced code uncoloured until ``load_highlighting`` has, unless the parser or
    Pygments is loaded already (a later flow in the same process)."""
    wait_for_markdown(
        parser="pi_ask.markdown.document" not in sys.modules,
        lexers="pygments.lexer" not in sys.modules,
    )


def wait_for_markdown(*, parser: bool, lexers: bool) -> None:
    """Draw Markdown as written while ``parser``, fenced code uncoloured while ``lexers``,
    until ``load_markdown`` and ``load_highlighting`` have run."""
    _DEFERRED[0] = parser
    _CODE_DEFERRED[0] = lexers


def markdown_deferred() -> bool:
    """True while Markdown waits for ``load_markdown``."""
    return _DEFERRED[0]


def load_markdown(texts: Iterable[str]) -> bool:
    """Load the parser when ``texts`` have Markdown, then draw it (code still uncoloured
    while ``load_highlighting`` has not run).

    Returns:
        True when Markdown was waiting for this (the caller redraws).
    """
    if not _DEFERRED[0]:
        return False
    found = any(text and has_markdown(text) for text in texts)
    if found:
        from pi_ask.markdown import document

        document.preload()
    _DEFERRED[0] = False
    return found


def load_highlighting(texts: Iterable[str]) -> bool:
    """Load Pygments and the lexers the fenced blocks of ``texts`` name, then colour code.

    Returns:
        True when code on screen may have waited for this (the caller redraws).
    """
    if not _CODE_DEFERRED[0]:
        return False
    languages: set[str] = set()
    for text in texts:
        languages.update(re.findall(_FENCE_LANGUAGE, text[:200_000]))
    if languages:
        from pi_ask.markdown import highlight

        for language in sorted(languages)[:8]:
            highlight.preload(language)
    _CODE_DEFERRED[0] = False
    return bool(languages)


def text_block(
    text: str, width: int, style: str, prefix: Line = EMPTY, continuation: Line | None = None
) -> tuple[Line, ...]:
    """A multi-line payload text wrapped to ``width`` in ``style`` after ``prefix`` (the first
    line) and ``continuation`` (the others, ``prefix`` by default): Markdown when it is."""
    if not use_markdown(text):
        return wrapped(sanitize_block(text), width, style, prefix, continuation)
    from pi_ask.markdown.document import render

    return markdown_block(render(text, code_highlighted()), width, style, prefix, continuation)


@lru_cache(maxsize=1024)
def markdown_block(
    lines: tuple[MdLine, ...],
    width: int,
    style: str,
    prefix: Line = EMPTY,
    continuation: Line | None = None,
) -> tuple[Line, ...]:
    """Parsed lines drawn after ``prefix`` and ``continuation``, each row cut to ``width``."""
    if continuation is None:
        continuation = prefix
    available = max(1, width - line_width(prefix))
    out: list[Line] = []
    for line in lines:
        for row in md_rows(line, available, style):
            out.append(truncate(join(continuation if out else prefix, row), width))
    return tuple(out)


def _style(roles: str, base: str) -> str:
    styles = [_role_style(role) for role in roles.split()]
    return " ".join(part for part in (base, *styles) if part)


def _role_style(role: str) -> str:
    # A link's target rides in its style as ``[href=...]`` (ignored by prompt_toolkit's
    # style parser) until ``hyperlinks`` makes it an OSC 8 link where the terminal shows them.
    if role.startswith(HREF):
        return f"[{role}]"
    return ROLE_STYLES.get(role, "")


def styled(runs: Runs, base: str) -> Line:
    """Runs in their theme styles over ``base``; markers drawn as the TUI's glyphs."""
    return tuple((_style(roles, base), _MARKS.get(roles, text)) for roles, text in runs if text)


@lru_cache(maxsize=8192)
def md_rows(line: MdLine, width: int, base: str) -> tuple[Line, ...]:
    """The screen rows of one parsed line at ``width`` cells."""
    width = max(1, width)
    lead, hang = styled(line.lead, base), styled(line.hang, base)
    if line.table is not None:
        return _table_rows(line, lead, hang, width, base)
    roles = line.runs[0][0].split() if line.runs else []
    if "rule" in roles:
        rule = glyphs.RULE * max(1, width - line_width(lead))
        return (join(lead, span(_style("rule", base), rule)),)
    if "fence-end" in roles:
        return (lead,)
    content = styled(line.runs, base)
    return wrap_styled(lead, hang, content, width, by_characters=line.code)


def wrap_styled(
    first: Line, rest: Line, content: Line, width: int, *, by_characters: bool = False
) -> tuple[Line, ...]:
    """``content`` wrapped after ``first`` (first row) and ``rest`` (the others).

    By words (whitespace runs become one space, a word wider than a row is broken by
    characters), or ``by_characters`` for code, whose spacing is kept.
    """
    first_room = max(1, width - line_width(first))
    rest_room = max(1, width - line_width(rest))
    if by_characters:
        rows = _by_characters(content, first_room, rest_room)
    else:
        rows = _by_words(_words(content), first_room, rest_room)
    return tuple(join(first if n == 0 else rest, row) for n, row in enumerate(rows))


def _words(content: Line) -> list[Line]:
    words: list[Line] = []
    current: list[Span] = []
    for style, text in content:
        for piece in re.split(_SPACES, text):
            if not piece:
                continue
            if piece.isspace():
                if current:
                    words.append(tuple(current))
                    current = []
            else:
                current.append((style, piece))
    if current:
        words.append(tuple(current))
    return words


def _by_words(words: list[Line], first_room: int, rest_room: int) -> list[Line]:
    rows: list[Line] = []
    current: Line = EMPTY
    used = 0

    def room() -> int:
        return first_room if not rows else rest_room

    for word in words:
        size = line_width(word)
        if current and used + 1 + size <= room():
            current = join(current, ((current[-1][0], " "),), word)
            used += 1 + size
            continue
        if current:
            rows.append(current)
            current, used = EMPTY, 0
        if size <= room():
            current, used = word, size
            continue
        pieces = _by_characters(word, room(), rest_room)
        rows.extend(pieces[:-1])
        current, used = pieces[-1], line_width(pieces[-1])
    if current or not rows:
        rows.append(current)
    return rows


def _by_characters(content: Line, first_room: int, rest_room: int) -> list[Line]:
    rows: list[Line] = []
    current: list[Span] = []
    used = 0
    for style, text in content:
        for char in text:
            cells = text_width(char)
            if current and used + cells > (first_room if not rows else rest_room):
                rows.append(tuple(current))
                current, used = [], 0
            if current and current[-1][0] == style:
                current[-1] = (style, current[-1][1] + char)
            else:
                current.append((style, char))
            used += cells
    if current or not rows:
        rows.append(tuple(current))
    return rows


@lru_cache(maxsize=256)
def _column_widths(shape: TableShape, room: int) -> tuple[int, ...]:
    """Each column's width: what its widest cell needs, shrunk fairly when they do not fit."""
    columns = len(shape.aligns)
    natural = [1] * columns
    for row in shape.rows:
        for number, cell in enumerate(row[:columns]):
            natural[number] = max(natural[number], line_width(styled(cell, "")))
    room = max(columns, room - len(_COLUMN_GAP) * (columns - 1))
    if sum(natural) <= room:
        return tuple(natural)
    widths = [0] * columns
    left = room
    order = sorted(range(columns), key=lambda number: natural[number])
    for place, number in enumerate(order):
        share = max(1, left // (columns - place))
        widths[number] = min(natural[number], share)
        left -= widths[number]
    return tuple(widths)


def _aligned(row: Line, width: int, align: str) -> Line:
    missing = width - line_width(row)
    if missing <= 0:
        return row
    before = missing // 2 if align == "center" else missing if align == "right" else 0
    return pad(join(span("", " " * before), row), width)


def _table_rows(line: MdLine, lead: Line, hang: Line, width: int, base: str) -> tuple[Line, ...]:
    assert line.table is not None
    shape = line.table
    widths = _column_widths(shape, width - line_width(hang))
    gap = span(_style("rule", base), _COLUMN_GAP)
    if not line.cells:  # the delimiter row under the header
        cross = glyphs.RULE + glyphs.TABLE_CROSS + glyphs.RULE
        rule = cross.join(glyphs.RULE * size for size in widths)
        return (truncate(join(lead, span(_style("rule", base), rule)), width),)
    cell_style = f"{base} bold" if line.header else base
    cells = [
        _by_words(_words(styled(cell, cell_style)), size, size)
        for cell, size in zip(line.cells, widths, strict=False)
    ]
    cells += [[EMPTY]] * (len(widths) - len(cells))
    height = max(len(cell) for cell in cells)
    rows: list[Line] = []
    for number in range(height):
        parts: list[Line] = []
        for cell, size, align in zip(cells, widths, shape.aligns, strict=False):
            piece = cell[number] if number < len(cell) else EMPTY
            parts.append(_aligned(piece, size, align))
        row = parts[0]
        for part in parts[1:]:
            row = join(row, gap, part)
        rows.append(truncate(join(lead if number == 0 else hang, row), width))
    return tuple(rows)
