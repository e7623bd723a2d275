"""An assistant message read as blocks: paragraphs and (nested) lists.

Just enough Markdown for finding questions: fenced code and block quotes are left out (they
quote material, they do not ask), a table becomes the list of its first column (what a question
after it can offer), headings and lines that are bold all through become one-line heading
paragraphs, list items keep their continuation lines and their nested lists, up to
``MAX_LIST_DEPTH`` levels: a message nested deeper is ``NestedTooDeep``, never a
``RecursionError`` from the walks over the items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pi_ask.errors import PiAskError

MAX_LIST_DEPTH = 32
"""The deepest list nesting read; no message that asks a person anything comes near it."""

_FENCE = re.compile(r"^\s*(```|~~~)")
# The mark a terminal transcript puts before an agent's turn (Claude Code's ● and ⏺, Gemini
# CLI's ✦, a recap's ※): copied along with the message, it is not part of what it says.
_TRANSCRIPT_MARK = re.compile(r"^(\s*)[●⏺✦※]\s+")
_SKIPPED_LINE = re.compile(r"^\s*>|^\s*([-*_])(\s*\1){2,}\s*$")
_TABLE_LINE = re.compile(r"^\s*\|")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*\*\*(?P<text>[^*]+?)\*\*\s*$")
_BOLD_MARKER = re.compile(r"^(\s*)\*\*(\d{1,2}[.)])\*\*")
_ITEM = re.compile(
    r"^(?P<indent>\s*)(?:(?P<number>\d{1,2})[.)]|(?P<bullet>[-*+•])|\(?(?P<letter>[A-Ha-h])[.)])"
    r"\s+(?P<text>\S.*)$"
)
# Sentence ends: . ? ! followed by space and something that can start a sentence.
_SENTENCE_END = re.compile(r"(?<=[.?!])[\"'*_)\]]*\s+(?=[\"'*_(\[`]*[A-Z0-9])")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "Mr.", "Ms.", "Dr.")


class NestedTooDeep(PiAskError):
    """The message nests lists deeper than ``MAX_LIST_DEPTH``."""

    def __init__(self) -> None:
        super().__init__(
            f"The message nests lists more than {MAX_LIST_DEPTH} levels deep; pi-ask answer "
            "reads questions from messages nested less deeply."
        )


@dataclass(frozen=True, slots=True)
class ListItem:
    """One list item: its text (continuation lines joined) and its nested items."""

    text: str
    marker: str  # "number", "bullet", "letter" or "table" (a table row's first cell)
    children: tuple[ListItem, ...] = ()


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Consecutive text lines, joined with spaces; ``heading`` for a Markdown heading."""

    text: str
    heading: bool = False


@dataclass(frozen=True, slots=True)
class ItemList:
    """A list of items at one level."""

    items: tuple[ListItem, ...]


Block = Paragraph | ItemList


@dataclass(slots=True)
class _OpenItem:
    indent: int
    marker: str
    lines: list[str]
    children: list[_OpenItem] = field(default_factory=list)

    def close(self) -> ListItem:
        return ListItem(" ".join(self.lines), self.marker, tuple(c.close() for c in self.children))


def read_blocks(text: str) -> tuple[Block, ...]:
    """Split a message into paragraphs and lists, in order.

    Raises:
        NestedTooDeep: Its lists nest more than ``MAX_LIST_DEPTH`` levels.
    """
    blocks: list[Block] = []
    paragraph: list[str] = []
    roots: list[_OpenItem] = []
    stack: list[_OpenItem] = []

    def flush_paragraph() -> None:
        if paragraph:
            blocks.append(Paragraph(" ".join(paragraph)))
            paragraph.clear()

    def flush_list() -> None:
        if roots:
            blocks.append(ItemList(tuple(item.close() for item in roots)))
            roots.clear()
            stack.clear()

    blank_before = False
    for line in _visible_lines(text):
        if isinstance(line, ItemList):
            flush_paragraph()
            flush_list()
            blocks.append(line)
            blank_before = True
            continue
        if not line.strip():
            flush_paragraph()
            blank_before = True
            continue
        heading = _HEADING.match(line) or _BOLD_LINE.match(line)
        item = _ITEM.match(_BOLD_MARKER.sub(r"\1\2", line))
        if heading:
            flush_paragraph()
            flush_list()
            blocks.append(Paragraph(heading.group(1).strip(), heading=True))
        elif item:
            flush_paragraph()
            _add_item(item, roots, stack)
        elif stack and (line[:1].isspace() or not blank_before):
            stack[-1].lines.append(line.strip())
        else:
            flush_list()
            paragraph.append(line.strip())
        blank_before = False
    flush_paragraph()
    flush_list()
    return tuple(blocks)


def _visible_lines(text: str) -> list[str | ItemList]:
    """The message's lines, blank where material is quoted; a table is one ``ItemList``."""
    lines: list[str | ItemList] = []
    table: list[str] = []
    fenced = False
    for line in [*text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), ""]:
        if not fenced and _TABLE_LINE.match(line):
            table.append(line)
            continue
        if table:
            lines.append(_table_column(table))
            table = []
        if _FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        visible = "" if fenced or _SKIPPED_LINE.match(line) else line.rstrip()
        lines.append(_TRANSCRIPT_MARK.sub(r"\1", visible))
    return lines


def _table_column(rows: list[str]) -> str | ItemList:
    """The first cells of a table's body rows; a blank line for anything else that starts ``|``."""
    if len(rows) < 3 or not _TABLE_RULE.match(rows[1]):
        return ""
    cells = [row.strip().strip("|").split("|")[0].strip() for row in rows[2:]]
    return ItemList(tuple(ListItem(cell, "table") for cell in cells if cell))


def _add_item(match: re.Match[str], roots: list[_OpenItem], stack: list[_OpenItem]) -> None:
    indent = len(match.group("indent").expandtabs(4))
    marker = "number" if match.group("number") else "letter" if match.group("letter") else "bullet"
    while stack and stack[-1].indent >= indent:
        stack.pop()
    if len(stack) >= MAX_LIST_DEPTH:
        raise NestedTooDeep
    texts = [match.group("text").strip()]
    if match.group("number"):
        texts = _run_on_items(texts[0], int(match.group("number")))
    for text in texts:
        item = _OpenItem(indent, marker, [text])
        (stack[-1].children if stack else roots).append(item)
    stack.append(item)


def _run_on_items(text: str, number: int) -> list[str]:
    """ "Run the command directly 2. Create a script file": items a flattened line ran
    together, split where the next number follows a space; one item when none does."""
    items: list[str] = []
    while (following := re.search(rf"\s{number + 1}[.)]\s+(?=[A-Z`*])", text)) is not None:
        items.append(text[: following.start()].strip())
        text, number = text[following.end() :], number + 1
    return [*items, text.strip()]


def split_sentences(text: str) -> tuple[str, ...]:
    """Split running text into sentences, keeping abbreviations such as ``e.g.`` inside."""
    pieces = _SENTENCE_END.split(text.strip())
    sentences: list[str] = []
    for piece in pieces:
        if sentences and sentences[-1].endswith(_ABBREVIATIONS):
            sentences[-1] = f"{sentences[-1]} {piece}"
        elif piece.strip():
            sentences.append(piece.strip())
    return tuple(sentences)
