"""The question screen: prompt, note, option rows and what opens under them (§7.3-7.5).

``render_question`` turns the state of the active question into a ``Body``; it keeps no
state and draws the open editor from an ``EditorView`` the flow hands in.
"""

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from pi_ask.contract.payload import Question
from pi_ask.faces.tui import theme
from pi_ask.faces.tui.attaching import attached_lines
from pi_ask.faces.tui.body import Body, PreviewSlot
from pi_ask.faces.tui.editor_view import (
    ANSWER_PLACEHOLDER,
    NOTE_PLACEHOLDER,
    EditorView,
    render_editor,
)
from pi_ask.faces.tui.markdown_lines import (
    code_highlighted,
    markdown_block,
    text_block,
    use_markdown,
)
from pi_ask.faces.tui.preview_pane import TOP, ScrollPosition, render_preview_box
from pi_ask.faces.tui.styled_text import EMPTY, Line, join, span, text_width, truncate, two_columns
from pi_ask.faces.tui.wrapping import wrap_text, wrapped
from pi_ask.i18n import N_, gettext
from pi_ask.state.model import AskState, EditAnswer, EditNote
from pi_ask.state.selectors import Row, answer_for, is_row_selected, question_rows
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.words import REQUIRED, shown

RECOMMENDED = N_("(recommended)")
NOTE_TITLE = N_("Note:")
POINTER = "❯ "
DETAIL_INDENT = "     "
PREVIEW_WIDE_MIN_WIDTH = 90
_LEFT_MIN, _LEFT_MAX, _LEFT_RATIO = 22, 34, 0.34
_RIGHT_MIN = 24


class PreviewWindow(NamedTuple):
    """How much of a preview box to draw: ``rows`` content lines from ``scroll``."""

    rows: int = 10_000
    scroll: ScrollPosition = TOP


class _Detail(NamedTuple):
    kind: str  # "editor" | "note" | "custom"
    text: str = ""
    placeholder: str = ""
    with_gap: bool = False


def saved_note(note: str, width: int, indent: str, label: str | None = None) -> tuple[Line, ...]:
    """``Note: <text>`` (``<label> Note:`` for another option's note), wrapped under itself."""
    title = f"{sanitize_line(label)} {gettext(NOTE_TITLE)}" if label else gettext(NOTE_TITLE)
    prefix = join(span(theme.UNSTYLED, indent), span(theme.SYNTAX_STRING, title), span("", " "))
    continuation = span(theme.UNSTYLED, indent + " " * (text_width(title) + 1))
    return text_block(note, width, theme.MUTED, prefix, continuation)


def subtitle(description: str | None, recommended: bool, width: int) -> tuple[Line, ...]:
    """The muted description under a row, after a warning ``(recommended)`` when flagged."""
    marker = gettext(RECOMMENDED)
    if description and use_markdown(description):
        return _markdown_subtitle(description, recommended, width, marker, code_highlighted())
    return _subtitle(description, recommended, width, marker)


@lru_cache(maxsize=1024)
def _markdown_subtitle(
    description: str, recommended: bool, width: int, marker: str, highlighted: bool
) -> tuple[Line, ...]:
    from pi_ask.markdown.document import render

    lines = render(description, highlighted)
    if recommended and lines:
        marked = (("recommended", marker), ("", " | "), *lines[0].runs)
        lines = (lines[0]._replace(runs=marked), *lines[1:])
    return markdown_block(lines, width, theme.MUTED, span("", DETAIL_INDENT))


@lru_cache(maxsize=1024)
def _subtitle(
    description: str | None, recommended: bool, width: int, marker: str
) -> tuple[Line, ...]:
    # ``marker`` is ``(recommended)`` in the user's language; it keys the caches too.
    if not recommended:
        if not description:
            return ()
        return wrapped(sanitize_block(description), width, theme.MUTED, span("", DETAIL_INDENT))
    # Wrap the marker and the description as one text, then colour the marker back in.
    text = marker + (f" | {sanitize_block(description)}" if description else "")
    lines: list[Line] = []
    consumed = 0
    for piece in wrap_text(text, max(1, width - len(DETAIL_INDENT))):
        rest = marker[consumed:]
        head = piece[: len(rest)] if rest and rest.startswith(piece[: len(rest)]) else ""
        consumed += len(head)
        tail = piece[len(head) :]
        line = join(span("", DETAIL_INDENT), span(theme.WARNING, head), span(theme.MUTED, tail))
        lines.append(truncate(line, width))
    return tuple(lines)


def _row_text(question: Question, row: Row, selected: bool) -> str:
    label = shown(row.label) if row.is_custom else sanitize_line(row.label)
    if row.number is None:
        return label
    box = ("[x] " if selected else "[ ] ") if question.type == "multi" else ""
    return f"{row.number}. {box}{label}"


def _row_style(selected: bool, under_cursor: bool) -> str:
    """The one place an option row's look is chosen (CHOSEN stands out without colour too)."""
    if selected:
        return theme.CHOSEN
    return theme.ACCENT if under_cursor else theme.TEXT


def _detail(state: AskState, question: Question, row: Row, under_cursor: bool) -> _Detail | None:
    """What shows under a row, in priority order (behaviour.md §7.3)."""
    view = state.view
    answer = answer_for(state, question.id)
    freeform = row.number is None
    if (
        not row.is_custom
        and isinstance(view, EditNote)
        and view.question_id == question.id
        and view.option_value == row.value
    ):
        return _Detail("editor", placeholder=NOTE_PLACEHOLDER)
    if (
        row.is_custom
        and under_cursor
        and isinstance(view, EditAnswer)
        and view.question_id == question.id
    ):
        return _Detail("editor", placeholder=ANSWER_PLACEHOLDER, with_gap=freeform)
    if row.is_custom and answer is not None and answer.custom_text:
        return _Detail("custom", answer.custom_text, with_gap=freeform)
    note = None if row.is_custom or answer is None else answer.option_note(row.value)
    return _Detail("note", note) if note else None


def _render_detail(
    detail: _Detail, width: int, editor: EditorView | None, indent: str, gap: bool
) -> list[Line]:
    lines: list[Line] = [EMPTY] if gap else []
    if detail.kind == "editor":
        return [*lines, *render_editor(editor or EditorView(""), width, indent, detail.placeholder)]
    if detail.kind == "note":
        return [*lines, *saved_note(detail.text, width, indent)]
    return [*lines, *wrapped(sanitize_block(detail.text), width, theme.MUTED, span("", indent))]


def _question_note(
    state: AskState, question: Question, width: int, editor: EditorView | None
) -> list[Line]:
    view = state.view
    if isinstance(view, EditNote) and view.question_id == question.id and view.option_value is None:
        return render_editor(editor or EditorView(""), width, " ", NOTE_PLACEHOLDER)
    answer = answer_for(state, question.id)
    if answer is not None and answer.note:
        return list(saved_note(answer.note, width, " "))
    return []


def render_question(
    state: AskState,
    question: Question,
    width: int,
    editor: EditorView | None = None,
    preview: PreviewWindow | None = None,
) -> Body:
    """The body of a question tab.

    Args:
        state: The flow state (the question's answer, cursor and open editor).
        question: The active question.
        width: Terminal width.
        editor: The open editor's text and cursor, when one is open.
        preview: The preview box window for preview questions.
    """
    lines = list(text_block(question.prompt, width, theme.TEXT, span("", " ")))
    if question.required:
        lines.append(truncate(span(theme.WARNING, f" {gettext(REQUIRED)}"), width))
    lines += _question_note(state, question, width, editor)
    lines += attached_lines(state, question.id, width)
    lines.append(EMPTY)
    start = len(lines)
    if question.type == "preview":
        body = _preview_body(state, question, width, editor, preview or PreviewWindow())
    else:
        body = _rows_body(state, question, width, editor)
    assert body.focus is not None
    focus = (body.focus[0] + start, body.focus[1] + start)
    if _question_note_open(state, question):
        focus = (1, focus[1])
    slot = body.preview and _shifted(body.preview, start)
    return Body(tuple(lines) + body.lines, focus, slot)


def _shifted(slot: PreviewSlot, by: int) -> PreviewSlot:
    first, label_end = slot.cursor
    return slot._replace(at=slot.at + by, cursor=(first + by, label_end + by))


def _question_note_open(state: AskState, question: Question) -> bool:
    view = state.view
    return (
        isinstance(view, EditNote) and view.question_id == question.id and view.option_value is None
    )


def _rows_body(state: AskState, question: Question, width: int, editor: EditorView | None) -> Body:
    lines: list[Line] = []
    focus = (0, 0)
    for index, row in enumerate(question_rows(question)):
        first = len(lines)
        under_cursor = index == state.row
        lines += _standard_row(
            state, question=question, row=row, under_cursor=under_cursor, width=width, editor=editor
        )
        if under_cursor:
            focus = (first, len(lines) - 1)
    return Body(tuple(lines), focus)


def _standard_row(
    state: AskState,
    *,
    question: Question,
    row: Row,
    under_cursor: bool,
    width: int,
    editor: EditorView | None,
) -> list[Line]:
    selected = is_row_selected(state, question, row)
    style = _row_style(selected, under_cursor)
    text = _row_text(question, row, selected)
    detail = _detail(state, question, row, under_cursor)
    if row.number is None:
        # Freeform-only (§7.5): no number, no pointer, the editor or text after a blank line.
        lines = list(wrapped(text, width, style, span("", " ")))
        if detail is not None:
            lines += _render_detail(detail, width, editor, " ", gap=True)
        return lines
    pointer = span("", POINTER if under_cursor else "  ")
    lines = list(wrapped(text, width, style, pointer, span("", "  ")))
    option = row.option
    if option is not None:
        lines += subtitle(option.description, option.recommended is True, width)
    if detail is not None:
        gap = detail.with_gap and not (option is not None and option.description)
        lines += _render_detail(detail, width, editor, DETAIL_INDENT, gap)
    return lines


class _OptionList(NamedTuple):
    lines: list[Line]
    focus: tuple[int, int]
    label_end: int  # index after the cursor row's label lines


def _list_lines(state: AskState, question: Question, width: int) -> _OptionList:
    """The option list of a preview question: rows and subtitles, no details."""
    lines: list[Line] = []
    focus = (0, 0)
    label_end = 0
    for index, row in enumerate(question_rows(question)):
        first = len(lines)
        under_cursor = index == state.row
        style = _row_style(is_row_selected(state, question, row), under_cursor)
        pointer = span("", POINTER if under_cursor else "  ")
        lines += wrapped(_row_text(question, row, False), width, style, pointer, span("", "  "))
        if under_cursor:
            label_end = len(lines)
        if row.option is not None:
            lines += subtitle(row.option.description, row.option.recommended is True, width)
        if under_cursor:
            focus = (first, len(lines) - 1)
    return _OptionList(lines, focus, label_end)


def preview_left_width(question: Question, width: int) -> int:
    """The option column's width in the wide preview layout (behaviour.md §7.4)."""
    widest = 0
    for number, option in enumerate(question.options, start=1):
        description = option.description and sanitize_block(option.description)
        if option.recommended:
            description = gettext(RECOMMENDED) + (f" | {description}" if description else "")
        widest = max(
            widest,
            text_width(f"{number}. {sanitize_line(option.label)}"),
            text_width(description) if description else 0,
        )
    ceiling = max(_LEFT_MIN, min(_LEFT_MAX, int(width * _LEFT_RATIO)))
    return max(_LEFT_MIN, min(widest + 4, ceiling))


def _preview_body(
    state: AskState,
    question: Question,
    width: int,
    editor: EditorView | None,
    window: PreviewWindow,
) -> Body:
    rows = question_rows(question)
    cursor = rows[min(state.row, len(rows) - 1)]
    slot: PreviewSlot | None = None
    if cursor.is_custom:
        lines, focus, _ = _list_lines(state, question, width)
    elif width >= PREVIEW_WIDE_MIN_WIDTH and question.options:
        left = preview_left_width(question, width)
        right = max(_RIGHT_MIN, width - left - 2)
        column, focus, _ = _list_lines(state, question, left)
        lines = [truncate(line, width) for line in column]
        slot = PreviewSlot(0, tuple(column), left, width, cursor.option, right, window.scroll)
    else:
        lines, focus, label_end = _list_lines(state, question, width)
        lines.append(EMPTY)
        subtitle_lines = focus[1] + 1 - label_end
        slot = PreviewSlot(
            len(lines), (), 0, width, cursor.option, width, window.scroll,
            (focus[0], label_end), subtitle_lines,
        )  # fmt: skip
    detail = _detail(state, question, cursor, True)
    if detail is not None:
        lines += _render_detail(detail, width, editor, DETAIL_INDENT, detail.with_gap)
        if detail.kind == "editor":
            focus = (focus[0], len(lines) - 1)
    return Body(tuple(lines), focus, slot)


def _side_by_side(
    column: Sequence[Line],
    box: Sequence[Line],
    left: int,
    width: int,
    *,
    top: int = 0,
    height: int = 0,
) -> list[Line]:
    """The option column with the box beside it, ``top`` rows down, at least ``height`` tall."""
    return two_columns(column, left, [*(EMPTY for _ in range(top)), *box], width, height)


def place_preview(
    body: Body, rows: int, *, compact: bool = False, top: int = 0, height: int = 0
) -> Body:
    """``body`` with its preview box drawn, at most ``rows`` content rows tall.

    The wide layout draws the box beside the option column, ``top`` rows down (so it can
    stay beside the rows on screen when the column scrolls); the block keeps the column's
    height or the box's, whichever is taller. The stacked layout draws it under the option
    list, or, ``compact``, right under the cursor row's label in place of its description
    (the box repeats it), for terminals too short to show the cursor row and the box
    otherwise. The focus grows to take the box in, except beside a wide column.

    Args:
        body: A question body with a ``preview`` slot (returned as it is without one).
        rows: Most content rows the box may draw; 0 draws the wide block without a box.
        compact: Put the stacked box under the cursor row.
        top: Rows between the block's top and the box (wide layout).
        height: Least height of the wide block (a box moved down keeps the block as tall
            as it was).
    """
    slot = body.preview
    if slot is None:
        return body
    lines = body.lines
    focus = body.focus
    if slot.column:
        box = render_preview_box(slot.option, slot.box_width, rows, slot.scroll) if rows else ()
        height = max(height, len(slot.column))
        top = max(0, min(top, height - len(box)))
        block = _side_by_side(slot.column, box, slot.left, slot.width, top=top, height=height)
        end = slot.at + len(slot.column)
        lines = (*lines[: slot.at], *block, *lines[end:])
        if focus is not None and focus[1] >= end:  # an editor under the block
            focus = (focus[0], focus[1] + len(block) - len(slot.column))
        shown = (slot.box_width, len(box) - 2, slot.at + top) if box else (0, 0, 0)
        return Body(lines, focus, None, body.side, body.pinned, shown)
    drawn = render_preview_box(slot.option, slot.box_width, rows, slot.scroll) if rows else ()
    box = tuple(truncate(line, slot.width) for line in drawn)
    first, label_end = slot.cursor
    if compact:
        at, removed = label_end, slot.subtitle
    else:
        at, removed = slot.at, 0
    lines = (*lines[:at], *box, *lines[at + removed :])
    shift = len(box) - removed
    last = focus[1] if focus is not None else first
    if last >= at:
        last += shift
    focus = (first, max(last, at + len(box) - 1))
    if not box:
        return Body(lines, focus, None, body.side, body.pinned)
    shown = (slot.box_width, len(box) - 2, at)
    return Body(lines, focus, None, body.side, body.pinned, shown)
