"""Everything in an ask is reachable at every size from 40x10 to 200x50 (issue 13).

Each screen of the flow is driven headless (``sweep.py``) at the boundary sizes and at
hypothesis-drawn sizes in between, by its keys, until everything has been shown; every
frame on the way must fit, keep its rules, boxes and hints whole and show the cursor row.
tests/faces/tui/test_sweep_pyte.py runs some of the same through a pyte terminal with real key
presses; tests/e2e/test_tmux_sizes.py through tmux.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.styled_text import lines_text
from pi_ask.state.commands import (
    Command,
    Confirm,
    MoveOption,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
)
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from tests.faces.tui.driver import state_for
from tests.faces.tui.sweep import Screen, Tokens, headless, payload, tokens

WIDTHS = (40, 41, 59, 60, 79, 80, 99, 100, 200)
HEIGHTS = (10, 11, 16, 24, 30, 50)
SIZES = [(w, h) for w in WIDTHS for h in HEIGHTS]
BEHAVIOUR = Behaviour()


def _question(t: Tokens, kind: str, options: int = 5, preview: int = 0) -> dict[str, Any]:
    question: dict[str, Any] = {
        "id": f"q{t.count}",
        "label": "Q",
        "type": kind,
        "prompt": f"Prompt {t.words(45)}\nSecond paragraph {t.words(12)}",
        "options": [],
    }
    for n in range(options):
        option: dict[str, Any] = {
            "value": f"o{n}",
            "label": f"Option {t.words(2)}",
            "description": t.words(9),
        }
        if n == 0:
            option["recommended"] = True
        if preview:
            option["preview"] = "\n".join(f"  line {t.words(1)}" for _ in range(preview))
        question["options"].append(option)
    return question


def _run(state: AskState, commands: list[Command]) -> AskState:
    for command in commands:
        state = apply(state, command, BEHAVIOUR)
    return state


def single() -> tuple[AskState, set[str]]:
    data = payload(_question(Tokens(), "single"))
    return state_for(data), tokens(json.dumps(data))


def multi() -> tuple[AskState, set[str]]:
    data = payload(_question(Tokens(), "multi"))
    return state_for(data), tokens(json.dumps(data))


def preview() -> tuple[AskState, set[str]]:
    data = payload(_question(Tokens(), "preview", options=3, preview=25))
    return state_for(data), tokens(json.dumps(data))


def notes() -> tuple[AskState, set[str]]:
    t = Tokens()
    data = payload(_question(t, "single", options=3))
    question_note, option_note = t.words(30), t.words(25)
    state = _run(
        state_for(data),
        [
            OpenQuestionNote(),
            SubmitEditor(f"note {question_note}"),
            MoveOption(1),
            OpenOptionNote(),
            SubmitEditor(f"option note {option_note}"),
        ],
    )
    return state, tokens(json.dumps(data)) | tokens(question_note + " " + option_note)


EDITOR_TEXT = "typed " + " ".join(f"t{n:04d}" for n in range(9000, 9040))


def editor() -> tuple[AskState, set[str]]:
    """The answer editor open under "Type your own" (the sweep types a long answer)."""
    data = payload(_question(Tokens(), "single", options=3))
    state = _run(state_for(data), [MoveOption(3)])
    return state, tokens(json.dumps(data)) | tokens(EDITOR_TEXT)


def review() -> tuple[AskState, set[str]]:
    """The review of twelve answered questions, with notes."""
    t = Tokens()
    questions = []
    for n in range(12):
        questions.append(
            {
                "id": f"q{n}",
                "label": f"Label {t.words(1)}",
                "prompt": "Which one?",
                "options": [
                    {"value": "a", "label": f"Chosen {t.words(1)}"},
                    {"value": "b", "label": "Other"},
                ],
            }
        )
    state = state_for(payload(*questions))
    expected: set[str] = set()
    for question in questions:
        note = t.words(6)
        state = _run(state, [OpenQuestionNote(), SubmitEditor(note), Confirm()])
        expected |= tokens(json.dumps(question)) | tokens(note)
    assert state.tab == len(questions)  # on the review tab
    return state, expected


SCREENS: dict[str, Callable[[], tuple[AskState, set[str]]]] = {
    "single": single,
    "multi": multi,
    "preview": preview,
    "notes": notes,
    "editor": editor,
    "review": review,
}
BUILT = {name: build() for name, build in SCREENS.items()}


def sweep(name: str, store: SettingsStore, width: int, height: int) -> Screen:
    state, expected = BUILT[name]
    with headless(state, store, width, height) as screen:
        if name == "review":
            screen.hints += ("Press 1, 2, or 3",)
        if name == "editor":
            screen.flow.editor.load(EDITOR_TEXT)
            screen.page_through()
        else:
            screen.explore()
        missing = expected - screen.seen
        assert not missing, f"never shown at {width}x{height}: {sorted(missing)[:10]}"
        return screen


@pytest.mark.parametrize("name", SCREENS)
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_everything_is_reachable(name: str, width: int, height: int, store: SettingsStore) -> None:
    sweep(name, store, width, height)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(sorted(SCREENS)), st.integers(40, 200), st.integers(10, 50))
def test_everything_is_reachable_at_drawn_sizes(
    store: SettingsStore, name: str, width: int, height: int
) -> None:
    sweep(name, store, width, height)


def overlay_sweep(store: SettingsStore, width: int, height: int) -> list[list[str]]:
    """Open the overlay, visit every row; every frame keeps its title, description, footer."""
    from pi_ask.faces.tui.settings_rows import SETTING_ROWS

    state, _ = BUILT["single"]
    frames: list[list[str]] = []
    with headless(state, store, width, height) as screen:
        screen.flow.open_settings()
        for index, row in enumerate(SETTING_ROWS):
            if index:
                screen.flow.settings_action("move", 1)
            screen.lines()
            overlay = lines_text(screen.flow.canvas.render_overlay(*screen.overlay_size()))
            shown = "\n".join(overlay)
            assert len(overlay) <= height, shown
            assert "pi-ask settings" in shown, shown
            assert "to close" in shown, shown
            assert row.description.split()[0] in shown, shown
            assert row.label.split()[0] in shown, shown  # the focused row is in view
            frames.append(overlay)
        if store.notice is not None or "not-a-folder" in str(store.path):
            screen.flow.settings_action("move", 1)  # back on the first toggle
            screen.flow.settings_action("toggle", 0)
            overlay = lines_text(screen.flow.canvas.render_overlay(*screen.overlay_size()))
            assert "Unable to save" in "\n".join(overlay), "\n".join(overlay)
            frames.append(overlay)
    return frames


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_overlay_fits_and_shows_every_row(
    width: int, height: int, store: SettingsStore
) -> None:
    frames = overlay_sweep(store, width, height)
    if height >= 24 and width >= 80:
        assert not any("more" in line for frame in frames for line in frame)  # whole at once


@pytest.mark.parametrize(("width", "height"), [(40, 10), (60, 16), (80, 24)])
def test_a_save_error_is_always_visible(width: int, height: int, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    overlay_sweep(SettingsStore(blocker / "config.toml"), width, height)


@pytest.mark.parametrize(("width", "height"), [(40, 10), (80, 24)])
def test_a_broken_config_says_so_and_why_a_save_fails(
    width: int, height: int, tmp_path: Path
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[behaviour\nnot toml at all", encoding="utf-8")
    store = SettingsStore(path)
    assert store.notice is not None
    frames = overlay_sweep(store, width, height)
    assert any("Unable to save" in "\n".join(frame) for frame in frames)
