"""Pending-ask tests: a private runtime folder, askers with no terminal, answering terminals."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_ask.relay.asks import AskSummary
from pi_ask.relay.client import list_pending
from tests.child_processes import wait_until
from tests.e2e.terminal import Terminal, child_env, pi_ask_command

PAYLOAD = {
    "title": "Pick a DB",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [
                {"value": "pg", "label": "PostgreSQL"},
                {"value": "sqlite", "label": "SQLite"},
            ],
        },
        {
            "id": "orm",
            "prompt": "Which ORM?",
            "options": [{"value": "sa", "label": "SQLAlchemy"}, {"value": "none", "label": "None"}],
        },
    ],
}


class Asker:
    """``pi-ask ask`` in its own session: no controlling terminal, as an agent's tool runs it."""

    def __init__(self, process: subprocess.Popen[bytes], stdout: Path, stderr: Path) -> None:
        self.process = process
        self.stdout = stdout
        self.stderr = stderr

    def result(self, timeout: float = 30.0) -> tuple[dict[str, object], int]:
        status = self.process.wait(timeout=timeout)
        return json.loads(self.stdout.read_text(encoding="utf-8")), status


@pytest.fixture
def asks(tmp_path: Path) -> Path:
    """The asks folder of this test's askers and terminals (their state folder's)."""
    return tmp_path / "state" / "asks"


@pytest.fixture
def env(tmp_path: Path, runtime: Path) -> dict[str, str]:
    return child_env(tmp_path / "config.toml", tmp_path / "state", PI_ASK_RUNTIME_DIR=str(runtime))


@pytest.fixture
def ask(tmp_path: Path, env: dict[str, str]) -> Iterator[Callable[..., Asker]]:
    started: list[Asker] = []

    def start(*args: str, payload: object = PAYLOAD, name: str = "ask") -> Asker:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        stdout, stderr = tmp_path / f"{name}.out", tmp_path / f"{name}.err"
        with stdout.open("wb") as out, stderr.open("wb") as err:
            process = subprocess.Popen(
                [*pi_ask_command(), "ask", str(path), *args],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=env,
                cwd=tmp_path,
                start_new_session=True,  # setsid: no controlling terminal at all
            )
        asker = Asker(process, stdout, stderr)
        started.append(asker)
        return asker

    yield start
    for asker in started:
        if asker.process.poll() is None:
            asker.process.kill()
            asker.process.wait()


@pytest.fixture
def terminal(tmp_path: Path, env: dict[str, str]) -> Iterator[Callable[..., Terminal]]:
    """``pi-ask ARGS`` on a pty of its own (an answering terminal), in ``language`` when
    given (``[ui] language``)."""
    started: list[Terminal] = []

    def start(
        *args: str,
        name: str = "term",
        width: int = 90,
        height: int = 30,
        language: str | None = None,
    ) -> Terminal:
        term = Terminal(
            [*pi_ask_command(), *args],
            stdout=tmp_path / f"{name}.stdout",
            env=env if language is None else {**env, "PI_ASK_UI__LANGUAGE": language},
            width=width,
            height=height,
            cwd=tmp_path,
        )
        started.append(term)
        return term

    yield start
    for term in started:
        term.kill()


def settled(pid: int) -> bool:
    """A waiting asker has become the small waiting process (``cli/waiting.py``): one
    thread, blocked in select."""
    tasks = Path(f"/proc/{pid}/task")
    try:
        waits = [(tasks / tid / "wchan").read_text() for tid in os.listdir(tasks)]
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # a thread (or the asker) ended between the listing and the read
        return False
    resting = b"pi_ask.cli.waiting" in command
    return resting and len(waits) == 1 and ("poll" in waits[0] or "select" in waits[0])


def pending(asks: Path, count: int) -> list[AskSummary]:
    """Wait until exactly ``count`` asks are pending in ``asks``, and return them."""
    found: list[AskSummary] = []

    def check() -> bool:
        found[:] = list_pending(asks) if asks.is_dir() else []
        return len(found) == count

    wait_until(check, f"{count} pending asks")
    return found


@contextlib.contextmanager
def out_of_descriptors(pid: int, path: Path) -> Iterator[None]:
    """While the ``with`` runs, ``pid`` may open no descriptor (its limit lowered to what it
    holds, with ``prlimit`` on the running process) and three peers knock at its socket
    ``path``: each waits in the backlog, with no descriptor to accept it with. Then the limit
    is raised again and the peers hang up."""
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    held = len(os.listdir(f"/proc/{pid}/fd"))
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (held, hard))
    knocking = []
    try:
        for _ in range(3):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            knocking.append(sock)
            sock.connect(os.fspath(path))
        yield
    finally:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
        for sock in knocking:
            sock.close()


def attach_listing(env: dict[str, str]) -> list[dict[str, object]]:
    """The asks ``pi-ask attach --list --json`` lists (the command must succeed)."""
    listing = subprocess.run(
        [*pi_ask_command(), "attach", "--list", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert listing.returncode == 0, listing.stderr
    entries: list[dict[str, object]] = json.loads(listing.stdout)
    return entries
