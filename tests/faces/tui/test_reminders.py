"""Reminders while an ask waits, stopped by a key; channels that wait for you to look away."""

from __future__ import annotations

from pathlib import Path

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.terminal_reports import FOCUS_IN
from tests.faces.tui.driver import Driver, run, state_for


def _store(tmp_path: Path, notifications: str) -> SettingsStore:
    path = tmp_path / "config.toml"
    path.write_text(f"[notifications]\n{notifications}\n", encoding="utf-8")
    return SettingsStore(path)


def _bells(driver: Driver) -> int:
    return "".join(driver.stream.written).count("\x07")


def test_a_waiting_ask_is_reminded_as_often_as_configured(tmp_path: Path) -> None:
    out = tmp_path / "messages"
    command = f'echo "$ASK_NOTIFY_MESSAGE" >> {out}'  # in a TOML literal string below
    store = _store(
        tmp_path,
        "remind_after_s = 0.2\nremind_times = 2\n"
        f"channels = ['bell', {{ type = 'command', command = '{command}' }}]",
    )

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        services = driver.flow.services
        await driver.until(lambda: len(services.reminders) == 2, timeout=30)
        await driver.until(lambda: all(r.done for r in services.reminders), timeout=30)
        assert not services.reminder_pending  # two reminders, then no more
        await driver.until(lambda: _bells(driver) == 3, timeout=30)
        await driver.close()

    run(scenario())
    assert out.read_text().splitlines() == [
        "Question waiting: Language",
        "Still waiting: Language",
        "Still waiting: Language",
    ]


def test_a_key_stops_the_reminders_and_a_focus_report_does_not(tmp_path: Path) -> None:
    store = _store(tmp_path, "remind_after_s = 600\nremind_times = 3\nchannels = ['bell']")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        services = driver.flow.services
        await driver.until(lambda: services.notification is not None)
        assert services.reminder_pending
        driver.pipe.send_text(FOCUS_IN)
        reports = driver.flow.reports
        assert reports is not None
        await driver.until(lambda: reports.focused is True)
        assert services.reminder_pending  # a focus report is not a key
        await driver.press("down")
        assert not services.reminder_pending
        assert services.reminders == ()
        await driver.close()

    run(scenario())


def test_no_reminders_when_remind_times_is_zero(tmp_path: Path) -> None:
    store = _store(tmp_path, "remind_after_s = 0.1\nremind_times = 0\nchannels = ['bell']")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        services = driver.flow.services
        await driver.until(lambda: services.notification is not None)
        assert not services.reminder_pending
        await driver.close()

    run(scenario())


def test_an_unfocused_only_channel_stays_quiet_while_the_terminal_has_focus(
    tmp_path: Path,
) -> None:
    store = _store(
        tmp_path,
        "remind_after_s = 1\nremind_times = 1\nchannels = [{ type = 'bell', when = 'unfocused' }]",
    )

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        driver.pipe.send_text(FOCUS_IN)  # the user is looking at the ask
        services = driver.flow.services
        await driver.until(lambda: len(services.reminders) == 1, timeout=30)
        await driver.until(lambda: services.reminders[0].done, timeout=30)
        (attempt,) = services.reminders[0].attempts
        assert (attempt.status, attempt.detail) == (
            "skipped",
            "the terminal has focus (when = unfocused)",
        )
        await driver.close()

    run(scenario())
