"""What the Markdown parse hands a face: lines of runs named by role, not yet styled.

A ``Run`` is ``(roles, text)``: ``roles`` is a space-separated set of names a face turns
into its own look — ``strong``, ``em``, ``strike``, ``code`` (inline code and code blocks),
``link``, ``url``, ``heading`` (and ``heading-h1`` ...), ``quote``, the markers ``bullet``,
``number``, ``fence`` (a code block's language), ``fence-end`` and ``rule``, and in
highlighted code the token kinds ``syntax-keyword``, ``syntax-string``, ``syntax-comment``,
``syntax-number``, ``syntax-function``, ``syntax-type``, ``inserted`` and ``deleted``; a
link's text also carries ``href=<target>`` (``HREF``), its URL made safe for an OSC 8
hyperlink (``terminal_text.hyperlink_target``), when it may be one.
Every text is already sanitized (``terminal_text.sanitize_block`` ran on the
source before the parse), so whatever a face makes of the roles, no byte of the payload can
act on a terminal.
"""

from typing import NamedTuple

HREF = "href="
"""The role prefix naming a link's hyperlink target."""

Run = tuple[str, str]
Runs = tuple[Run, ...]


class TableShape(NamedTuple):
    """The table a row belongs to: every row's cells (header first) and each column's
    alignment (``left``, ``center``, ``right``), so a face can size the columns once."""

    rows: tuple[tuple[Runs, ...], ...]
    aligns: tuple[str, ...]


class MdLine(NamedTuple):
    """One logical line: ``lead`` before its first wrapped row, ``hang`` before the others.

    Attributes:
        runs: The line's content.
        lead: Container marks and indentation before the first row (``- ``, ``> ``, ``1. ``).
        hang: What continues them on later rows (spaces under a list marker, the quote bar).
        code: A line of a code block: broken by characters, its spacing kept.
        cells: A table row's cells (``runs`` is then empty); ``()`` for a delimiter row.
        table: The table of a row or delimiter row.
        header: A table's header row.
    """

    runs: Runs
    lead: Runs = ()
    hang: Runs = ()
    code: bool = False
    cells: tuple[Runs, ...] | None = None
    table: TableShape | None = None
    header: bool = False


BLANK = MdLine(())
FENCE_END = MdLine((("fence-end", ""),))
"""A code block's closing fence: an empty line that says where the code ends."""
