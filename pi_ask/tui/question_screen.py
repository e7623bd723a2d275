"""The question screen: prompt, note, option rows and what opens under them (§7.3-7.5).

``render_question`` turns the state of the active question into a ``Body``; it keeps no
state and draws the open editor from an ``EditorView`` the flow hands in.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from pi_ask.contract.payload import Question
from pi_ask.state.model import AskState, EditAnswer, EditNote
from pi_ask.state.selectors import Row, answer_for, is_row_selected, question_rows
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.tui import theme
from pi_ask.tui.body import Body, BoxBeside
from pi_ask.tui.editor_view import ANSWER_PLACEHOLDER, NOTE_PLACEHOLDER, EditorView, render_editor
from pi_ask.tui.preview_pane import render_preview_box
from pi_ask.tui.styled_text import EMPTY, Line, join, pad, span, text_width, truncate
from pi_ask.tui.wrapping import wrap_text, wrapped

RECOMMENDED = "(recommended)"
NOTE_TITLE = "Note:"
POINTER = "❯ "
DETAIL_INDENT = "     "
PREVIEW_WIDE_MIN_WIDTH = 90
_LEFT_MIN, _LEFT_MAX, _LEFT_RATIO = 22, 34, 0.34
_RIGHT_MIN = 24


class PreviewWindow(NamedTuple):
    """How much of a preview box to draw: ``rows`` content lines from paragraph ``scroll``."""

    rows: int = 10_000
    scroll: int = 0


class _Detail(NamedTuple):
    kind: str  # "editor" | "note" | "custom"
    text: str = ""
    placeholder: str = ""
    with_gap: bool = False


def saved_note(note: str, width: int, indent: str, label: str | None = None) -> tuple[Line, ...]:
    """``Note: <text>`` (``<label> Note:`` for another option's note), wrapped under itself."""
    title = f"{sanitize_line(label)} {NOTE_TITLE}" if label else NOTE_TITLE
    prefix = join(span(theme.UNSTYLED, indent), span(theme.SYNTAX_STRING, title), span("", " "))
    continuation = span(theme.UNSTYLED, indent + " " * (text_width(title) + 1))
    return wrapped(sanitize_block(note), width, theme.MUTED, prefix, continuation)


@lru_cache(maxsize=1024)
def subtitle(description: str | None, recommended: bool, width: int) -> tuple[Line, ...]:
    """The muted description under a row, after a warning ``(recommended)`` when flagged."""
    if not recommended:
        if not description:
            return ()
        return wrapped(sanitize_block(description), width, theme.MUTED, span("", DETAIL_INDENT))
    # Wrap the marker and the description as one text, then colour the marker back in.
    text = RECOMMENDED + (f" | {sanitize_block(description)}" if description else "")
    lines: list[Line] = []
    consumed = 0
    for piece in wrap_text(text, max(1, width - len(DETAIL_INDENT))):
        rest = RECOMMENDED[consumed:]
        head = piece[: len(rest)] if rest and rest.startswith(piece[: len(rest)]) else ""
        consumed += len(head)
        tail = piece[len(head) :]
        line = join(span("", DETAIL_INDENT), span(theme.WARNING, head), span(theme.MUTED, tail))
        lines.append(truncate(line, width))
    return tuple(lines)


def _row_text(question: Question, row: Row, selected: bool) -> str:
    if row.number is None:
        return row.label
    box = ("[x] " if selected else "[ ] ") if question.type == "multi" else ""
    return f"{row.number}. {box}{sanitize_line(row.label)}"


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
    lines = list(wrapped(sanitize_block(question.prompt), width, theme.TEXT, span("", " ")))
    lines += _question_note(state, question, width, editor)
    lines.append(EMPTY)
    start = len(lines)
    if question.type == "preview":
        body = _preview_body(state, question, width, editor, preview or PreviewWindow())
    else:
        body = _rows_body(state, question, width, editor)
    focus = (body.focus[0] + start, body.focus[1] + start)
    if _question_note_open(state, question):
        focus = (1, focus[1])
    outside_box = len(lines) + body.outside_box if body.box_rows else 0
    beside = body.beside and body.beside._replace(start=body.beside.start + len(lines))
    return Body(tuple(lines) + body.lines, focus, body.box_rows, outside_box, beside)


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


def _list_lines(
    state: AskState, question: Question, width: int
) -> tuple[list[Line], tuple[int, int]]:
    """The option list of a preview question: rows and subtitles, no details."""
    lines: list[Line] = []
    focus = (0, 0)
    for index, row in enumerate(question_rows(question)):
        first = len(lines)
        under_cursor = index == state.row
        style = _row_style(is_row_selected(state, question, row), under_cursor)
        pointer = span("", POINTER if under_cursor else "  ")
        lines += wrapped(_row_text(question, row, False), width, style, pointer, span("", "  "))
        if row.option is not None:
            lines += subtitle(row.option.description, row.option.recommended is True, width)
        if under_cursor:
            focus = (first, len(lines) - 1)
    return lines, focus


def preview_left_width(question: Question, width: int) -> int:
    """The option column's width in the wide preview layout (behaviour.md §7.4)."""
    widest = 0
    for number, option in enumerate(question.options, start=1):
        description = option.description and sanitize_block(option.description)
        if option.recommended:
            description = RECOMMENDED + (f" | {description}" if description else "")
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
    box: tuple[Line, ...] = ()
    beside_box = 0  # lines of the block drawn level with the box, the box included
    beside: BoxBeside | None = None
    if cursor.is_custom:
        lines, focus = _list_lines(state, question, width)
    elif width >= PREVIEW_WIDE_MIN_WIDTH and question.options:
        left = preview_left_width(question, width)
        right = max(_RIGHT_MIN, width - left - 2)
        column, focus = _list_lines(state, question, left)
        box = render_preview_box(cursor.option, right, window.rows, window.scroll)
        lines = _side_by_side(column, box, left, width)
        beside_box = len(lines)
        beside = BoxBeside(
            0, len(lines), tuple(column), left, width, cursor.option, right, window.scroll
        )
    else:
        lines, focus = _list_lines(state, question, width)
        lines.append(EMPTY)
        box = render_preview_box(cursor.option, width, window.rows, window.scroll)
        lines += [truncate(line, width) for line in box]
        beside_box = len(box)
    detail = _detail(state, question, cursor, True)
    if detail is not None:
        lines += _render_detail(detail, width, editor, DETAIL_INDENT, detail.with_gap)
        if detail.kind == "editor":
            focus = (focus[0], len(lines) - 1)
    box_rows = max(0, len(box) - 2)
    return Body(tuple(lines), focus, box_rows, len(lines) - beside_box if box else 0, beside)


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
    right = [*(EMPTY for _ in range(top)), *box]
    return [
        truncate(
            join(
                pad(column[i] if i < len(column) else EMPTY, left),
                span("", "  "),
                right[i] if i < len(right) else EMPTY,
            ),
            width,
        )
        for i in range(max(len(column), len(right), height))
    ]


def box_in_view(body: Body, first: int, rows: int, most: int) -> Body:
    """``body`` with its wide-layout preview box drawn whole on the lines shown.

    ``first`` and ``rows`` say which body lines are on screen. The option column beside
    the box can be taller than the screen; when the body scrolls to keep the cursor row in
    view, the box moves down to the first block row on screen and takes the block rows on
    screen (at most ``most`` content rows). The body keeps its length and its focus, so
    the scroll position stays right. Without a wide-layout box, or when the box is already
    whole on screen, ``body`` is returned as it is.

    Args:
        body: A body whose scroll position is known.
        first: Index of the first body line on screen.
        rows: Body lines on screen.
        most: Most content rows the box may draw.
    """
    beside = body.beside
    if beside is None:
        return body
    start, end = beside.start, beside.start + beside.height
    seen_first, seen_end = max(first, start), min(first + rows, end)
    drawn_end = start + body.box_rows + 2
    if first <= start and drawn_end <= first + rows:
        return body  # drawn whole where it is
    if seen_end - seen_first < 3:
        return body  # no room for a whole box: leave the layout as it is
    box = render_preview_box(
        beside.option, beside.box_width, min(most, seen_end - seen_first - 2), beside.scroll
    )
    top = min(seen_first - start, beside.height - len(box))
    block = _side_by_side(
        beside.column, box, beside.left, beside.width, top=top, height=beside.height
    )
    lines = (*body.lines[:start], *block, *body.lines[end:])
    return body._replace(lines=lines, box_rows=len(box) - 2)
