"""Hostile payloads stay inert; small and resized terminals stay usable."""

from __future__ import annotations

import pytest

from pi_ask.config.store import SettingsStore
from tests.faces.tui.driver import Driver, run, state_for

ESC = "\x1b"
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;aGk=\x07\u202e(recommended)\u202c\x9b31m"


def hostile_payload() -> dict[str, object]:
    return {
        "title": f"Title {HOSTILE}",
        "questions": [
            {
                "id": "q",
                "label": f"Label {HOSTILE}",
                "prompt": f"Prompt {HOSTILE}\nsecond line",
                "type": "preview",
                "options": [
                    {
                        "value": "a",
                        "label": f"Option {HOSTILE}",
                        "description": f"Desc {HOSTILE}",
                        "preview": f"Preview {HOSTILE}\n\tindented",
                    },
                    {"value": "b", "label": "Plain", "preview": "plain"},
                ],
            }
        ],
    }


def test_escape_sequences_and_bidi_overrides_show_as_text(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(hostile_payload()), store, width=120).start()
        text = "\n".join(driver.lines())
        for field in ("Title", "Label", "Prompt", "Option", "Desc", "Preview"):
            assert f"{field} ^[[2J^[]0;pwned^G^[]52;c;aGk=^G<U+202E>(recommended)<U+202C>" in text
        assert "\\x9b31m" in text
        written = "".join(driver.stream.written)
        assert "]52;" not in written.replace("^[]52;", "")
        assert "\x1b]0;" not in written and "\u202e" not in written and "\x9b" not in written
        assert driver.screen.title == ""  # nothing retitled the window
        # The only real (recommended) marker comes from the flag: none is styled as one.
        row, column = driver.find("(recommended)")
        assert driver.style_at(row, column).fg != "f0c674"
        # A paste is the one way control characters reach an editor.
        await driver.press("shift+n", f"text:{ESC}[200~note {ESC}[31m{ESC}[201~")
        assert "note ^[[31m" in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_result_keeps_the_payload_strings_unchanged(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(hostile_payload()), store, width=120).start()
        await driver.press("enter", "enter")
        result = await driver.result()
        assert result.details.answers["q"].labels == (f"Option {HOSTILE}",)
        await driver.close()

    run(scenario())


def test_usable_at_40_by_10(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, width=40, height=10).start()
        lines = driver.lines()
        assert len(lines) <= 10
        # The rules say what the window hides: the prompt, above the cursor row.
        assert lines[0] == "─ ↑ 2 more " + "─" * 29 and lines[-1] == "─ ↓ 5 more " + "─" * 29
        assert any("☐ Language" in line for line in lines)
        assert any("❯ 1. Python" in line for line in lines)
        await driver.press("down", "down", "down")
        assert any("❯ 4. Type your own" in line for line in driver.lines())
        assert any("Type answer..." in line for line in driver.lines())
        await driver.press("text:Zig", "enter")
        assert any("☐ Features" in line for line in driver.lines())
        assert dict(driver.flow.state.answers)["lang"].custom_text == "Zig"
        await driver.press("?")
        assert len(driver.lines()) <= 10
        assert any("Auto-submit" in line for line in driver.lines())
        await driver.press("esc")
        assert all(len(line) <= 40 for line in driver.lines())
        await driver.close()

    run(scenario())


def test_resize_redraws_at_the_new_width(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, width=100).start()
        await driver.press("right", "right")
        assert any("┌" in line and "❯ 1. Single file" in line for line in driver.lines())
        await driver.resize(60, 40)
        lines = driver.lines()
        assert lines[0] == "─" * 60
        assert "┌" + "─" * 58 + "┐" in lines  # stacked layout now
        await driver.close()

    run(scenario())


def test_no_color_keeps_only_reverse_video(
    store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, color_depth=None).start()
        cells = [cell for row in driver.screen.buffer.values() for cell in row.values()]
        assert all(cell.fg == "default" and cell.bg == "default" for cell in cells)
        row, column = driver.find("☐ Language")
        assert driver.style_at(row, column).reverse  # the active tab still stands out
        await driver.press("down", "down", "down", "text:Zig")
        row, column = driver.find("Zig")
        assert driver.style_at(row, column + 3).reverse  # and so does the cursor
        await driver.close()

    run(scenario())


@pytest.mark.parametrize("tab", [0, 2], ids=["single", "preview"])
def test_no_color_marks_the_chosen_option(
    tab: int, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back on an answered single or preview question, the chosen row stands out uncoloured."""
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, color_depth=None).start()
        await driver.press(*(["right"] * tab), "down", "enter", "left")
        chosen = driver.style_at(*driver.find("2. "))
        other = driver.style_at(*driver.find("3. "))
        assert chosen.bold and chosen.underscore
        assert not (other.bold or other.underscore)
        await driver.close()

    run(scenario())
