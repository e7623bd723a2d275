"""Where ``--ui auto`` goes without a terminal of its own: an inbox, tmux, or nowhere at once."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.relay.paths import INBOX_SUFFIX
from pi_ask.state.summary import REASON_LINES
from tests.child_processes import wait_until
from tests.e2e.terminal import Terminal, pi_ask_command
from tests.inbox.conftest import PAYLOAD, pending


def _titled(title: str) -> dict[str, object]:
    return {**PAYLOAD, "title": title}


def test_two_askers_one_inbox_oldest_first_nothing_crossed(
    ask, terminal, runtime: Path, asks: Path
) -> None:
    inbox = terminal("inbox")
    inbox.wait_for("waiting for questions")
    wait_until(lambda: any(p.name.endswith(INBOX_SUFFIX) for p in runtime.iterdir()), "inbox")
    first = ask(name="first", payload=_titled("First ask"))
    pending(asks, 1)
    second = ask(name="second", payload=_titled("Second ask"))
    pending(asks, 2)
    inbox.wait_for("First ask")
    # The second arrival never takes over the open flow; it shows in the footer.
    inbox.wait_for("1 more waiting")
    inbox.press("1", "1", "1", "1")  # PostgreSQL, SQLAlchemy, Submit (double press)
    inbox.wait_for("Second ask")
    inbox.wait_for("Which database?")
    inbox.press("2", "2", "1", "1")  # SQLite, None, Submit
    inbox.wait_for("waiting for questions")
    one, one_status = first.result()
    two, two_status = second.result()
    assert (one_status, two_status) == (0, 0)
    assert one["details"]["title"] == "First ask"  # type: ignore[index]
    assert one["details"]["answers"]["db"]["values"] == ["pg"]  # type: ignore[index]
    assert two["details"]["title"] == "Second ask"  # type: ignore[index]
    assert two["details"]["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
    inbox.press("q")
    assert inbox.exit_status() == 0
    assert not any(p.name.endswith(INBOX_SUFFIX) for p in runtime.iterdir())


def test_a_background_child_of_a_terminal_does_not_draw(tmp_path: Path, env) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    # A child in its own process group on the same terminal: not the foreground group (the
    # pty's session leader cannot change its own group, so it forks first).
    command = [*pi_ask_command(), "ask", str(payload)]
    code = (
        "import os, sys\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.setpgid(0, 0)\n"
        f"    os.execv({command[0]!r}, {command!r})\n"
        "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
    )
    term = Terminal(
        [sys.executable, "-c", code], stdout=tmp_path / "bg.json", env=env, cwd=tmp_path
    )
    try:
        assert term.exit_status(timeout=30) == 1
    finally:
        term.kill()
    assert "Which database?" not in term.text()
    result = json.loads((tmp_path / "bg.json").read_text(encoding="utf-8"))
    assert result["details"]["reason"] == "no_terminal"


def test_the_deadline_ends_a_waiting_ask_with_timeout(ask) -> None:
    result, status = ask("--wait", "--timeout", "0.5").result()
    assert status == 1
    assert result["details"]["reason"] == "timeout"  # type: ignore[index]
    assert result["details"]["answers"] == {}  # type: ignore[index]
    text = result["content"][0]["text"]  # type: ignore[index]
    assert text.splitlines()[-1] == REASON_LINES["timeout"]


def test_the_tui_counts_down_then_closes_with_timeout(spawn_ask, tmp_path: Path) -> None:
    term = spawn_ask("--timeout", "3")
    term.wait_for("Which database?")
    term.wait_for("Time left to answer:")
    assert term.exit_status() == 1
    result = json.loads((tmp_path / "tui.json").read_text(encoding="utf-8"))
    assert result["details"]["reason"] == "timeout"


def test_wait_with_ui_none_is_a_usage_error(ask) -> None:
    asker = ask("--wait", "--ui", "none")
    assert asker.process.wait(timeout=30) == 2
    assert "--wait --ui none" in asker.stderr.read_text(encoding="utf-8")


@pytest.fixture
def spawn_ask(tmp_path: Path, env: dict[str, str]) -> Iterator[object]:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    started: list[Terminal] = []

    def start(*args: str) -> Terminal:
        term = Terminal(
            [*pi_ask_command(), "ask", str(payload), *args],
            stdout=tmp_path / "tui.json",
            env=env,
            cwd=tmp_path,
        )
        started.append(term)
        return term

    yield start
    for term in started:
        term.kill()


@pytest.fixture
def tmux_server(env: dict[str, str]) -> Iterator[tuple[str, dict[str, str]]]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    name = f"i14-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    base = ["tmux", "-L", name]
    subprocess.run(
        [*base, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sh"],
        env=env,
        check=True,
        timeout=30,
    )
    socket_path = subprocess.run(
        [*base, "display-message", "-p", "#{socket_path},#{pid},0"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout.strip()
    try:
        yield name, {**env, "TMUX": socket_path}
    finally:
        subprocess.run([*base, "kill-server"], env=env, timeout=30, check=False)


def _attached_client(name: str, tmux_env: dict[str, str], tmp_path: Path) -> Terminal:
    """A terminal attached to the private tmux server, where its popups show."""
    return Terminal(
        ["tmux", "-L", name, "attach"],
        stdout=tmp_path / "client.out",
        env=tmux_env,
        width=100,
        height=30,
        cwd=tmp_path,
    )


def test_inside_tmux_a_popup_runs_the_flow(
    tmux_server: tuple[str, dict[str, str]], tmp_path: Path, runtime: Path
) -> None:
    name, tmux_env = tmux_server
    client = _attached_client(name, tmux_env, tmp_path)
    try:

        def clients() -> str:
            listed = subprocess.run(
                ["tmux", "-L", name, "list-clients"],
                env=tmux_env,
                capture_output=True,
                text=True,
                check=False,
            )
            return listed.stdout.strip()

        wait_until(clients, "an attached client")
        payload = tmp_path / "q.json"
        payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
        with (tmp_path / "popup.json").open("wb") as out:
            asker = subprocess.Popen(
                [*pi_ask_command(), "ask", str(payload)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.DEVNULL,
                env=tmux_env,
                cwd=tmp_path,
                start_new_session=True,
            )
        try:
            client.wait_for("Which database?", timeout=30)
            client.press("2", "1", "1", "1")
            assert asker.wait(timeout=60) == 0
        finally:
            if asker.poll() is None:
                asker.kill()
    finally:
        client.kill()
    result = json.loads((tmp_path / "popup.json").read_text(encoding="utf-8"))
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]


def test_the_settings_can_wait_and_set_a_deadline(tmp_path: Path, env: dict[str, str]) -> None:
    """``behaviour.no_terminal = "wait"`` waits (no "Needs user input" at once); then
    ``behaviour.answer_timeout_s`` ends it with ``timeout``."""
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    done = subprocess.run(
        [*pi_ask_command(), "ask", str(payload)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={
            **env,
            "PI_ASK_BEHAVIOUR__NO_TERMINAL": "wait",
            "PI_ASK_BEHAVIOUR__ANSWER_TIMEOUT_S": "0.5",
        },
        timeout=60,
        check=False,
        start_new_session=True,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["details"]["reason"] == "timeout"
    assert "pi-ask attach" in done.stderr


def test_tmux_off_in_the_settings_never_opens_a_popup(
    tmux_server: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    name, tmux_env = tmux_server
    client = _attached_client(name, tmux_env, tmp_path)
    try:
        client.wait(lambda: bool(client.text().strip()), timeout=30)
        payload = tmp_path / "q.json"
        payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
        done = subprocess.run(
            [*pi_ask_command(), "ask", str(payload)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**tmux_env, "PI_ASK_INBOX__TMUX": "off"},
            timeout=60,
            check=False,
            start_new_session=True,
        )
    finally:
        client.kill()
    assert done.returncode == 1
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"
    assert "Which database?" not in client.text()


def test_ctrl_d_in_the_inbox_puts_the_ask_back_and_it_stays_listed(
    ask, terminal, runtime: Path, asks: Path
) -> None:
    inbox = terminal("inbox")
    inbox.wait_for("waiting for questions")
    wait_until(lambda: any(p.name.endswith(INBOX_SUFFIX) for p in runtime.iterdir()), "inbox")
    first = ask(name="first", payload=_titled("First ask"))
    pending(asks, 1)
    inbox.wait_for("First ask")
    inbox.press("1")  # PostgreSQL: a draft that goes back with the ask
    second = ask(name="second", payload=_titled("Second ask"))
    pending(asks, 2)
    inbox.wait_for("1 more waiting in the inbox. (Ctrl+D puts this one back)")
    inbox.press("ctrl+d")
    # Back in the list: both still pending, the deferred one not answered.
    inbox.wait_for("2 questions waiting, oldest first")
    # What the terminal keeps says the ask went back, not that it ended.
    assert "Deferred: the ask is still pending" in inbox.text()
    assert "Aborted" not in inbox.text()
    assert first.process.poll() is None
    pending(asks, 2)
    inbox.press("2")  # open the second ask from the list
    inbox.wait_for("Which database?")  # the flow, not the list (which also names the ask)
    inbox.press("2", "2", "1", "1")  # SQLite, None, Submit
    two, status = second.result()
    assert status == 0
    assert two["details"]["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
    # Alone and put back, the first ask is listed, not reopened by itself.
    inbox.wait_for("1 question waiting, oldest first")
    inbox.press("enter")
    inbox.wait_for("Which database?")  # the flow, not the list (which also names the ask)
    inbox.press("1", "1", "1", "1")  # PostgreSQL, SQLAlchemy, Submit (double press)
    one, one_status = first.result()
    assert one_status == 0
    assert one["details"]["answers"]["db"]["values"] == ["pg"]  # type: ignore[index]
    inbox.press("q")
    assert inbox.exit_status() == 0


@pytest.fixture
def default_tmux(env: dict[str, str]) -> Iterator[dict[str, str]]:
    """A tmux server on this user's *default* socket, in a private TMUX_TMPDIR."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    folder = tempfile.mkdtemp(prefix="pa-tmux-", dir="/tmp")  # short: a socket path
    tmux_env = {key: value for key, value in env.items() if key not in ("TMUX", "TMUX_PANE")}
    tmux_env["TMUX_TMPDIR"] = folder
    subprocess.run(
        ["tmux", "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sh"],
        env=tmux_env,
        check=True,
        timeout=30,
    )
    try:
        yield tmux_env
    finally:
        subprocess.run(["tmux", "kill-server"], env=tmux_env, timeout=30, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_host_that_strips_tmux_still_gets_the_popup(
    default_tmux: dict[str, str], tmp_path: Path
) -> None:
    """Codex passes its tools a handful of variables: no TMUX, no TMUX_PANE. The asker
    finds the user's default tmux server and the client showing the pane it runs under."""
    client = Terminal(
        ["tmux", "attach"],
        stdout=tmp_path / "client.out",
        env=default_tmux,
        width=100,
        height=30,
        cwd=tmp_path,
    )
    try:
        client.wait_for("0:sh", timeout=30)  # the status line: the client is attached
        payload = tmp_path / "q.json"
        payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
        out = tmp_path / "popup.json"
        # As an agent's background tool: a session of its own, no terminal, TMUX stripped.
        asker = shlex.join([*pi_ask_command(), "ask", str(payload)])
        command = f"env -u TMUX -u TMUX_PANE setsid -w {asker} </dev/null >{out} 2>/dev/null"
        subprocess.run(
            ["tmux", "new-window", "-d", command], env=default_tmux, check=True, timeout=30
        )
        client.wait_for("Which database?", timeout=60)
        client.press("2", "1", "1", "1")
        wait_until(lambda: out.is_file() and out.read_text(encoding="utf-8").strip(), "result")
    finally:
        client.kill()
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_an_inbox_ended_by_a_signal_removes_its_socket(
    terminal, runtime: Path, number: int
) -> None:
    inbox = terminal("inbox")
    inbox.wait_for("waiting for questions")

    def sockets() -> list[Path]:
        return [p for p in runtime.iterdir() if p.name.endswith(INBOX_SUFFIX)]

    wait_until(sockets, "the inbox's socket")
    inbox.child.kill(number)
    assert inbox.exit_status() == 128 + number
    assert sockets() == []  # an asker would otherwise take a dead inbox for a running one


def test_the_lobby_of_a_hundred_asks_scrolls_with_its_hint_always_shown(
    terminal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pi_ask.contract.loading import LoadedPayload, load_payload
    from pi_ask.relay.elsewhere import start_detached

    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))  # the terminal's folder
    for number in range(1, 101):
        loaded = load_payload(_titled(f"Ask number {number:03}"))
        assert isinstance(loaded, LoadedPayload)
        start_detached(loaded, f"ask-{number:03}", tmux="off")
    inbox = terminal("inbox", width=80, height=24)
    hint = "Enter opens the highlighted one"
    inbox.wait_for("100 questions waiting, oldest first")
    assert hint in inbox.text() and "Ask number 001" in inbox.text()
    assert "Ask number 100" not in inbox.text()
    inbox.press("end")
    inbox.wait_for("Ask number 100")
    assert hint in inbox.text() and "100 questions waiting" in inbox.text()
    inbox.press("pageUp", "up")
    inbox.wait_for("Ask number 080")
    inbox.press("enter")  # the highlighted one, not the oldest
    inbox.wait_for("Which database?")
    assert "Ask number" in inbox.text()
    inbox.press("esc")  # cancels that ask only
    inbox.wait_for("99 questions waiting, oldest first")
    inbox.press("q")
    assert inbox.exit_status() == 0
    from pi_ask.relay.elsewhere import fetch_result

    cancelled = [n for n in range(1, 101) if fetch_result(f"ask-{n:03}") is not None]
    assert len(cancelled) == 1 and 70 <= cancelled[0] <= 90
