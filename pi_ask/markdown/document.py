"""Markdown source parsed into ``MdLine``s, source line by source line, in windows.

CommonMark with tables and strikethrough and without raw HTML (it stays text), with two
deviations (python-port.md §12, behaviour.md §7.9): a soft line break stays a line break,
and a paragraph line keeps its leading indentation — which is why indented code blocks are
off (code is fenced blocks only).

A preview may hold 20,000 lines, and parsing it whole costs seconds. So the source is cut
into windows (``Outline``): top-level fenced blocks are found by a line scan and highlighted
a window of lines at a time, the rest is cut at blank lines once a window is long enough,
and a window is parsed only when one of its lines is asked for. Every source line maps to
the display lines it gives (at least one), so a face can count, scroll and draw a window
of the source without the rest.

A face may ask for its lines unhighlighted (fenced code as plain ``code`` runs, Pygments
not loaded): the TUI draws the Markdown that way while its worker thread loads the lexers,
then asks again, and only the windows whose drawing left a named language uncoloured are
done over.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from pi_ask.markdown.highlight import highlight, language_of
from pi_ask.markdown.lines import BLANK, FENCE_END, HREF, MdLine, Run, Runs, TableShape
from pi_ask.terminal_text import hyperlink_target, sanitize_block

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

TEXT_WINDOW = 80
"""Source lines after which a Markdown window ends at the next blank line."""
TEXT_WINDOW_MAX = 400
"""A window with no blank line for this long ends anyway."""
CODE_WINDOW = 200
"""Lines of a fenced block highlighted at a time."""

_FENCE_OPEN = r"(`{3,}|~{3,})(.*)$"


class Window(NamedTuple):
    """Source lines ``start`` to ``end`` (exclusive): Markdown, or code in ``language``."""

    start: int
    end: int
    code: bool = False
    language: str = ""


class Outline:
    """A source text's lines and windows; each window is parsed on first use and kept."""

    __slots__ = ("_done", "_plain", "lines", "starts", "windows")

    def __init__(self, text: str) -> None:
        self.lines: tuple[str, ...] = tuple(text.split("\n"))
        self.windows: tuple[Window, ...] = _windows(self.lines)
        self.starts = tuple(window.start for window in self.windows)
        self._done: dict[int, tuple[tuple[MdLine, ...], ...]] = {}
        self._plain: set[int] = set()  # windows done with a language's code uncoloured

    def __len__(self) -> int:
        return len(self.lines)

    def line(self, number: int, highlighted: bool = True) -> tuple[MdLine, ...]:
        """The display lines of source line ``number`` (at least one). Fenced code is
        coloured by Pygments when ``highlighted``; else it is plain ``code`` runs, unless its
        window was done coloured already."""
        at = bisect_right(self.starts, number) - 1
        done = self._done.get(at)
        if done is None or (highlighted and at in self._plain):
            done, uncoloured = _render_window(self.lines, self.windows[at], highlighted)
            self._done[at] = done
            if uncoloured:
                self._plain.add(at)
            else:
                self._plain.discard(at)
        return done[number - self.windows[at].start]

    def all(self, highlighted: bool = True) -> tuple[MdLine, ...]:
        """Every display line, in order (for short texts)."""
        return tuple(
            line for number in range(len(self.lines)) for line in self.line(number, highlighted)
        )


@lru_cache(maxsize=64)
def outline(text: str) -> Outline:
    """The outline of a payload text, sanitized first (controls become visible escapes)."""
    return Outline(sanitize_block(text))


def render(text: str, highlighted: bool = True) -> tuple[MdLine, ...]:
    """Every display line of a (short) payload text (``Outline.line`` says ``highlighted``)."""
    return outline(text).all(highlighted)


def _windows(lines: tuple[str, ...]) -> tuple[Window, ...]:
    windows: list[Window] = []
    start = 0
    number = 0
    total = len(lines)
    while number < total:
        line = lines[number]
        fence = re.match(_FENCE_OPEN, line)
        if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            if number > start:
                windows.append(Window(start, number))
            end = _fence_end(lines, number, fence.group(1))
            language = language_of(fence.group(2))
            windows.append(Window(number, number + 1, True, "\0open " + fence.group(2).strip()))
            for first in range(number + 1, end, CODE_WINDOW):
                windows.append(Window(first, min(end, first + CODE_WINDOW), True, language))
            if end < total:
                windows.append(Window(end, end + 1, True, "\0close"))
            number = start = end + 1
            continue
        number += 1
        size = number - start
        if (size >= TEXT_WINDOW and not line.strip()) or size >= TEXT_WINDOW_MAX:
            windows.append(Window(start, number))
            start = number
    if start < total or not windows:
        windows.append(Window(start, total))
    return tuple(windows)


def _fence_end(lines: tuple[str, ...], opening: int, marks: str) -> int:
    """The closing fence's line, or the end of the text for a fence never closed."""
    closing = rf" {{0,3}}{re.escape(marks[0])}{{{len(marks)},}}[ \t]*$"
    for number in range(opening + 1, len(lines)):
        if re.match(closing, lines[number]):
            return number
    return len(lines)


def _render_window(
    lines: tuple[str, ...], window: Window, highlighted: bool
) -> tuple[tuple[tuple[MdLine, ...], ...], bool]:
    """A window's display lines, and whether code in a named language was left uncoloured
    (not ``highlighted``): only then would drawing it highlighted give other lines."""
    source = lines[window.start : window.end]
    if not window.code:
        return _parse(source, highlighted)
    if window.language.startswith("\0open "):
        info = window.language.removeprefix("\0open ")
        return ((MdLine((("fence", info),)),),), False
    if window.language == "\0close":
        return ((FENCE_END,),), False
    language = window.language if highlighted else ""
    rows = tuple((MdLine(_merged(runs), code=True),) for runs in highlight(source, language))
    return rows, language != window.language


def preload() -> None:
    """Build the parser now (on a worker thread), so the first text parsed does not wait."""
    _parser().parse("*a*")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    options = {"html": False, "breaks": True, "linkify": False, "typographer": False}
    return MarkdownIt("commonmark", options).enable(["table", "strikethrough"]).disable("code")


def _merged(runs: Runs) -> Runs:
    out: list[Run] = []
    for role, text in runs:
        if out and out[-1][0] == role:
            out[-1] = (role, out[-1][1] + text)
        elif text:
            out.append((role, text))
    return tuple(out)


class _Container:
    """A quote or list item around the lines being emitted: its marks, first and later."""

    __slots__ = ("first", "rest", "used")

    def __init__(self, first: Runs, rest: Runs) -> None:
        self.first, self.rest, self.used = first, rest, False


class _Walk:
    """One window's tokens turned into display lines, filed under their source lines."""

    def __init__(self, source: tuple[str, ...], highlighted: bool) -> None:
        self.source = source
        self.highlighted = highlighted
        self.uncoloured = False  # a fence naming a language was drawn plain
        self.out: list[list[MdLine]] = [[] for _ in source]
        self.stack: list[_Container] = []
        self.lists: list[str] = []  # "bullet" or "ordered", innermost last
        self.number = ""

    def emit(self, at: int, line: MdLine) -> None:
        lead: list[Run] = []
        hang: list[Run] = []
        for container in self.stack:
            lead.extend(container.rest if container.used else container.first)
            hang.extend(container.rest)
            container.used = True
        at = max(0, min(at, len(self.out) - 1))
        self.out[at].append(line._replace(lead=(*lead, *line.lead), hang=(*hang, *line.hang)))

    def result(self) -> tuple[tuple[MdLine, ...], ...]:
        return tuple(tuple(lines) or (BLANK,) for lines in self.out)


# Python's dunder names (``__init__.py``) are names, not strong emphasis: a file tree or a
# sentence naming one would otherwise lose its underscores. Code spans keep theirs anyway.
_DUNDER = r"(?<![\w\\])__([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)__(?![A-Za-z0-9])"
_CODE_SPAN = r"(`+[^`]*`+)"
_FENCE_LINE = r" {0,3}(?:[>*+-] *|\d{1,9}[.)] *)* *(?:`{3,}|~{3,})"


def _protected(source: tuple[str, ...]) -> str:
    out = []
    fenced = False
    for line in source:
        kept = line
        if re.match(_FENCE_LINE, line):
            fenced = not fenced
        elif "__" in line and not fenced:
            pieces = re.split(_CODE_SPAN, line)
            kept = "".join(
                piece if number % 2 else re.sub(_DUNDER, r"\_\_\1\_\_", piece)
                for number, piece in enumerate(pieces)
            )
        out.append(kept)
    return "\n".join(out)


def _parse(
    source: tuple[str, ...], highlighted: bool
) -> tuple[tuple[tuple[MdLine, ...], ...], bool]:
    walk = _Walk(source, highlighted)
    tokens = _parser().parse(_protected(source))
    index = 0
    while index < len(tokens):
        index = _block(walk, tokens, index)
    return walk.result(), walk.uncoloured


def _block(walk: _Walk, tokens: list[Token], index: int) -> int:
    token = tokens[index]
    kind = token.type
    start = token.map[0] if token.map else 0
    if kind == "blockquote_open":
        walk.stack.append(_Container((("quote", "> "),), (("quote", "> "),)))
    elif kind in ("blockquote_close", "list_item_close"):
        walk.stack.pop()
    elif kind in ("bullet_list_open", "ordered_list_open"):
        walk.lists.append("bullet" if kind == "bullet_list_open" else "ordered")
    elif kind in ("bullet_list_close", "ordered_list_close"):
        walk.lists.pop()
    elif kind == "list_item_open":
        if walk.lists and walk.lists[-1] == "ordered":
            mark: Run = ("number", f"{token.info}{token.markup}")
        else:
            mark = ("bullet", "-")
        width = len(mark[1]) + 1
        walk.stack.append(_Container((mark, ("", " ")), (("", " " * width),)))
        if tokens[index + 1].type.endswith("_close"):  # an empty item
            walk.emit(start, BLANK)
    elif kind in ("paragraph_open", "heading_open"):
        inline = tokens[index + 1]
        heading = kind == "heading_open"
        roles = f"heading heading-{token.tag}" if heading else ""
        indent = not walk.stack and not heading
        _inline_lines(walk, inline, roles, indent)
        return index + 3
    elif kind == "fence":
        _fence(walk, token)
    elif kind == "hr":
        walk.emit(start, MdLine((("rule", "---"),)))
    elif kind == "table_open":
        return _table(walk, tokens, index)
    elif kind == "inline":  # a tight list item's text
        _inline_lines(walk, token, "", False)
    return index + 1


def _fence(walk: _Walk, token: Token) -> None:
    assert token.map is not None
    start, end = token.map
    info = token.info.strip()
    walk.emit(start, MdLine((("fence", info),)))
    code = token.content.removesuffix("\n")
    named = language_of(info)
    language = named if walk.highlighted else ""
    walk.uncoloured |= language != named
    rows = highlight(tuple(code.split("\n")), language) if code else ()
    for offset, runs in enumerate(rows, start=1):
        walk.emit(start + offset, MdLine(_merged(runs), code=True))
    if end - start > len(rows) + 1:
        walk.emit(end - 1, FENCE_END)


def _inline_lines(walk: _Walk, inline: Token, roles: str, indent: bool) -> None:
    start = inline.map[0] if inline.map else 0
    for offset, runs in enumerate(_split_lines(inline.children or [], roles)):
        lead: Runs = ()
        if indent and start + offset < len(walk.source):
            text = walk.source[start + offset]
            spaces = text[: len(text) - len(text.lstrip())]
            lead = (("", spaces),) if spaces else ()
        walk.emit(start + offset, MdLine(_merged(runs), lead, lead))


def _split_lines(children: list[Token], base: str) -> list[Runs]:
    """Inline tokens as runs, a list per line (soft and hard breaks both end one)."""
    lines: list[list[Run]] = [[]]
    roles: list[str] = [base] if base else []
    links: list[tuple[str, int, int]] = []  # href, line and run where the link's text starts
    for child in children:
        kind = child.type
        now = " ".join(roles)
        if kind == "text":
            lines[-1].append((now, child.content))
        elif kind in ("softbreak", "hardbreak"):
            lines.append([])
        elif kind == "code_inline":
            lines[-1].append((f"{now} code".strip(), child.content))
        elif kind.endswith("_open") and kind[:-5] in _INLINE_ROLES:
            roles.append(_INLINE_ROLES[kind[:-5]])
            if kind == "link_open":
                links.append((str(child.attrs.get("href", "")), len(lines), len(lines[-1])))
        elif kind.endswith("_close") and kind[:-6] in _INLINE_ROLES:
            if roles and roles[-1] == _INLINE_ROLES[kind[:-6]]:
                roles.pop()
            if kind == "link_close" and links:
                url, line, run = links.pop()
                shown = lines[-1][run:] if line == len(lines) else lines[-1]
                _name_target(lines, line - 1, run, url)
                _after_link(lines[-1], url, "".join(text for _, text in shown), now)
        elif kind == "image":
            alt = child.content or "image"
            lines[-1].append((f"{now} link".strip(), alt))
            _after_link(lines[-1], str(child.attrs.get("src", "")), alt, now)
        elif child.content:
            lines[-1].append((now, child.content))
    return [tuple(line) for line in lines]


def _name_target(lines: list[list[Run]], line: int, run: int, url: str) -> None:
    """Give the link's text runs (from ``lines[line][run]`` on) the role ``href=<target>``,
    for a terminal that shows hyperlinks; a URL that may not be one gets none."""
    target = hyperlink_target(url)
    if target is None:
        return
    for index in range(line, len(lines)):
        runs = lines[index]
        for position in range(run if index == line else 0, len(runs)):
            roles, text = runs[position]
            if "link" in roles.split():
                runs[position] = (f"{roles} {HREF}{target}", text)


def _after_link(line: list[Run], url: str, text: str, roles: str) -> None:
    """A link shows its text, then its URL, unless the text is the URL (an autolink)."""
    shown = url.removeprefix("mailto:")
    if url and text not in (url, shown):
        base = " ".join(r for r in roles.split() if r != "link")
        line.append((f"{base} url".strip(), f" ({url})"))


_INLINE_ROLES = {"strong": "strong", "em": "em", "s": "strike", "link": "link"}


def _table(walk: _Walk, tokens: list[Token], index: int) -> int:
    rows: list[tuple[Runs, ...]] = []
    starts: list[int] = []
    aligns: list[str] = []
    cells: list[Runs] = []
    header_done = False
    while tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "tr_open":
            cells = []
            starts.append(token.map[0] if token.map else 0)
        elif token.type in ("th_open", "td_open"):
            if not header_done:
                style = str(token.attrs.get("style", ""))
                aligns.append(style.removeprefix("text-align:") or "left")
            inline = tokens[index + 1]
            pieces = _split_lines(inline.children or [], "strong" if not header_done else "")
            cells.append(_merged(tuple(run for line in pieces for run in line)))
        elif token.type == "tr_close":
            rows.append(tuple(cells))
            header_done = True
        index += 1
    shape = TableShape(tuple(rows), tuple(aligns))
    for number, (cells_of_row, at) in enumerate(zip(rows, starts, strict=True)):
        walk.emit(at, MdLine((), cells=cells_of_row, table=shape, header=number == 0))
        if number == 0:
            walk.emit(at + 1, MdLine((), cells=(), table=shape))
    return index + 1
