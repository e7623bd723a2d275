"""Markdown as clean text: what the plain face, screen readers and the MCP form show.

No markup is left to read aloud: emphasis and code marks go, a link is its text and then its
URL, a heading is its words, a table row is spoken as ``header: cell`` pairs, a code block is
announced and ended in words, and a list item says so in words: ``Item:`` for a bullet (a
reader would say "dash" for ``-``), its number for a numbered one, and the nesting level below
the first (``Item (level 2):``), which indentation alone never tells a listener.
"""

from __future__ import annotations

from pi_ask.i18n import N_, gettext
from pi_ask.markdown.lines import MdLine, Runs
from pi_ask.markdown.scan import has_markdown
from pi_ask.markdown.switch import markdown_enabled

CODE_START = N_("Code:")
CODE_START_IN = N_("Code ({language}):")
CODE_END = N_("End of code.")
"""How a code block is announced and ended (message ids: said in the user's language)."""
ITEM = N_("Item:")
NESTED_ITEM = N_("Item (level {level}):")
NESTED_NUMBER = N_("{number} (level {level})")
"""A list item's marker in words: a bullet, and a nested bullet or number."""


def plain_text(text: str) -> str:
    """``text`` as clean lines when it is Markdown (and ``[ui] markdown`` is on), else as it
    is. Rendered text is sanitized (``terminal_text.sanitize_block``); text left as it is is
    not, so a caller that draws on a terminal sanitizes either way."""
    if not markdown_enabled() or not has_markdown(text):
        return text
    from pi_ask.markdown.document import render

    lines = (line_text(line) for line in render(text))
    return "\n".join(line for line in lines if line is not None)


def plain_lines(text: str, limit: int | None = None) -> tuple[list[str], int]:
    """The clean lines of ``text``'s first ``limit`` source lines (all by default), and how
    many source lines are left out: a long preview is parsed only as far as it is shown.
    As ``plain_text``, text that is not Markdown comes back as it is, unsanitized."""
    if not markdown_enabled() or not has_markdown(text):
        lines = text.split("\n")
        shown = lines if limit is None else lines[:limit]
        return shown, len(lines) - len(shown)
    from pi_ask.markdown.document import outline

    source = outline(text)
    count = len(source) if limit is None else min(limit, len(source))
    out = [
        clean
        for number in range(count)
        for line in source.line(number)
        if (clean := line_text(line)) is not None
    ]
    return out, len(source) - count


def _runs(runs: Runs) -> str:
    return "".join(text for _, text in runs)


def _marks(runs: Runs) -> str:
    """A line's lead in words: quote bars go, list markers are said (``_item``)."""
    out: list[str] = []
    level = 1  # each indentation run before a marker is a list that holds this one
    for role, text in runs:
        if role == "quote":
            out.append("  ")
        elif role in ("bullet", "number"):
            out.append(_item(role, text, level))
        else:
            out.append(text)
            level += 1 if text and text.isspace() else 0
    return "".join(out)


def _item(role: str, marker: str, level: int) -> str:
    if role == "bullet":
        return gettext(ITEM) if level == 1 else gettext(NESTED_ITEM).format(level=level)
    return marker if level == 1 else gettext(NESTED_NUMBER).format(number=marker, level=level)


def line_text(line: MdLine) -> str | None:
    """One display line as clean text; ``None`` for a line that says nothing in words (a
    table's delimiter row, its header row once the rows name their columns)."""
    lead = _marks(line.lead)
    if line.table is not None:
        if line.cells is None or not line.cells:
            return None  # a delimiter row
        header = tuple(_runs(cell) for cell in line.table.rows[0])
        cells = [_runs(cell) for cell in line.cells]
        if line.header:
            return lead + "; ".join(cells) if len(line.table.rows) == 1 else None
        return lead + "; ".join(
            f"{name}: {cell}" if name else cell for name, cell in zip(header, cells, strict=False)
        )
    roles = line.runs[0][0].split() if line.runs else []
    if "fence" in roles:
        language = _runs(line.runs).split()[0] if _runs(line.runs).strip() else ""
        start = gettext(CODE_START_IN).format(language=language) if language else ""
        return lead + (start or gettext(CODE_START))
    if "fence-end" in roles:
        return lead + gettext(CODE_END)
    if line.code:
        return lead + "  " + _runs(line.runs)
    return (lead + _runs(line.runs)).rstrip()
