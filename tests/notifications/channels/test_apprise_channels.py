"""The apprise channels: real apprise (its command-line tool) to a loopback HTTP server."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pi_ask.config.catalogue import is_channel_url
from pi_ask.notifications.channel import ChannelError, ChannelUnavailable, Notification
from pi_ask.notifications.channels.apprise_channels import (
    AppriseChannel,
    AppriseConfigChannel,
    describe_apprise_url_problem,
    private_label,
)
from tests.child_processes import python_output

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal, HttpSink

# Apprise's full plugin scan imports a plugin that still uses the deprecated imghdr module.
pytestmark = pytest.mark.filterwarnings("ignore:'imghdr' is deprecated:DeprecationWarning")
PACKAGE = Path(__file__).resolve().parents[3] / "pi_ask"
NOTE = Notification(message="Question waiting: Database")


def test_json_url_delivers_title_and_message(
    http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    detail = AppriseChannel(http_sink.url).send(NOTE, terminal.context(30))
    assert detail == ""
    assert len(http_sink.bodies) == 1
    body = http_sink.bodies[0]
    assert (body["title"], body["message"]) == ("pi ask", "Question waiting: Database")
    assert terminal.data == b""


def test_unreachable_service_fails_with_apprise_reason(terminal: CapturedTerminal) -> None:
    # Port 9 (discard) on loopback is closed: the connection is refused at once.
    with pytest.raises(ChannelError, match="Connection error"):
        AppriseChannel("json://127.0.0.1:9/").send(NOTE, terminal.context(30))


def test_unknown_scheme_fails_without_showing_the_url(terminal: CapturedTerminal) -> None:
    with pytest.raises(ChannelError) as raised:
        AppriseChannel("nosuch://secret-token").send(NOTE, terminal.context(30))
    assert "secret-token" not in str(raised.value)
    assert "nosuch://…" in str(raised.value)


def _config(tmp_path: Path, sink: HttpSink) -> Path:
    config = tmp_path / "apprise.yml"
    config.write_text(
        "urls:\n"
        f"  - json://127.0.0.1:{sink.port}/phone:\n"
        "      tag: phone\n"
        f"  - json://127.0.0.1:{sink.port}/desk:\n"
        "      tag: desk\n",
        encoding="utf-8",
    )
    return config


def test_a_config_file_sends_to_the_services_with_the_tags(
    tmp_path: Path, http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    channel = AppriseConfigChannel(str(_config(tmp_path, http_sink)), ("phone",))
    assert channel.send(NOTE, terminal.context(30)) == ""
    assert http_sink.paths == ["/phone"]
    assert http_sink.bodies[0]["message"] == "Question waiting: Database"


def test_a_config_file_with_no_matching_tag_fails_and_says_so(
    tmp_path: Path, http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    config = _config(tmp_path, http_sink)
    with pytest.raises(ChannelError) as raised:
        AppriseConfigChannel(str(config), ("laptop",)).send(NOTE, terminal.context(30))
    assert str(raised.value) == f"no service in {config} has the tags laptop"
    assert http_sink.bodies == []


def test_a_missing_config_file_fails_with_apprise_reason(
    tmp_path: Path, terminal: CapturedTerminal
) -> None:
    with pytest.raises(ChannelError, match="not accessible"):
        AppriseConfigChannel(str(tmp_path / "none.yml")).send(NOTE, terminal.context(30))


def _fake_apprise(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ``apprise`` beside a stand-in Python that records how it was called."""
    record = folder / "record.json"
    script = folder / "apprise"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"json.dump({{'argv': sys.argv[1:], 'urls': os.environ.get('APPRISE_URLS'),"
        f" 'stdin': sys.stdin.read()}}, open({str(record)!r}, 'w'))\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(folder / "python"))
    return record


def test_the_url_goes_in_the_environment_and_the_message_on_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: CapturedTerminal
) -> None:
    record = _fake_apprise(tmp_path, monkeypatch)
    AppriseChannel("pover://user@secret-token").send(NOTE, terminal.context(30))
    called = json.loads(record.read_text())
    assert called["urls"] == "pover://user@secret-token"
    assert not any("secret-token" in part for part in called["argv"])  # not in ps output
    assert called["stdin"] == "Question waiting: Database"
    assert called["argv"][called["argv"].index("-t") + 1] == "pi ask"


def test_tags_are_passed_one_by_one_so_any_of_them_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: CapturedTerminal
) -> None:
    record = _fake_apprise(tmp_path, monkeypatch)
    AppriseConfigChannel("~/apprise.yml", ("phone", "desk")).send(NOTE, terminal.context(30))
    argv = json.loads(record.read_text())["argv"]
    assert argv[argv.index("--config") + 1] == str(Path("~/apprise.yml").expanduser())
    assert [argv[i + 1] for i, part in enumerate(argv) if part == "--tag"] == ["phone", "desk"]


def test_without_the_apprise_tool_the_channel_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: CapturedTerminal
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ChannelUnavailable, match="the apprise command is not installed"):
        AppriseChannel("json://127.0.0.1:9/").send(NOTE, terminal.context(30))


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
    assert is_channel_url(url) is expected


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


def test_the_private_label_tells_urls_of_one_scheme_apart_and_hides_secrets() -> None:
    first = private_label("json://127.0.0.1:8080/one")
    second = private_label("json://127.0.0.1:8081/two")
    assert first != second
    assert first.startswith("json://127.0.0.1:8080")
    secret = private_label("pover://user0123456789@token0123456789abcdef")
    assert "token0123456789abcdef" not in secret
    assert secret.startswith("pover://")


def test_parsing_urls_leaves_apprise_out() -> None:
    script = (
        "import sys\n"
        "from pi_ask.notifications.channel_list import parse_channels\n"
        "parse_channels(['ntfys://topic', 'dbus://', {'type': 'command', 'command': 'x'},\n"
        "                  {'type': 'apprise', 'config': 'a.yml', 'tags': ['x']}])\n"
        "heavy = ('apprise', 'requests', 'urllib3', 'subprocess', 'asyncio')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    assert python_output(script, timeout=30).strip() == "[]"


def test_nothing_in_pi_ask_reaches_into_apprise_internals() -> None:
    # Only the package's top level (Apprise, its public API) and its command-line tool.
    reached: list[str] = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apprise"):
                reached.append(f"{path.name}: from {node.module} import ...")
            if isinstance(node, ast.Import):
                reached += [
                    f"{path.name}: import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("apprise.")
                ]
            if isinstance(node, ast.Attribute) and node.attr in (
                "NotifyBase",
                "NotificationManager",
                "N_MGR",
                "plugins",
            ):
                reached.append(f"{path.name}: .{node.attr}")
    assert reached == []


LINK = "http://127.0.0.1:8787/#ask=3f2a"


def test_ntfy_gets_the_ask_s_page_as_its_click(
    http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    """A loopback server posing as a self-hosted ntfy: the page rides in X-Click, whole."""
    note = Notification(message="Question waiting: Database", link=LINK)
    assert AppriseChannel(http_sink.ntfy_url).send(note, terminal.context(30)) == ""
    (headers,) = http_sink.headers
    assert headers["x-click"] == LINK
    body = http_sink.bodies[0]
    assert (body["topic"], body["message"]) == ("pi-ask-topic", "Question waiting: Database")
    assert LINK not in json.dumps(body)  # the link is the click, not the text


def test_without_a_link_ntfy_gets_no_click(http_sink: HttpSink, terminal: CapturedTerminal) -> None:
    AppriseChannel(http_sink.ntfy_url).send(NOTE, terminal.context(30))
    assert "x-click" not in http_sink.headers[0]


def test_a_click_the_user_set_is_kept(http_sink: HttpSink, terminal: CapturedTerminal) -> None:
    note = Notification(message="Question waiting: Database", link=LINK)
    url = http_sink.ntfy_url + "?click=https%3A%2F%2Fexample.org%2Fmine"
    AppriseChannel(url).send(note, terminal.context(30))
    assert http_sink.headers[0]["x-click"] == "https://example.org/mine"


def test_services_that_cannot_open_a_link_get_none(
    http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    note = Notification(message="Question waiting: Database", link=LINK)
    AppriseChannel(http_sink.url).send(note, terminal.context(30))
    assert LINK not in json.dumps(http_sink.bodies[0])
    assert all(LINK not in value for value in http_sink.headers[0].values())


def test_with_link_adds_the_parameter_each_service_opens() -> None:
    from pi_ask.notifications.channels.apprise_channels import with_link

    quoted = "http%3A%2F%2F127.0.0.1%3A8787%2F%23ask%3D3f2a"
    assert with_link("ntfys://ntfy.sh/t", LINK) == f"ntfys://ntfy.sh/t?click={quoted}"
    assert with_link("ntfy://h/t?priority=high", LINK) == f"ntfy://h/t?priority=high&click={quoted}"
    assert with_link("pover://user@token", LINK) == f"pover://user@token?url={quoted}"
    assert with_link("json://h/", LINK) == "json://h/"
    assert with_link("ntfy://h/t", "") == "ntfy://h/t"


def test_a_link_that_is_not_one_http_url_is_dropped() -> None:
    for bad in ("javascript:alert(1)", "http://x/\nrm -rf", "file:///etc/passwd", "http://"):
        assert Notification(message="m", link=bad).link == ""
    assert Notification(message="m", link=LINK).link == LINK
