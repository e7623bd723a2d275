"""Word wrapping as the reference TUI does it (behaviour.md §7.9).

Paragraphs split on ``\\n``; an empty paragraph stays an empty line; a paragraph's leading
whitespace is kept on every wrapped line; words split on whitespace runs and are re-joined
with single spaces; a word wider than the line is broken by characters, starting on the
line before it when there is room there, so a numbered label made of one long word never
leaves its number alone on a line (``4.`` then the word on the next).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from pi_ask.faces.tui.styled_text import (
    EMPTY,
    Line,
    join,
    line_width,
    span,
    take_width,
    text_width,
    truncate,
)


def wrap_text(text: str, width: int) -> list[str]:
    """Wrap ``text`` to ``width`` cells.

    Example:
        >>> wrap_text("Title\\n\\n  indented text", 12)
        ['Title', '', '  indented', '  text']
    """
    width = max(1, width)
    lines = [line for paragraph in text.split("\n") for line in wrap_paragraph(paragraph, width)]
    return lines or [""]


def wrap_paragraph(paragraph: str, width: int) -> list[str]:
    """Wrap one paragraph (no ``\\n`` inside), keeping its leading whitespace."""
    if not paragraph:
        return [""]
    body = paragraph.lstrip()
    indent = paragraph[: len(paragraph) - len(body)]
    if not body.strip():
        return [indent]
    pieces = list(_wrap_words(body.split(), max(1, width - text_width(indent))))
    return [indent + piece for piece in pieces] or [indent]


def _wrap_words(words: list[str], width: int) -> Iterator[str]:
    current = ""
    current_width = 0
    for word in words:
        rest, rest_width = word, text_width(word)
        if current and current_width + 1 + rest_width <= width:
            current += " " + rest
            current_width += 1 + rest_width
            continue
        if rest_width > width and current and width - current_width - 1 >= 1:
            head, _ = take_width(rest, width - current_width - 1)
            yield f"{current} {head}"
            current, current_width = "", 0
            rest = rest[len(head) :]
            rest_width = text_width(rest)
        if current:
            yield current
            current, current_width = "", 0
        if rest_width <= width:
            current, current_width = rest, rest_width
        else:
            yield from break_word(rest, width)
    if current:
        yield current


def break_word(word: str, width: int) -> Iterator[str]:
    """Break ``word`` into pieces of at most ``width`` cells (at least one character each)."""
    width = max(1, width)
    current = ""
    used = 0
    for char in word:
        cells = text_width(char)
        if current and used + cells > width:
            yield current
            current, used = "", 0
        current += char
        used += cells
    if current:
        yield current


@lru_cache(maxsize=4096)
def wrapped(
    text: str,
    width: int,
    style: str,
    prefix: Line = EMPTY,
    continuation: Line | None = None,
) -> tuple[Line, ...]:
    """Wrap ``text`` in ``style`` after a first-line ``prefix`` and a ``continuation`` prefix.

    The text wraps to what the prefix leaves of ``width``; each line is truncated to
    ``width``. ``continuation`` defaults to ``prefix``. Results are cached: a frame is
    redrawn on every key, and most of its text has not changed.
    """
    if continuation is None:
        continuation = prefix
    available = max(1, width - line_width(prefix))
    out: list[Line] = []
    for index, piece in enumerate(wrap_text(text, available)):
        lead = prefix if index == 0 else continuation
        out.append(truncate(join(lead, span(style, piece)), width))
    return tuple(out)
