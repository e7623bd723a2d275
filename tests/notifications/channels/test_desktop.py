"""The ``desktop`` channel against a real private D-Bus session bus.

Each test that needs a bus starts its own ``dbus-daemon`` (a minimal session config with
no service folders, so nothing is activated behind the test's back) and, where it needs
one, a small freedesktop notification service on it (``notification_service.py``).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pi_ask.notifications.channel import (
    CancelScope,
    ChannelSkipped,
    ChannelUnavailable,
    Notification,
    SendContext,
)
from pi_ask.notifications.channels.desktop import DesktopChannel, desktop_problem
from pi_ask.notifications.probe import run_test

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("dbus-daemon") is None,
    reason="needs dbus-daemon (Linux)",
)

SERVICE = Path(__file__).resolve().parents[1] / "notification_service.py"
CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
NOTE = Notification(title="pi ask", message="Question waiting: Database")


@dataclass
class SessionBus:
    address: str
    log: Path
    folder: Path

    def notifications(self) -> list[dict[str, str]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def _stop(process: subprocess.Popen[bytes]) -> None:
    with process:  # waits for it and closes its pipes
        process.kill()


@pytest.fixture
def session_bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SessionBus]:
    config = tmp_path / "session.conf"
    config.write_text(CONFIG.format(socket=tmp_path / "bus"), encoding="utf-8")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--nofork", "--print-address", f"--config-file={config}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert daemon.stdout is not None
        address = daemon.stdout.readline().decode().strip()  # printed once it listens
        assert address.startswith("unix:"), address
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield SessionBus(address, tmp_path / "notifications.jsonl", tmp_path)
    finally:
        _stop(daemon)


@pytest.fixture
def notification_service(session_bus: SessionBus) -> Iterator[SessionBus]:
    service = subprocess.Popen(
        [sys.executable, str(SERVICE), str(session_bus.log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert service.stdout is not None
        assert service.stdout.readline() == b"ready\n"  # it owns the name now
        yield session_bus
    finally:
        _stop(service)


def _context(timeout_s: float = 30) -> SendContext:
    return SendContext(None, timeout_s, CancelScope())


def test_the_notification_reaches_the_service_on_the_session_bus(
    notification_service: SessionBus,
) -> None:
    assert DesktopChannel().send(NOTE, _context()) == "freedesktop (D-Bus)"
    (shown,) = notification_service.notifications()
    assert shown == {
        "app_name": "pi ask",
        "summary": "pi ask",
        "body": "Question waiting: Database",
        "icon": "",
        "actions": ["default", ""],  # desktop-notifier's own: a click with nothing to do
    }


def test_a_bus_without_a_notification_service_is_unavailable(session_bus: SessionBus) -> None:
    with pytest.raises(ChannelUnavailable) as raised:
        DesktopChannel().send(NOTE, _context())
    assert str(raised.value) == "no notification service on the D-Bus session bus"


def test_no_session_bus_is_unavailable_without_trying(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(ChannelUnavailable) as raised:
        DesktopChannel().send(NOTE, _context())
    assert str(raised.value) == "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"


def test_a_bus_address_nobody_listens_on_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'gone'}")
    with pytest.raises(ChannelUnavailable, match=r"^cannot reach the D-Bus session bus: "):
        DesktopChannel().send(NOTE, _context())


def test_after_a_terminal_notification_the_desktop_adds_none(
    notification_service: SessionBus,
) -> None:
    context = _context()
    context.reached_desktop.set()
    with pytest.raises(ChannelSkipped, match="terminal's own notification already reached"):
        DesktopChannel().send(NOTE, context)
    assert notification_service.notifications() == []


def test_platforms_with_their_own_notifications_need_no_bus() -> None:
    assert desktop_problem({}, "darwin") is None
    assert desktop_problem({}, "win32") is None
    assert desktop_problem({"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"}, "linux") is None


def test_notify_reports_unavailable_channels_and_exits_zero_when_the_rest_sent(
    notification_service: SessionBus,
) -> None:
    lines, code = run_test(["terminal", "desktop"], enabled=True, timeout_s=30, write_terminal=None)
    assert lines == [
        "1. terminal: unavailable: no terminal",
        "2. desktop: sent — freedesktop (D-Bus)",
    ]
    assert code == 0


def test_notify_with_nothing_available_says_so_and_exits_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    lines, code = run_test(["desktop"], enabled=True, timeout_s=30, write_terminal=None)
    assert lines == [
        "1. desktop: unavailable: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)",
        "nothing was sent: no channel is available here",
    ]
    assert code == 1


@pytest.fixture
def link(tmp_path: Path) -> Iterator[str]:
    """An ask's page, unique to the test; a helper still waiting for its click at the end
    (a failed test) is stopped."""
    import os
    import signal

    page = f"http://127.0.0.1:8787/#ask={tmp_path.name}"
    yield page
    for pid in _lingering(page):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


@pytest.fixture
def xfce_service(session_bus: SessionBus) -> Iterator[SessionBus]:
    """A notification service that says it is Xfce's, which reports no click."""
    service = subprocess.Popen(
        [sys.executable, str(SERVICE), str(session_bus.log), "xfce"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert service.stdout is not None
        assert service.stdout.readline() == b"ready\n"
        yield session_bus
    finally:
        _stop(service)


@pytest.fixture
def browser_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$BROWSER`` is a script that writes the address it is asked to open."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {opened}\n', encoding="utf-8")
    script.chmod(0o700)
    monkeypatch.setenv("BROWSER", f"{script} %s")
    return opened


def _lingering(link: str) -> list[int]:
    """Our processes whose environment carries ``link`` as the desktop helper's link."""
    wanted = f"PI_ASK_DESKTOP_LINK={link}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if wanted in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _user(bus: SessionBus, method: str, identifier: int) -> None:
    import asyncio
    import importlib.util

    spec = importlib.util.spec_from_file_location("notification_service", SERVICE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    asyncio.run(module.call(bus.address, method, identifier))


def test_a_click_on_the_notification_opens_the_ask_s_page(
    notification_service: SessionBus, browser_log: Path, link: str
) -> None:
    from tests.child_processes import wait_until

    note = Notification(title="pi ask", message="Question waiting: Database", link=link)
    # The channel is done once the notification is shown; a helper stays for the click.
    assert DesktopChannel().send(note, _context()) == "freedesktop (D-Bus)"
    (shown,) = notification_service.notifications()
    assert shown["actions"] == ["default", ""]
    assert link not in json.dumps(shown)  # the page is opened on click, not shown as text
    assert _lingering(link)
    assert not browser_log.exists()
    _user(notification_service, "Click", 1)
    wait_until(browser_log.exists, "the browser asked to open the page")
    assert browser_log.read_text().splitlines() == [link]
    wait_until(lambda: not _lingering(link), "the helper gone after the click")


def test_a_dismissed_notification_opens_nothing_and_its_helper_leaves(
    notification_service: SessionBus, browser_log: Path, link: str
) -> None:
    from tests.child_processes import wait_until

    note = Notification(title="pi ask", message="Question waiting: Database", link=link)
    assert DesktopChannel().send(note, _context()) == "freedesktop (D-Bus)"
    _user(notification_service, "Dismiss", 1)
    wait_until(lambda: not _lingering(link), "the helper gone after the dismissal")
    assert not browser_log.exists()


def test_a_service_without_clicks_keeps_no_helper(
    xfce_service: SessionBus, browser_log: Path, link: str
) -> None:
    note = Notification(title="pi ask", message="Question waiting: Database", link=link)
    assert DesktopChannel().send(note, _context()) == "freedesktop (D-Bus)"
    (shown,) = xfce_service.notifications()
    assert "actions" not in shown
    assert _lingering(link) == []  # the helper ended with the channel
