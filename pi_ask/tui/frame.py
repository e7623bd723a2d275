"""The whole ask-flow frame (behaviour.md §7.1), fitted to the terminal's size.

The frame is drawn from the state alone: rule, title, tab row, the question or review body,
the notice and the footer hints, rule. When the terminal is too short for all of it, the
preview box shrinks first (to the rows the rest of the frame leaves free, so a preview shows
as many lines whatever its total length), then the spacing and the title go, and finally
the body scrolls so the cursor row (and what is open under it) stays in view; the tab row,
the notice and the closing rule are kept, so a 40x10 terminal still shows where you are and
what you type. When the body scrolls, a wide-layout preview box is drawn again beside the
part of the option column left on screen, so it stays whole while the column scrolls.
"""

from __future__ import annotations

from typing import NamedTuple

from pi_ask.keymaps.keymap import Keymaps
from pi_ask.state.model import AskState, Behaviour, EditAnswer, EditNote
from pi_ask.state.selectors import current_question, footer_notice, review_hint, tab_states
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.tui import theme
from pi_ask.tui.body import Body
from pi_ask.tui.editor_view import EditorView
from pi_ask.tui.footer import FooterKind, footer_text, wrap_footer
from pi_ask.tui.question_screen import PreviewWindow, box_in_view, render_question
from pi_ask.tui.review_screen import render_review
from pi_ask.tui.styled_text import EMPTY, Line, span, truncate
from pi_ask.tui.tab_row import render_tab_row
from pi_ask.tui.wrapping import wrap_text

_MIN_PREVIEW_ROWS = 3


class FlowView(NamedTuple):
    """Everything a frame is drawn from.

    Attributes:
        state: The engine state.
        behaviour: Live behaviour settings (footer hints, double-press hint).
        keymaps: Live keymaps (footer hints).
        editor: The open editor's text and cursor, when one is open.
        preview_scroll: First preview paragraph shown in the preview box.
    """

    state: AskState
    behaviour: Behaviour
    keymaps: Keymaps
    editor: EditorView | None = None
    preview_scroll: int = 0


class Frame(NamedTuple):
    """A fitted frame: its lines and where the body was scrolled to."""

    lines: tuple[Line, ...]
    body_offset: int = 0


def footer_kind(state: AskState) -> FooterKind:
    """Which footer the state shows."""
    if isinstance(state.view, EditAnswer):
        return "editor"
    if isinstance(state.view, EditNote):
        return "note_editor"
    question = current_question(state)
    if question is None:
        return "review"
    return "multi" if question.type == "multi" else "single"


def render_body(view: FlowView, width: int, preview_rows: int) -> Body:
    """The body of the active tab."""
    state = view.state
    question = current_question(state)
    if question is None:
        return render_review(state, width, review_hint(state, view.behaviour))
    window = PreviewWindow(rows=preview_rows, scroll=view.preview_scroll)
    return render_question(state, question, width, view.editor, window)


def _rule(width: int) -> Line:
    return span(theme.ACCENT, "─" * max(1, width))


def _bottom_lines(view: FlowView, width: int) -> tuple[list[Line], list[Line]]:
    """The notice lines and the hint lines."""
    notice = footer_notice(view.state)
    notices = (
        [span(theme.WARNING, line) for line in wrap_text(sanitize_block(notice), width)]
        if notice
        else []
    )
    hints: list[Line] = []
    if view.behaviour.show_footer_hints:
        text = footer_text(footer_kind(view.state), view.keymaps)
        hints = [span(theme.DIM, line) for line in wrap_footer(text, width)]
    return notices, hints


def render_frame(
    view: FlowView,
    width: int,
    height: int,
    *,
    body_offset: int = 0,
    preview_cap: int | None = None,
) -> Frame:
    """The frame for a terminal ``width`` x ``height``.

    Args:
        view: What to draw.
        width: Terminal columns.
        height: Rows available.
        body_offset: The body scroll position of the previous frame, kept when the focus
            is still in view so the screen does not jump.
        preview_cap: Most preview rows, whatever the height (``None``: the height).
    """
    width = max(1, width)
    state = view.state
    title = (
        [truncate(span(f"{theme.ACCENT} {theme.BOLD}", " " + sanitize_line(state.title)), width)]
        if state.title
        else []
    )
    tabs = render_tab_row(tab_states(state), width)
    notices, hints = _bottom_lines(view, width)
    rows = preview_cap if preview_cap is not None else height
    body = render_body(view, width, rows)

    def chrome(spacing: bool, with_title: bool, with_hints: bool) -> tuple[list[Line], list[Line]]:
        top = [_rule(width)]
        if with_title and title:
            top += [*title, EMPTY] if spacing else title
        top += [tabs, EMPTY] if spacing else [tabs]
        shown_hints = hints if with_hints else []
        bottom: list[Line] = []
        if notices or shown_hints:
            bottom = ([EMPTY] if spacing else []) + notices + shown_hints
        return top, [*bottom, _rule(width)]

    top, bottom = chrome(True, True, True)
    if preview_cap is None and body.box_rows > _MIN_PREVIEW_ROWS:
        # The box gets every row the rest of the frame leaves free. Sized from the rows
        # outside it, not from the frame's overflow: in the wide layout the option column
        # beside the box may be what overflows, and shrinking the box would not help.
        free = height - len(top) - len(bottom) - body.outside_box - 2
        fitted = max(_MIN_PREVIEW_ROWS, free)
        if body.box_rows > fitted:
            body = render_body(view, width, fitted)
    for spacing, with_title, with_hints in (
        (True, True, True),
        (False, True, True),
        (False, False, True),
        (False, False, False),
    ):
        top, bottom = chrome(spacing, with_title, with_hints)
        if len(top) + len(body.lines) + len(bottom) <= height:
            return Frame((*top, *body.lines, *bottom))
        if height - len(top) - len(bottom) >= min(3, len(body.lines)):
            break
    available = max(1, height - len(top) - len(bottom))
    offset = _scroll(body, available, body_offset)
    # The option column beside a wide-layout box may be what scrolls; the box is drawn
    # again beside the rows left on screen so it never scrolls away with the column.
    body = box_in_view(body, offset, available, rows)
    visible = body.lines[offset : offset + available]
    return Frame((*top, *visible, *bottom)[: max(1, height)], offset)


def scroll_to_focus(body: Body, height: int) -> tuple[Line, ...]:
    """The ``height`` lines of ``body`` that show its focus (all of them when they fit)."""
    if len(body.lines) <= height:
        return body.lines
    offset = _scroll(body, height, 0)
    return body.lines[offset : offset + height]


def _scroll(body: Body, rows: int, previous: int) -> int:
    """The body offset that shows the focus, moving as little as possible from ``previous``."""
    first, last = body.focus
    most = max(0, len(body.lines) - rows)
    offset = min(max(previous, last - rows + 1), first)
    return max(0, min(offset, most))
