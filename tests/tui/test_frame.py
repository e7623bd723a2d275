"""The frame fits any terminal: every line within the width, never taller than the height."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.keymaps import DEFAULT_KEYMAPS
from pi_ask.state import AskState, Behaviour, MoveOption, MoveTab, OpenQuestionNote, apply
from pi_ask.tui.editor_view import EditorView
from pi_ask.tui.frame import FlowView, render_frame
from pi_ask.tui.styled_text import line_width, lines_text

from .driver import state_for

BEHAVIOUR = Behaviour()


def states() -> list[AskState]:
    start = state_for("payload_a.json")
    preview = apply(apply(start, MoveTab(2), BEHAVIOUR), MoveOption(1), BEHAVIOUR)
    review = apply(start, MoveTab(-1), BEHAVIOUR)
    note = apply(start, OpenQuestionNote(), BEHAVIOUR)
    return [start, preview, review, note]


STATES = states()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.integers(1, 130), st.integers(1, 60))
def test_every_frame_fits(which: int, width: int, height: int) -> None:
    state = STATES[which]
    editor = EditorView("some text " * 20, 15) if which == 3 else None
    frame = render_frame(FlowView(state, BEHAVIOUR, DEFAULT_KEYMAPS, editor), width, height)
    assert 1 <= len(frame.lines) <= height
    assert all(line_width(line) <= max(width, 2) for line in frame.lines)


def test_short_terminal_keeps_the_tab_row_and_the_cursor_row() -> None:
    state = apply(STATES[0], MoveOption(3), BEHAVIOUR)
    lines = lines_text(render_frame(FlowView(state, BEHAVIOUR, DEFAULT_KEYMAPS), 80, 10).lines)
    assert len(lines) == 10
    assert lines[0] == "─" * 80 and lines[-1] == "─" * 80
    assert any("☐ Language" in line for line in lines)
    assert any(line.startswith("❯ 4. Type your own") for line in lines)


def test_footer_hints_off_leaves_no_gap() -> None:
    quiet = Behaviour(show_footer_hints=False)
    lines = lines_text(render_frame(FlowView(STATES[0], quiet, DEFAULT_KEYMAPS), 80, 40).lines)
    assert lines[-2] == "  4. Type your own"
    assert lines[-1] == "─" * 80


def test_a_tall_preview_shrinks_to_the_terminal() -> None:
    lines = lines_text(render_frame(FlowView(STATES[1], BEHAVIOUR, DEFAULT_KEYMAPS), 60, 24).lines)
    assert len(lines) <= 24
    assert any(line.startswith("┌") for line in lines)
    assert any(line.startswith("└") for line in lines)
