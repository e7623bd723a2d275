from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from pi_ask.notifications.channel import ChannelError, Notification
from pi_ask.notifications.channels.apprise_url import (
    AppriseChannel,
    describe_apprise_url_problem,
    is_apprise_url,
)

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal, HttpSink


# Apprise's full plugin scan imports a plugin that still uses the deprecated imghdr module.
pytestmark = pytest.mark.filterwarnings("ignore:'imghdr' is deprecated:DeprecationWarning")


def test_json_url_delivers_title_and_message(
    http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    channel = AppriseChannel(http_sink.url)
    detail = channel.send(Notification(message="Question waiting: Database"), terminal.context())
    assert detail == ""
    assert len(http_sink.bodies) == 1
    body = http_sink.bodies[0]
    assert (body["title"], body["message"]) == ("pi ask", "Question waiting: Database")
    assert terminal.data == b""


def test_unreachable_service_fails_with_apprise_reason(terminal: CapturedTerminal) -> None:
    # Port 9 (discard) on loopback is closed: the connection is refused at once.
    with pytest.raises(ChannelError, match="Connection error"):
        AppriseChannel("json://127.0.0.1:9/").send(Notification(message="m"), terminal.context())


def test_unknown_scheme_fails_without_sending(terminal: CapturedTerminal) -> None:
    with pytest.raises(ChannelError, match=r"^apprise does not know the scheme nosuch://$"):
        AppriseChannel("nosuch://x").send(Notification(message="m"), terminal.context())


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("json://127.0.0.1:8080/", True),
        ("  ntfys://topic", True),
        ("NTFY://topic", True),
        ("bell", False),
        ("ntfy:/topic", False),
        ("://x", False),
        ("a_b://x", False),
    ],
)
def test_scheme_form(url: str, expected: bool) -> None:
    assert is_apprise_url(url) is expected


def test_a_usable_url_has_no_problem() -> None:
    assert describe_apprise_url_problem("json://127.0.0.1:8080/") is None


def test_unknown_scheme_is_a_problem() -> None:
    assert (
        describe_apprise_url_problem("nosuch://x") == "apprise does not know the scheme nosuch://"
    )


def test_a_url_the_plugin_rejects_is_a_problem() -> None:
    problem = describe_apprise_url_problem("pover://")
    assert problem is not None
    assert problem.startswith("apprise rejected this Pushover URL")


def test_native_service_url_is_recognized() -> None:
    # A Discord webhook URL as Discord gives it: no apprise scheme of its own.
    url = "https://discord.com/api/webhooks/4174216298/JHMHI8qBe7bk2ZwO5U711o3dV_js"
    assert describe_apprise_url_problem(url) is None


def test_label_hides_everything_after_the_scheme() -> None:
    assert AppriseChannel("pover://user@secret-token").label == "pover://…"
    assert AppriseChannel("dbus://").label == "dbus://"
    assert "secret" not in repr(AppriseChannel("pover://user@secret-token"))


def test_importing_the_package_and_parsing_urls_leaves_apprise_out() -> None:
    script = (
        "import sys\n"
        "import pi_ask.notifications as n\n"
        "n.parse_channels(['ntfys://topic', 'dbus://', {'type': 'command', 'command': 'x'}])\n"
        "heavy = ('apprise', 'requests', 'urllib3', 'subprocess', 'asyncio')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    assert result.stdout.strip() == "[]"
