"""Key paths of the ask flow (behaviour.md §5-6) through the real application."""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence

from pi_ask.config.store import SettingsStore
from pi_ask.contract.results import ToolResult
from pi_ask.state.model import AskState, EditAnswer
from tests.faces.tui.driver import Driver, run, state_for

DIRTY = "Unsaved ask answers or drafts. Press Esc or Ctrl+C again to discard."


async def _finish(
    store: SettingsStore, keys: Sequence[str], payload: object = "payload_a.json", width: int = 80
) -> tuple[ToolResult, list[str]]:
    driver = await Driver(state_for(payload), store, width=width).start()
    await driver.press(*keys)
    result = await driver.result()
    lines = driver.lines()
    await driver.close()
    return result, lines


def finish(store: SettingsStore, keys: Sequence[str], **kw: object) -> tuple[ToolResult, list[str]]:
    result: tuple[ToolResult, list[str]] = run(_finish(store, keys, **kw))  # type: ignore[arg-type]
    return result


def answers(result: ToolResult) -> dict[str, object]:
    details = result.to_json()["details"]
    assert isinstance(details, dict)
    return details["answers"]  # type: ignore[no-any-return]


def test_enter_through_every_question_then_submit(store: SettingsStore) -> None:
    result, screen = finish(store, ["enter", "space", "enter", "enter", "enter"])
    assert not result.details.cancelled
    assert answers(result) == {
        "lang": {"values": ["py"], "labels": ["Python"], "indices": [1]},
        "features": {"values": ["login"], "labels": ["Login"], "indices": [1]},
        "layout": {"values": ["flat"], "labels": ["Single file"], "indices": [1]},
    }
    # The drawing is erased; the transcript stays on the terminal.
    assert screen == ["✓ Language: Python", "✓ Features: Login", "✓ Layout: Single file"]


def test_digits_select_and_advance(store: SettingsStore) -> None:
    result, _ = finish(store, ["3", "3", "1", "enter", "2", "1", "1"])
    assert answers(result)["lang"] == {"values": ["rs"], "labels": ["Rust"], "indices": [3]}
    assert answers(result)["features"] == {
        "values": ["sync", "login"],
        "labels": ["Cloud sync", "Login"],
        "indices": [3, 1],
    }
    assert answers(result)["layout"] == {
        "values": ["split"],
        "labels": ["Split by environment"],
        "indices": [2],
    }


def test_dirty_dismiss_needs_a_second_press(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("enter", "esc")
        assert DIRTY in driver.lines()
        assert driver.task is not None and not driver.task.done()
        await driver.press("ctrl+c")
        result = await driver.result()
        assert result.details.cancelled
        assert result.text == "User cancelled the ask flow"
        assert driver.lines() == ["Cancelled"]
        await driver.close()

    run(scenario())


def test_clean_flow_cancels_at_once(store: SettingsStore) -> None:
    result, _ = finish(store, ["esc"])
    assert result.details.cancelled


def test_dismiss_from_an_editor_drops_the_draft(store: SettingsStore) -> None:
    result, _ = finish(store, ["down", "down", "down", "text:half typed", "ctrl+c", "ctrl+c"])
    assert result.details.cancelled
    assert answers(result) == {}


def test_guard_off_cancels_dirty_flow_at_once(store: SettingsStore) -> None:
    assert store.set("behaviour.confirm_dismiss_when_dirty", False).ok
    result, _ = finish(store, ["enter", "esc"])
    assert result.details.cancelled
    assert "lang" in answers(result)


def test_review_double_press(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, width=60).start()
        await driver.press("enter", "space", "enter", "enter", "2")
        assert " Press 2 again to Elaborate." in driver.lines()
        await driver.press("1")
        assert " Press 1 again to Submit." in driver.lines()
        await driver.press("1")
        result = await driver.result()
        assert result.details.mode == "submit" and not result.details.cancelled
        await driver.close()

    run(scenario())


def test_review_digit_acts_at_once_without_double_press(store: SettingsStore) -> None:
    assert store.set("behaviour.double_press_review_shortcuts", False).ok
    result, _ = finish(store, ["left", "2"])
    assert result.details.mode == "elaborate"


def test_review_cancel_bypasses_the_guard(store: SettingsStore) -> None:
    result, _ = finish(store, ["enter", "left", "left", "down", "down", "enter"])
    assert result.details.cancelled
    assert "lang" in answers(result)


def test_auto_submit_closes_on_a_fully_answered_review(store: SettingsStore) -> None:
    assert store.set("behaviour.auto_submit_when_answered_without_notes", True).ok
    result, _ = finish(store, ["enter", "space", "enter", "enter"])
    assert not result.details.cancelled
    assert set(answers(result)) == {"lang", "features", "layout"}


def test_type_change_and_destructive_confirmation(store: SettingsStore) -> None:
    confirm = (
        "Switching to single-select will clear selected options for this question. "
        "Press the type key again to confirm."
    )

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, width=120).start()
        await driver.press("right", "space", "down", "space", "t")
        assert confirm in driver.lines()
        assert "❯ 2. [x] CSV export" in driver.lines()
        await driver.press("t")
        assert "Question type changed from multi to single." in driver.lines()
        assert "❯ 2. CSV export" in driver.lines()
        await driver.press("left")
        assert not any("Question type" in line for line in driver.lines())
        await driver.close()

    run(scenario())


def test_esc_in_the_answer_editor_saves_without_advancing(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("4", "text:  Zig  ", "esc")
        assert driver.flow.state.tab == 0
        assert "❯ 4. Type your own" in driver.lines()
        assert "     Zig" in driver.lines()
        await driver.press("down")  # at the last row: nothing moves, the editor stays shut
        assert not isinstance(driver.flow.state.view, EditAnswer)
        await driver.press("right", "enter", "enter", "enter")
        result = await driver.result()
        assert answers(result)["lang"] == {
            "values": ["Zig"],
            "labels": ["Zig"],
            "indices": [],
            "customText": "Zig",
        }
        await driver.close()

    run(scenario())


def test_empty_editor_navigation_and_settings_key(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("4")
        assert isinstance(driver.flow.state.view, EditAnswer)
        await driver.press("text:a?b")
        assert driver.flow.editor.text == "a?b"
        assert driver.flow.panel is None
        await driver.press("left", "left")  # with text, arrows move the cursor
        assert driver.flow.editor.buffer.cursor_position == 1
        await driver.press("end", "backspace", "backspace", "backspace")
        assert driver.flow.editor.text == ""
        await driver.press("?")
        assert driver.flow.panel is not None
        await driver.press("esc", "up")  # empty editor: up moves the cursor
        assert driver.flow.state.row == 2
        await driver.close()

    run(scenario())


def test_notes_and_review_previews(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("down", "n", "text:why not", "enter", "up", "enter")
        await driver.press("left", "left")
        assert driver.flow.state.tab == 3
        assert "                   → Python" in driver.lines()
        # Submit highlighted: the note on Go shows, marked as not sent (python-port.md §12).
        lines = driver.lines()
        at = next(i for i, line in enumerate(lines) if "Go Note: why not" in line)
        assert "(not sent unless you choose it or Elaborate)" in lines[at + 1]
        await driver.press("down")
        assert any("Go Note: why not" in line for line in driver.lines())
        assert not any("not sent unless" in line for line in driver.lines())
        await driver.press("enter")
        result = await driver.result()
        assert result.details.mode == "elaborate"
        assert result.details.elaboration is not None
        assert [item.note for item in result.details.elaboration.items] == ["why not"]
        await driver.close()

    run(scenario())


def test_option_note_key_is_ignored_on_the_custom_row(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("4", "esc", "n")
        assert "Add a note..." not in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_on_commit_reports_committed_changes_only(store: SettingsStore) -> None:
    seen: list[AskState] = []

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, on_commit=seen.append).start()
        await driver.press("down", "down", "4", "text:abc")
        assert seen == []
        await driver.press("enter")
        assert len(seen) == 1
        assert dict(seen[0].answers)["lang"].custom_text == "abc"
        await driver.press("space")
        assert len(seen) == 2
        await driver.close()

    run(scenario())


def test_on_first_frame_runs_once_after_the_first_frame_off_the_loop(
    store: SettingsStore,
) -> None:
    calls: list[tuple[int, int]] = []

    async def scenario() -> None:
        driver: Driver

        def first_frame() -> None:
            calls.append((driver.renders, threading.get_ident()))

        driver = Driver(state_for("payload_a.json"), store, on_first_frame=first_frame)
        await driver.start()
        await driver.until(lambda: bool(calls))
        await driver.press("down", "down")
        await driver.close()

    run(scenario())
    assert len(calls) == 1
    renders, thread = calls[0]
    assert renders >= 1
    assert thread != threading.get_ident()


def test_the_first_frame_turns_the_collector_back_on(store: SettingsStore) -> None:
    # cli.main pauses the cyclic collector for start-up; the flow must not run without it,
    # and what start-up made is frozen out of its passes (the first would scan all of it).
    seen: list[tuple[bool, bool]] = []

    def first_frame() -> None:
        seen.append((gc.isenabled(), gc.get_freeze_count() > 0))

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, on_first_frame=first_frame)
        gc.disable()
        try:
            await driver.start()
            await driver.until(lambda: bool(seen))
            await driver.close()
        finally:
            gc.unfreeze()  # this test process goes on
            gc.enable()

    run(scenario())
    assert seen == [(True, True)]


def test_a_collector_left_on_freezes_nothing(store: SettingsStore) -> None:
    # A collector nobody paused (pi-ask run as a library in someone's program): what the
    # process holds is not pi-ask's start-up, and stays the collector's.
    frozen_before = gc.get_freeze_count()
    seen: list[int] = []

    async def scenario() -> None:
        driver = Driver(
            state_for("payload_a.json"),
            store,
            on_first_frame=lambda: seen.append(gc.get_freeze_count()),
        )
        await driver.start()
        await driver.until(lambda: bool(seen))
        await driver.close()

    run(scenario())
    assert seen == [frozen_before]


def test_freeform_question_opens_its_editor(store: SettingsStore) -> None:
    payload = {
        "questions": [
            {
                "id": "why",
                "prompt": "Why?",
                "options": [{"value": "answer", "label": "Answer", "freeform": True}],
            }
        ]
    }

    async def scenario() -> None:
        driver = await Driver(state_for(payload), store).start()
        lines = driver.lines()
        assert " Type your answer:" in lines
        index = lines.index(" Type your answer:")
        assert lines[index + 1] == ""
        assert lines[index + 2] == "  Type answer..."
        await driver.close()

    run(scenario())


def test_an_editor_opens_with_the_saved_text(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("4", "text:abc", "enter")
        assert driver.flow.state.tab == 1
        await driver.press("left", "4")
        assert isinstance(driver.flow.state.view, EditAnswer)
        assert driver.flow.editor.text == "abc"
        assert "      abc" in driver.lines()
        await driver.press("shift+tab")  # with text, Shift+Tab stays in the editor
        assert driver.flow.state.tab == 0
        await driver.press("esc", "shift+n", "text:first", "enter", "shift+n")
        assert driver.flow.editor.text == "first"
        await driver.close()

    run(scenario())
