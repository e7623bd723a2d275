"""Styled lines: what every renderer returns, and the few operations they need.

A ``Line`` is a tuple of ``(style, text)`` fragments, the same shape prompt_toolkit draws
(``StyleAndTextTuples``), so a renderer's output goes to the screen unchanged. Styles are
prompt_toolkit style strings built from theme roles (``theme.py``). Widths are terminal
cells: wide characters count two, combining characters zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from prompt_toolkit.utils import get_cwidth

Span = tuple[str, str]
Line = tuple[Span, ...]

ELLIPSIS = "..."

EMPTY: Line = ()


def text_width(text: str) -> int:
    """Terminal cells taken by ``text``."""
    if text.isascii():
        return len(text)
    return get_cwidth(text)


def clear_split_cells(line: Line, cuts: frozenset[int]) -> Line:
    """``line`` with every two-cell character that an edge at one of ``cuts`` (a column)
    would split in two replaced by two spaces.

    A float drawn over half of such a character (the settings overlay over a Japanese
    footer) makes the terminal shift the rest of the row; two spaces split cleanly.
    """
    out: list[Span] = []
    column = 0
    for style, text in line:
        if text.isascii():
            out.append((style, text))
            column += len(text)
            continue
        pieces = []
        for char in text:
            width = get_cwidth(char)
            pieces.append("  " if width == 2 and column + 1 in cuts else char)
            column += width
        out.append((style, "".join(pieces)))
    return tuple(out)


def line_width(line: Line) -> int:
    """Terminal cells taken by ``line``."""
    return sum(text_width(text) for _, text in line)


def plain(line: Line) -> str:
    """The text of ``line`` without styles."""
    return "".join(text for _, text in line)


def span(style: str, text: str) -> Line:
    """A line of one fragment (empty text gives an empty line)."""
    return ((style, text),) if text else EMPTY


def join(*parts: Line) -> Line:
    """Concatenate lines into one."""
    out: list[Span] = []
    for part in parts:
        out.extend(part)
    return tuple(out)


def take_width(text: str, width: int) -> tuple[str, int]:
    """The longest prefix of ``text`` that fits ``width`` cells, and its width."""
    if text.isascii():
        cut = text[: max(0, width)]
        return cut, len(cut)
    used = 0
    for index, char in enumerate(text):
        cells = get_cwidth(char)
        if used + cells > width:
            return text[:index], used
        used += cells
    return text, used


def truncate(line: Line, width: int, ellipsis: str = ELLIPSIS) -> Line:
    """Cut ``line`` to ``width`` cells, ending with ``ellipsis`` when something was cut.

    The ellipsis takes the style of the fragment that was cut.
    """
    if line_width(line) <= width:
        return line
    budget = max(0, width - text_width(ellipsis))
    out: list[Span] = []
    for style, text in line:
        cut, used = take_width(text, budget)
        if cut:
            out.append((style, cut))
        budget -= used
        if cut != text:
            out.append((style, ellipsis[: max(0, width)]))
            break
    return tuple(out)


def pad(line: Line, width: int, style: str = "") -> Line:
    """Append spaces (in ``style``) so that ``line`` takes ``width`` cells."""
    missing = width - line_width(line)
    return join(line, span(style, " " * missing)) if missing > 0 else line


def two_columns(
    left: Sequence[Line], left_width: int, right: Sequence[Line], width: int, height: int = 0
) -> list[Line]:
    """``left`` padded to ``left_width``, two spaces, ``right``; each row cut to ``width``.

    As many rows as the taller column, or ``height`` when that is more.
    """
    return [
        truncate(
            join(
                pad(left[i] if i < len(left) else EMPTY, left_width),
                span("", "  "),
                right[i] if i < len(right) else EMPTY,
            ),
            width,
        )
        for i in range(max(len(left), len(right), height))
    ]


def lines_text(lines: Iterable[Line]) -> list[str]:
    """The plain text of each line (for tests and transcripts)."""
    return [plain(line) for line in lines]
