"""The editor block (behaviour.md §7.6): an editor drawn as a bar of ``selectedBg``.

Each content line is one space of padding, the text, padding to the bar's width, one space;
an empty editor shows its placeholder (muted) and no cursor. The cursor is a reverse-video
cell. Editors are single-line (python-port.md §10), so long text wraps by characters over
several bars. The ``@`` completion menu, when open, is listed under the editor.
"""

from typing import NamedTuple

from pi_ask.faces.tui import theme
from pi_ask.faces.tui.styled_text import Line, join, pad, span, text_width, truncate
from pi_ask.i18n import N_, gettext
from pi_ask.terminal_text import escape_controls

ANSWER_PLACEHOLDER = N_("Type answer...")
NOTE_PLACEHOLDER = N_("Add a note...")
_MENU_ROWS = 5


class EditorView(NamedTuple):
    """What an open editor shows: its text, the cursor, and the completion menu.

    Attributes:
        text: The raw text in the editor.
        cursor: Cursor position, an index into ``text``.
        completions: Labels of the open completion menu (empty when closed).
        completion_index: The highlighted completion, if any.
    """

    text: str
    cursor: int = 0
    completions: tuple[str, ...] = ()
    completion_index: int | None = None


class AttachView(NamedTuple):
    """What the open attach prompt shows: its text and menu, and why the last path was
    refused (``faces.tui.attaching``)."""

    editor: EditorView
    problem: str | None = None


def _bar(content: Line, inner: int, indent: str, width: int) -> Line:
    body = pad(truncate(content, inner), inner)
    bar = join(span(theme.UNSTYLED, " "), body, span(theme.UNSTYLED, " "))
    styled = tuple((f"{style} {theme.SELECTED_BG}".strip(), text) for style, text in bar)
    return truncate(join(span(theme.UNSTYLED, indent), styled), width)


def _text_rows(text: str, cursor: int, inner: int) -> list[Line]:
    """The editor text cut into rows of ``inner`` cells, the cursor cell in reverse."""
    before = escape_controls(text[:cursor])
    at = escape_controls(text[cursor : cursor + 1]) or " "
    after = escape_controls(text[cursor + 1 :])
    cells: list[tuple[str, str]] = [(theme.UNSTYLED, c) for c in before]
    cells += [(theme.CURSOR, c) for c in at[:1]]
    cells += [(theme.UNSTYLED, c) for c in at[1:] + after]
    rows: list[Line] = []
    row: list[tuple[str, str]] = []
    used = 0
    for style, char in cells:
        cells_needed = text_width(char)
        if row and used + cells_needed > inner:
            rows.append(tuple(row))
            row, used = [], 0
        row.append((style, char))
        used += cells_needed
    rows.append(tuple(row))
    return [_merge(r) for r in rows]


def _merge(row: Line) -> Line:
    """Join neighbouring fragments of the same style."""
    out: list[tuple[str, str]] = []
    for style, text in row:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return tuple(out)


def render_editor(editor: EditorView, width: int, indent: str, placeholder: str) -> list[Line]:
    """The editor bars, then the completion menu, for a terminal ``width`` wide.

    Args:
        editor: What the editor holds.
        width: Terminal width.
        indent: Spaces before the bar (one for question notes, five under an option).
        placeholder: Shown when the editor is empty.
    """
    inner = max(4, width - len(indent) - 2)
    if not editor.text:
        lines = [_bar(span(theme.MUTED, gettext(placeholder)), inner, indent, width)]
    else:
        rows = _text_rows(editor.text, editor.cursor, inner)
        lines = [_bar(row, inner, indent, width) for row in rows]
    return lines + _menu(editor, width, indent)


def _menu(editor: EditorView, width: int, indent: str) -> list[Line]:
    if not editor.completions:
        return []
    chosen = editor.completion_index
    first = 0
    if chosen is not None and chosen >= _MENU_ROWS:
        first = chosen - _MENU_ROWS + 1
    lines: list[Line] = []
    for index in range(first, min(len(editor.completions), first + _MENU_ROWS)):
        label = escape_controls(editor.completions[index])
        if index == chosen:
            line = join(span(theme.UNSTYLED, indent), span(theme.ACCENT, "→ " + label))
        else:
            line = join(span(theme.UNSTYLED, indent + "  "), span(theme.MUTED, label))
        lines.append(truncate(line, width))
    hidden = len(editor.completions) - (first + _MENU_ROWS)
    if hidden > 0:
        lines.append(truncate(span(theme.DIM, f"{indent}  ({hidden} more)"), width))
    return lines
