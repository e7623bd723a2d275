"""The frame fits any terminal: every line within the width, never taller than the height."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.editor_view import EditorView
from pi_ask.faces.tui.frame import FlowView, render_frame
from pi_ask.faces.tui.styled_text import line_width, lines_text
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.state.commands import MoveOption, MoveTab, OpenQuestionNote
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from tests.faces.tui.driver import Driver, run, state_for

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
    assert lines[0] == "─ ↑ 5 more " + "─" * 69 and lines[-1] == "─" * 80
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


def preview_payload(preview_lines: int) -> dict[str, object]:
    """One preview question: three options with two-line descriptions, equal previews."""
    first = (
        "Keeps every setting of the project together in one place, so a new reader finds"
        " the port, the log level and the database address without opening other files"
    )
    second = (
        "Grows into a long file once the team adds environments, secrets and feature"
        " flags, and then every change to one of them touches the same file in review"
    )
    return {
        "title": "Project setup",
        "questions": [
            {
                "id": "layout",
                "type": "preview",
                "prompt": "Pick a config file layout.\nThe server reads it at start-up.",
                "options": [
                    {
                        "value": f"o{n}",
                        "label": f"Layout {n}",
                        "description": f"{first}\n{second}",
                        "preview": "\n".join(f"p{n} line {k}" for k in range(preview_lines)),
                    }
                    for n in range(3)
                ],
            }
        ],
    }


async def drawn_preview(
    store: SettingsStore, preview_lines: int, width: int, height: int
) -> list[str]:
    """The screen of the preview question in the real flow."""
    driver = await Driver(
        state_for(preview_payload(preview_lines)), store, width=width, height=height
    ).start()
    lines = driver.lines()
    await driver.close()
    assert len(lines) <= height
    return lines


def preview_rows(lines: list[str]) -> int:
    return sum("p0 line " in line for line in lines)


@pytest.mark.parametrize(("width", "height"), [(100, 40), (80, 48)], ids=["wide", "stacked"])
def test_the_preview_box_height_does_not_depend_on_the_preview_length(
    store: SettingsStore, width: int, height: int
) -> None:
    # The option list alone overflows the wide layout; the box must not pay for it.
    async def scenario() -> tuple[list[str], list[str]]:
        short = await drawn_preview(store, 20, width, height)
        long = await drawn_preview(store, 2_000, width, height)
        return short, long

    short, long = run(scenario())
    assert preview_rows(short) == preview_rows(long) >= 1
    shown = preview_rows(long)
    assert any(f"↓ {20 - shown} more" in line for line in short), "\n".join(short)
    assert any(f"↓ {2_000 - shown} more" in line for line in long), "\n".join(long)


@pytest.mark.parametrize(("width", "height"), [(100, 40), (80, 56)], ids=["wide", "stacked"])
def test_a_preview_that_fits_is_shown_whole(store: SettingsStore, width: int, height: int) -> None:
    lines = run(drawn_preview(store, 12, width, height))
    assert preview_rows(lines) == 12, "\n".join(lines)
    assert any("p0 line 11" in line for line in lines)
    assert not any("more ·" in line for line in lines), "\n".join(lines)


PREVIEWS = {n: state_for(preview_payload(n)) for n in (20, 2_000)}


@settings(max_examples=200, deadline=None)
@given(st.integers(40, 130), st.integers(10, 70))
def test_a_short_preview_shows_what_a_long_one_shows(width: int, height: int) -> None:
    def shown(preview_lines: int) -> int:
        view = FlowView(PREVIEWS[preview_lines], BEHAVIOUR, DEFAULT_KEYMAPS)
        return preview_rows(lines_text(render_frame(view, width, height).lines))

    assert shown(20) == min(20, shown(2_000))


def many_options_payload(options: int) -> dict[str, object]:
    """One preview question whose option column (two-line descriptions) outgrows the screen."""
    return {
        "questions": [
            {
                "id": "layout",
                "type": "preview",
                "prompt": "Pick a config file layout.",
                "options": [
                    {
                        "value": f"o{n}",
                        "label": f"Layout {n}",
                        "description": f"Reads one file {n}\nWrites one file {n}",
                        "preview": "\n".join(f"p{n} line {k}" for k in range(30)),
                    }
                    for n in range(options)
                ],
            }
        ]
    }


def test_the_wide_preview_box_stays_whole_when_the_option_column_scrolls(
    store: SettingsStore,
) -> None:
    async def scenario() -> list[str]:
        driver = await Driver(
            state_for(many_options_payload(8)), store, width=100, height=16
        ).start()
        await driver.press(*["down"] * 7)
        lines = driver.lines()
        await driver.close()
        return lines

    lines = run(scenario())
    shown = "\n".join(lines)
    assert any(line.startswith("❯ 8. Layout 7") for line in lines), shown
    corners = [(row, line.find("┌")) for row, line in enumerate(lines) if "┌" in line]
    assert len(corners) == 1, shown
    top_row, column = corners[0]
    assert lines[top_row + 1][column:].startswith("│Layout 7"), shown
    assert any(line[column:].startswith("└") for line in lines[top_row + 2 :]), shown
    assert any(" p7 line 0" in line or "│p7 line 0" in line for line in lines), shown


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 8), st.integers(90, 130), st.integers(10, 40))
def test_a_scrolled_wide_preview_keeps_its_whole_box_beside_the_cursor(
    row: int, width: int, height: int
) -> None:
    state = apply(PREVIEW_COLUMN, MoveOption(row), BEHAVIOUR)
    view = FlowView(state, BEHAVIOUR, DEFAULT_KEYMAPS)
    lines = lines_text(render_frame(view, width, height).lines)
    assert len(lines) <= height
    assert any(line.startswith("❯ ") for line in lines)
    if row == 8:  # "Type your own": no box
        return
    tops = [line.find("┌") for line in lines if "┌" in line]
    bottoms = [line.find("└") for line in lines if "└" in line]
    assert len(tops) == len(bottoms) == 1, "\n".join(lines)
    assert any(f"│Layout {row}" in line for line in lines), "\n".join(lines)


PREVIEW_COLUMN = state_for(many_options_payload(8))
