"""``pi-ask inbox --web``: the terminal inbox and the web server in one process."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask, wait_until
from tests.inbox.conftest import pending
from tests.web.conftest import WebServer


def test_usage_web_options_go_with_web(env) -> None:
    done = run_pi_ask("inbox", "--port", "8787", env=env)
    assert done.returncode == 2
    assert "--host, --port and --expose go with --web" in done.stderr


@pytest.mark.pty
def test_the_inbox_and_a_paired_page_share_the_asks(terminal, ask, asks: Path, env) -> None:
    term = terminal("inbox", "--web", "--port", "0")

    def output() -> str:
        term.pump()
        return "".join(term.output)

    server = WebServer(None, output)
    device = server.paired()
    term.wait_for("waiting for questions")
    ask("--detach")
    (info,) = pending(asks, 1)
    term.wait_for("Which database?")  # the inbox opened it, as ever
    device.act(info.ask_id, {"do": "choose", "row": 0})
    device.act(info.ask_id, {"do": "choose", "row": 1})
    assert device.act(info.ask_id, {"do": "review", "action": "submit"}).json()["ended"]["here"]
    # The terminal's flow learns it was answered elsewhere and goes back to waiting.
    term.wait_for("waiting for questions")
    fetched = run_pi_ask("result", info.ask_id, env=env)
    answers = json.loads(fetched.stdout)["details"]["answers"]
    assert answers["db"]["values"] == ["pg"] and answers["orm"]["values"] == ["none"]
    term.press("q")
    assert term.exit_status() == 0

    def refused() -> bool:
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=2).close()
        except ConnectionRefusedError:
            return True
        return False

    wait_until(refused, "the web server gone with the inbox")


@pytest.mark.pty
def test_the_inbox_s_notification_links_the_page_it_serves(
    terminal, ask, asks: Path, tmp_path: Path
) -> None:
    from tests.web.test_notification_link import command_channel, rings
    from tests.web.test_settings import write_config

    rung = tmp_path / "rung.txt"
    write_config(tmp_path, command_channel(rung))
    term = terminal("inbox", "--web", "--port", "0")

    def output() -> str:
        term.pump()
        return "".join(term.output)

    server = WebServer(None, output)
    term.wait_for("waiting for questions")
    ask("--detach")
    (info,) = pending(asks, 1)
    wait_until(lambda: rings(rung), "the inbox's notification")
    assert rings(rung) == [
        ("Question waiting: Pick a DB", f"http://127.0.0.1:{server.port}/#ask={info.ask_id}")
    ]
    term.press("q")
