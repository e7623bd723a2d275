"""Random key sequences through the real TUI flow, headless, on random valid payloads.

Each example opens an ``AskFlow`` on a pipe input and a fake terminal (the TUI tests' own
``Driver``) with random behaviour settings, and spends 150 random keys: 10 examples on each
of two terminal sizes, 3,000 keys. Whatever happens, nothing raises; a flow ends with a
result of the documented shape that agrees with its final state (and a fresh flow takes
the keys left), or it stays open and two Ctrl+C (plus whatever closes an open overlay or
menu) dismiss it with a cancelled, equally valid, result. Every committed change is checked
too: the draft the session log would keep restores the same answers.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_ask.config.store import SettingsStore
from pi_ask.contract.payload import AskPayload
from pi_ask.session.log import SessionLog, read_session
from pi_ask.session.recorder import AskRecorder
from pi_ask.session.resume import find_resumables, restore
from pi_ask.state.model import AskState
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from tests.faces.tui.driver import Driver
from tests.hardening.payloads import loaded, payload_documents
from tests.hardening.result_shape import check_result

KEYS_PER_EXAMPLE = 150
# Weighted by repetition: moving and choosing are common, leaving is rare.
KEYS = (
    *["up", "down", "down", "left", "right", "tab", "shift+tab"] * 3,
    *["enter", "enter", "space", "space", "t", "n", "shift+n"] * 2,
    *[str(digit) for digit in range(1, 10)],
    "?",
    "backspace",
    "text:ok",
    "text: ",
    "text:@",
    "text:é漢",
    "pageUp",
    "pageDown",
    "home",
    "end",
    "esc",
)
behaviours = st.fixed_dictionaries(
    {
        "auto_submit_when_answered_without_notes": st.booleans(),
        "confirm_dismiss_when_dirty": st.booleans(),
        "double_press_review_shortcuts": st.booleans(),
        "present_single_as_multi": st.booleans(),
        "show_footer_hints": st.booleans(),
    }
)


def _config_text(flags: dict[str, bool]) -> str:
    lines = ["[behaviour]", *(f"{key} = {str(value).lower()}" for key, value in flags.items())]
    return "\n".join([*lines, "[notifications]", "enabled = false", ""])


class DraftCheck:
    """Records every committed state as the session log would, and checks it restores."""

    def __init__(self, folder: Path, document: object) -> None:
        self.log = folder / "session.jsonl"
        self.recorder = AskRecorder(SessionLog(self.log, cwd=folder))
        self.recorder.start(document, "tool")
        self.payload: AskPayload | None = None
        self.commits: list[AskState] = []

    def __call__(self, state: AskState) -> None:
        self.commits.append(state)
        self.recorder.draft(state)

    def verify(self, payload: AskPayload) -> None:
        for state in self.commits:
            check_result(build_result(state).to_json(), payload)
        if not self.commits:
            return
        last = self.commits[-1]
        (found,) = find_resumables([read_session(self.log)], present_single_as_multi=False)
        restored, answers = restore(found.loaded, found.draft)
        assert dict(answers) == dict(last.answers)
        assert [q.type for q in restored.payload.questions] == [q.type for q in last.questions]


async def _one_flow(
    folder: Path,
    store: SettingsStore,
    size: tuple[int, int],
    document: object,
    flags: dict[str, bool],
    keys: list[str],
) -> int:
    """Open a flow and press ``keys`` until it ends; returns how many keys it took."""
    payload = loaded(document, single_as_multi=flags["present_single_as_multi"])
    drafts = DraftCheck(folder, document)
    driver = Driver(
        new_state(payload), store, width=size[0], height=size[1], cwd=folder, on_commit=drafts
    )
    await driver.start()
    assert driver.task is not None
    used = 0
    try:
        for key in keys:
            if driver.task.done():
                break
            await driver.press(key)
            used += 1
        presses = 0
        while not driver.task.done():
            # Ctrl+C twice dismisses a dirty flow; first it closes an open overlay or menu.
            assert presses < 4, "Ctrl+C did not dismiss the flow:\n" + "\n".join(driver.lines())
            await driver.press("ctrl+c")
            presses += 1
        result = await driver.result()
        if presses:
            assert result.details.cancelled
        state = driver.flow.state
        assert state.completed
        assert result == build_result(state)
        check_result(result.to_json(), payload)
        drafts.verify(payload)
    finally:
        await driver.close()
    return used


async def _drive(
    folder: Path, size: tuple[int, int], document: object, flags: dict[str, bool], keys: list[str]
) -> None:
    """Spend every key: a flow that ends early is followed by a fresh one on the rest."""
    config = folder / "config.toml"
    config.write_text(_config_text(flags), encoding="utf-8")
    store = SettingsStore(config)
    flow = 0
    while True:
        flow += 1
        # Each flow gets its own log, so each draft check sees only its own ask.
        (folder / "session.jsonl").unlink(missing_ok=True)
        used = await _one_flow(folder, store, size, document, flags, keys)
        keys = keys[used:]
        if not keys:
            return
        # A settings toggle may have made the next flow end at once: it still spends a key.
        keys = keys[1:] if used == 0 else keys


# A small terminal (the frame is cut to fit) and a roomy one (side-by-side preview).
@pytest.mark.parametrize("size", [(60, 16), (100, 30)])
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    payload_documents(max_questions=3),
    behaviours,
    st.lists(st.sampled_from(KEYS), min_size=KEYS_PER_EXAMPLE, max_size=KEYS_PER_EXAMPLE),
    st.lists(st.tuples(st.integers(0, KEYS_PER_EXAMPLE - 1), st.just("ctrl+c")), max_size=2),
)
def test_random_keys_end_in_a_valid_result(
    size: tuple[int, int],
    document: object,
    flags: dict[str, bool],
    keys: list[str],
    dismissals: list[tuple[int, str]],
) -> None:
    for position, key in dismissals:
        keys[position] = key
    with tempfile.TemporaryDirectory(prefix="pi-ask-keys-") as name:
        asyncio.run(_drive(Path(name), size, document, flags, keys))
