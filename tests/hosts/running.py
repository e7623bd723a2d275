"""Run a real host against a fake model and answer its ask like a user would.

``HostRun`` starts the host headless in a session of its own (no terminal, as a script or
CI runs it), its output in files. ``pending_ask`` waits until the ask shows in
``pi-ask attach --list --json`` run with the user's environment; ``answer_in_attach`` answers
it in ``pi-ask attach`` on a pty. ``answers_seen`` reads what the model received.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from tests.e2e.terminal import Terminal, pi_ask_command
from tests.hosts.fake_models import FakeModel
from tests.hosts.hosts import Headless, HostHome

# Generous caps on waits for a condition (two shared cores, several hosts at once): never
# the thing under test.
START_CAP_S = 120
ANSWER_CAP_S = 60
PAYLOAD_TITLE = "Host matrix"

PAYLOAD: dict[str, Any] = {
    "title": PAYLOAD_TITLE,
    "questions": [
        {
            "id": "db",
            "label": "Database",
            "prompt": "Which database?",
            "options": [
                {"value": "pg", "label": "PostgreSQL"},
                {"value": "sqlite", "label": "SQLite"},
            ],
        }
    ],
}


class HostRun:
    """One headless host run; ``stop()`` ends its whole process group."""

    def __init__(self, run: Headless, home: HostHome, model: FakeModel) -> None:
        self.model = model
        self.home = home
        self.out = home.root / "host.out"
        self.err = home.root / "host.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(
                run.command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=run.env,
                cwd=home.work,
                start_new_session=True,
            )

    def ended(self) -> bool:
        return self.process.poll() is not None

    def output(self) -> str:
        out = self.out.read_text(encoding="utf-8", errors="replace")
        err = self.err.read_text(encoding="utf-8", errors="replace")
        return (
            f"host stdout:\n{out[-3000:]}\nhost stderr:\n{err[-3000:]}\n{self.model.summary()}\n"
            + pi_ask_side(self.home)
        )

    def wait(self, timeout: float = ANSWER_CAP_S) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("the host did not end:\n" + self.output()) from None

    def stop(self) -> None:
        # The whole group: the host's children (the MCP server) may outlive it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def listed(env: dict[str, str], cwd: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [*pi_ask_command(), "attach", "--list", "--json"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    try:
        asks = json.loads(done.stdout or "[]")
    except ValueError:
        return []
    return [a for a in asks if isinstance(a, dict)]


# pi-ask's stderr line when a host answered its form faster than a person can read it (a
# decline or cancel within [mcp] min_human_ms, or an accept without fields).
HOST_ANSWERED = re.compile(
    r"the host (declined|cancelled) the form (\d+) ms after it was sent"
    r"|the host (accepted) the form without any of its fields"
)


def host_answered_the_form(home: HostHome) -> str | None:
    """How the host answered pi-ask's form for the user ("declined", "cancelled",
    "accepted"), as pi-ask's stderr said it, or ``None`` when it did not."""
    found = HOST_ANSWERED.search(home.pi_ask_stderr())
    return None if found is None else found.group(1) or found.group(3)


def pi_ask_side(home: HostHome) -> str:
    """What pi-ask knew, for a failure message: the asks ``pi-ask attach --list --json``
    shows the user, and what the MCP server wrote to stderr."""
    try:
        asks = json.dumps(listed(home.env(), home.work))
    except (OSError, subprocess.SubprocessError) as err:
        asks = f"(attach --list failed: {err})"
    return f"pi-ask attach --list --json: {asks}\npi-ask stderr:\n{home.pi_ask_stderr()[-3000:]}"


class Watched(Protocol):
    """A running host: whether it has ended, and what it showed (for a failure message)."""

    def ended(self) -> bool: ...

    def output(self) -> str: ...


def wait_for(condition: Callable[[], Any], what: str, timeout: float, run: Watched) -> Any:
    """Poll ``condition`` until truthy; fail, with the host's output, after ``timeout`` s or
    when the host has ended first."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if run.ended():
            value = condition()
            if value:
                return value
            raise AssertionError(f"the host ended before {what}:\n" + run.output())
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}:\n" + run.output())
        time.sleep(0.1)  # a polling interval; the condition is what is waited for


def pending_ask(
    env: dict[str, str], home: HostHome, run: Watched, *, blocking: bool = True
) -> dict[str, Any]:
    """The host's ask once ``pi-ask attach --list --json`` shows it. For a ``blocking`` ask
    it fails when the model got a result first (the ask never reached the terminal route)."""
    model: FakeModel | None = getattr(run, "model", None) if blocking else None

    def found() -> dict[str, Any] | None:
        if model is not None and model.result is not None:
            raise AssertionError(
                "the model received a result before any ask was pending:\n" + model.result
            )
        for ask in listed(env, home.work):
            if ask.get("title") == PAYLOAD_TITLE:
                return ask
        return None

    value: dict[str, Any] = wait_for(found, "the ask in attach --list", START_CAP_S, run)
    return value


def answer_in_attach(env: dict[str, str], home: HostHome, ask_id: str) -> None:
    """``pi-ask attach ID`` on a pty: SQLite, then Submit on the review."""
    term = Terminal(
        [*pi_ask_command(), "attach", ask_id],
        stdout=home.root / "attach.out",
        env=env,
        width=90,
        height=30,
        cwd=home.work,
    )
    try:
        term.wait_for("Which database?", timeout=ANSWER_CAP_S)
        term.press("2")  # SQLite; one question, so the review follows
        term.wait_for("Submit", timeout=ANSWER_CAP_S)
        term.press("1", "1")
        assert term.exit_status(timeout=ANSWER_CAP_S) == 0
    finally:
        term.kill()


def user_inbox(home: HostHome, env: dict[str, str] | None = None) -> Terminal:
    """The user's ``pi-ask inbox`` on a pty of its own (``env``: the user's, by default),
    waiting for questions."""
    inbox = Terminal(
        [*pi_ask_command(), "inbox"],
        stdout=home.root / "inbox.out",
        env=env or home.env(),
        width=90,
        height=30,
        cwd=home.work,
    )
    try:
        inbox.wait_for("waiting for questions", timeout=START_CAP_S)
    except BaseException:
        inbox.kill()
        raise
    return inbox


def answer_in_inbox(inbox: Terminal, run: Watched) -> None:
    """The host's ask, once the inbox shows it, answered there: SQLite, then Submit."""
    wait_for(
        lambda: (inbox.pump(), "Which database?" in inbox.text())[1],
        "the question in the inbox",
        START_CAP_S,
        run,
    )
    inbox.press("2")
    inbox.wait_for("Submit", timeout=ANSWER_CAP_S)
    inbox.press("1", "1")


def answer_in_plain_attach(env: dict[str, str], home: HostHome, ask_id: str, answer: str) -> None:
    """``pi-ask attach --ui plain ID`` on a pty: type ``answer``, then 1 (Submit)."""
    term = Terminal(
        [*pi_ask_command(), "attach", "--ui", "plain", ask_id],
        stdout=home.root / "attach.out",
        env=env,
        width=90,
        height=30,
        cwd=home.work,
    )
    try:
        term.wait_for("answer>", timeout=ANSWER_CAP_S)
        term.press(f"text:{answer}", "enter")
        term.wait_for("review>", timeout=ANSWER_CAP_S)
        term.press("text:1", "enter")
        assert term.exit_status(timeout=ANSWER_CAP_S) == 0
    finally:
        term.kill()


def answers_seen(
    received: str, payload: dict[str, Any] = PAYLOAD
) -> tuple[bool | None, dict[str, list[str]]]:
    """What the model can read in a tool result: (cancelled, {question label: answer labels}).

    Hosts forward either the structured content (as JSON, maybe after a header) or the
    contract's text ("Database: SQLite" lines).
    """
    start, end = received.find("{"), received.rfind("}")
    if start >= 0 and end > start:
        try:
            details = json.loads(received[start : end + 1])
        except ValueError:
            details = None
        if isinstance(details, dict) and "answers" in details:
            labels = {q["id"]: q.get("label", q["id"]) for q in details.get("questions", [])}
            answers = {
                labels.get(qid, qid): list(answer.get("labels", []))
                for qid, answer in details["answers"].items()
            }
            return details.get("cancelled"), answers
    wanted = {question.get("label", question["id"]) for question in payload["questions"]}
    answers = {}
    for line in received.splitlines():
        label, sep, value = line.strip().partition(": ")
        if sep and label in wanted:
            answers[label] = [v.strip() for v in value.split(", ")]
    return None, answers


def submitted_answers(received: str, payload: dict[str, Any] = PAYLOAD) -> dict[str, list[str]]:
    """The answers the model read in a tool result that must not be a cancel:
    ``answers_seen``'s, after failing the test on a cancelled result."""
    cancelled, answers = answers_seen(received, payload)
    assert cancelled in (None, False), received
    return answers
