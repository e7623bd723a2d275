"""The settings overlay inside the flow: toggles save at once, failures revert, live config."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pi_ask.config.store import SettingsStore
from tests.faces.tui.driver import Driver, run, state_for

ROOT = Path(__file__).resolve().parents[3]
FOOTER = " t question type · Enter confirm · n/Shift+N note · Esc cancel · ? settings"


def test_overlay_is_drawn_centred_over_the_flow(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("?")
        raw = driver.raw_lines()
        top, column = driver.find("╭")
        assert column == 4 and raw[top][75] == "╮"
        assert raw[top + 1][4:76] == "│" + "pi-ask settings".center(70) + "│"
        intro, _ = driver.find("extraction settings:")
        path_rows = raw[intro + 1 : intro + 4]
        pieces = [line[4:76].strip("│").strip() for line in path_rows]
        assert "".join(pieces).startswith(str(store.path))
        assert any(line.startswith("─") for line in raw)  # the flow stays drawn around it
        await driver.close()

    run(scenario())


def test_the_overlay_drawing_loads_when_the_overlay_first_opens(tmp_path: Path) -> None:
    # Its import is kept off the first frame (python-port.md §8).
    code = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from pi_ask.config.store import SettingsStore
        from tests.faces.tui.driver import Driver, run, state_for

        async def scenario():
            store = SettingsStore(Path(sys.argv[1]))
            driver = await Driver(state_for("payload_a.json"), store).start()
            print("pi_ask.faces.tui.settings_screen" in sys.modules)
            await driver.press("?")
            print("pi_ask.faces.tui.settings_screen" in sys.modules, driver.find("pi-ask settings"))
            await driver.close()

        run(scenario())
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_") and k != "NO_COLOR"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "config.toml")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.stdout.splitlines() == ["False", "True (1, 32)"], done.stderr


def test_toggle_saves_at_once_and_applies_live(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        assert FOOTER in driver.lines()
        # Wraps: reset, inside tmux, with no terminal, terminal face, present-as-multi,
        # theme, Markdown, footer.
        await driver.press("?", "up", "up", "up", "up", "up", "up", "up", "up")
        await driver.press("space")
        assert "show_footer_hints = false" in store.path.read_text(encoding="utf-8")
        row, _ = driver.find("Show footer hints")
        assert "[off]" in driver.raw_lines()[row]
        await driver.press("ctrl+c")  # closes the overlay only
        assert driver.flow.panel is None
        assert FOOTER not in driver.lines()
        assert driver.lines()[-1].startswith("─")
        await driver.press("down")
        assert driver.flow.state.row == 1
        await driver.close()

    run(scenario())


def test_the_markdown_row_turns_it_off_and_on_live(store: SettingsStore) -> None:
    payload = {
        "questions": [{"id": "q", "prompt": "Keep **which** loader?", "options": [{"value": "a"}]}]
    }

    async def scenario() -> None:
        driver = await Driver(state_for(payload), store).start()
        await driver.until(lambda: " Keep which loader?" in driver.lines())  # drawn Markdown
        # reset, inside tmux, with no terminal, face, present-as-multi, theme, Markdown
        await driver.press("?", "up", "up", "up", "up", "up", "up", "up")
        row, _ = driver.find("Markdown")
        assert "[on]" in driver.raw_lines()[row]
        await driver.press("space")
        assert "markdown = false" in store.path.read_text(encoding="utf-8")
        await driver.press("esc")
        assert " Keep **which** loader?" in driver.lines()  # as written, without a restart
        await driver.press("?", "up", "up", "up", "up", "up", "up", "up", "space", "esc")
        assert " Keep which loader?" in driver.lines()
        await driver.close()

    run(scenario())


def test_the_theme_row_steps_through_the_themes_and_applies_live(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        assert driver.style_at(0, 0).fg == "8abeb7"  # the top rule: dark's accent
        # reset, inside tmux, with no terminal, face, present-as-multi, theme
        await driver.press("?", "up", "up", "up", "up", "up", "up")
        row, _ = driver.find("Theme")
        assert "[dark]" in driver.raw_lines()[row]
        await driver.press("space")
        assert 'name = "light"' in store.path.read_text(encoding="utf-8")
        assert "[light]" in driver.raw_lines()[row]
        await driver.press("esc")
        assert driver.flow.panel is None
        assert driver.style_at(0, 0).fg == "005f87"  # light's accent, without a restart
        await driver.close()

    run(scenario())


def test_turning_auto_submit_on_completes_a_finished_review(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("enter", "space", "enter", "enter", "?", "enter")
        result = await driver.result()
        assert not result.details.cancelled
        assert result.details.mode == "submit"
        await driver.close()

    run(scenario())


def test_failed_save_keeps_the_value_and_shows_why(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    store = SettingsStore(blocker / "config.toml")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, height=60).start()
        await driver.press("?", "enter")
        assert store.snapshot().behaviour.auto_submit_when_answered_without_notes is False
        screen = "\n".join(driver.lines())
        assert "Unable to save ask config at" in screen
        row, _ = driver.find("Auto-submit when answered")
        assert "[off]" in driver.raw_lines()[row]
        await driver.press("down")  # the next action clears the error
        await driver.press("up")
        await driver.close()

    run(scenario())


def test_guarded_reset_needs_two_presses(store: SettingsStore) -> None:
    assert store.set("behaviour.show_footer_hints", False).ok

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("?", "up", "enter")
        assert "[confirm reset]" in "\n".join(driver.lines())
        assert store.snapshot().behaviour.show_footer_hints is False
        await driver.press("enter")
        assert store.snapshot().behaviour.show_footer_hints is True
        assert "[reset all]" in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_moving_the_focus_disarms_the_reset(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("?", "up", "enter", "up", "down")
        assert "[reset all]" in "\n".join(driver.lines())
        await driver.press("enter")
        assert "[confirm reset]" in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_edits_made_elsewhere_apply_to_the_open_flow(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        assert FOOTER in driver.lines()
        await driver.until(lambda: driver.flow.services.notification is not None)  # watching
        text = store.path.read_text(encoding="utf-8")
        store.path.write_text(
            text.replace("show_footer_hints = true", "show_footer_hints = false"),
            encoding="utf-8",
        )
        stat = store.path.stat()
        os.utime(store.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
        await driver.until(lambda: FOOTER not in driver.lines())
        assert FOOTER not in driver.lines()
        await driver.close()

    run(scenario())


def test_invalid_config_notice_shows_and_clears_on_tab_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # the notice names the file as ~/config.toml
    path = tmp_path / "config.toml"
    path.write_text("[behaviour]\nshow_footer_hints = tru\n", encoding="utf-8")
    store = SettingsStore(path)
    notice = store.notice
    assert notice is not None

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        lines = driver.lines()
        footer = lines.index(FOOTER)
        assert lines[footer - 1] != ""
        assert " ".join(lines[footer - 3 : footer]).startswith("~/config.toml: not valid TOML")
        row, _ = driver.find("~/config.toml: not valid TOML")
        assert driver.style_at(row, 0).fg == "f0c674"
        await driver.press("?")
        assert "config.toml: not valid TOML" in "\n".join(driver.lines())
        await driver.press("esc", "right")
        assert "config.toml: not valid TOML" not in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_keymaps_edited_in_the_file_rebind_the_open_flow(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.until(lambda: driver.flow.services.notification is not None)  # watching
        text = store.path.read_text(encoding="utf-8")
        text = text.replace('confirm = ["enter"]', 'confirm = ["ctrl+k"]', 1)
        assert 'confirm = ["ctrl+k"]' in text
        store.path.write_text(text, encoding="utf-8")
        stat = store.path.stat()
        os.utime(store.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
        await driver.until(lambda: any("Ctrl+K confirm" in line for line in driver.lines()))
        await driver.press("enter")  # no longer bound in the main flow
        assert driver.flow.state.tab == 0
        await driver.press("ctrl+k")
        assert driver.flow.state.tab == 1
        await driver.close()

    run(scenario())


def test_the_routing_rows_step_through_their_choices_and_save(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("?", "up", "up", "up")  # wraps: reset, inside tmux, no terminal
        await driver.press("space")
        assert store.snapshot().routing.no_terminal == "wait"
        assert 'no_terminal = "wait"' in store.path.read_text(encoding="utf-8")
        await driver.press("down", "space", "space")
        assert store.snapshot().routing.tmux == "off"
        row, _ = driver.find("Inside tmux")
        assert "off" in driver.raw_lines()[row]
        await driver.close()

    run(scenario())
