"""``required: true`` is marked on the question and on the review; Submit still goes through."""

from __future__ import annotations

from pi_ask.config.store import SettingsStore
from tests.faces.tui.driver import Driver, run, state_for

PAYLOAD = {
    "questions": [
        {"id": "db", "prompt": "Which database?", "required": True, "options": [{"value": "pg"}]},
        {"id": "ci", "prompt": "Add CI?", "options": [{"value": "yes"}]},
    ]
}


def test_the_tui_marks_it_and_still_submits(store: SettingsStore) -> None:
    async def scenario() -> object:
        driver = await Driver(state_for(PAYLOAD), store).start()
        lines = driver.lines()
        at = next(i for i, line in enumerate(lines) if "Which database?" in line)
        assert lines[at + 1].strip() == "(required)"
        await driver.press("right", "right")  # the review, nothing answered
        assert any("→ unanswered (required)" in line for line in driver.lines())
        assert not any("Add CI" in line and "required" in line for line in driver.lines())
        await driver.press("1", "1")  # Submit stays possible (the flag is advisory)
        result = await driver.result()
        await driver.close()
        return result

    result = run(scenario())
    assert result.details.mode == "submit"  # type: ignore[attr-defined]
    assert not result.details.cancelled  # type: ignore[attr-defined]
