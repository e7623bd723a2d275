"""Claude Code's TUI, in a private tmux server: the host's own form reaches the user.

With ``face = auto`` pi-ask sends the host its form first; Claude Code 2.1.332 draws it (a
select per question and a "Type your own" field), and what the user picks there is the
answer the model gets, with its label. Its TUI also takes MCP tasks: an ask for the
terminal UI comes back at once as a task whose answer reaches the model later.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.tmux import HAVE_TMUX
from tests.hosts.conftest import require
from tests.hosts.fake_models import FakeModel, Messages
from tests.hosts.hosts import HostHome, headless
from tests.hosts.running import (
    ANSWER_CAP_S,
    PAYLOAD,
    START_CAP_S,
    answer_in_inbox,
    answers_seen,
    submitted_answers,
    user_inbox,
    wait_for,
)
from tests.hosts.tui import HostTui

pytestmark = [
    pytest.mark.hosts,
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed"),
]


KEY = "claude-2.1.332"


def first_run_done(home: HostHome, key: str) -> None:
    """What Claude Code's first start asks once, answered: onboarding, this folder trusted,
    the API key in the environment accepted."""
    state = home.root / ".claude.json"
    settings = json.loads(state.read_text(encoding="utf-8"))
    settings.update(
        hasCompletedOnboarding=True,
        customApiKeyResponses={"approved": ["dummy"], "rejected": []},
        projects={str(home.work): {"hasTrustDialogAccepted": True}},
    )
    state.write_text(json.dumps(settings), encoding="utf-8")


def claude_tui(home: HostHome, model: FakeModel) -> HostTui:
    """Claude Code 2.1.332's TUI, set up as docs/mcp.md says, its prompt given."""
    run = headless(KEY, home, model.url, "Set up the service.")
    first_run_done(home, KEY)
    # The TUI: the prompt as an argument, no -p.
    command = [run.command[0], "Set up the service.", *run.command[3:]]
    return HostTui(command, {**run.env, "TERM": "xterm-256color"}, home, model)


def test_claude_codes_tui_form_answers_the_ask(home: HostHome) -> None:
    require(KEY)
    home.pi_ask_settings('[behaviour]\nno_terminal = "wait"\n')  # face = auto
    with FakeModel(Messages(), PAYLOAD) as model:
        tui = claude_tui(home, model)
        try:
            wait_for(lambda: tui.shows("requests your input"), "the form", START_CAP_S, tui)
            # One key at a time, each until the screen shows what it brings: Claude Code's
            # Ink UI drops a key that arrives before it has bound the new frame's keys.
            tui.press_until(
                "right", lambda: tui.shows("◯ SQLite"), "the options", before="▸ not set"
            )
            tui.press_until(
                "down", lambda: tui.shows("❯ ◯ SQLite"), "SQLite focused", before="❯ ◯ PostgreSQL"
            )
            tui.press_until(
                "space", lambda: tui.shows("✔ Database"), "the choice", before="❯ ◯ SQLite"
            )
            tui.press_until(
                "down",
                lambda: tui.shows("❯   Database: Type your own"),
                "the text field",
                before="❯ ✔ Database",
            )
            tui.press_until(
                "down", lambda: tui.shows("❯ Accept"), "Accept", before="Type something"
            )
            tui.press_until(
                "enter",
                lambda: model.result or not tui.shows("requests your input"),
                "the form's end",
                before="❯ Accept",
            )
            wait_for(lambda: model.result, "the tool result", ANSWER_CAP_S, tui)
        finally:
            tui.close()
    assert model.result is not None
    assert submitted_answers(model.result) == {"Database": ["SQLite"]}, model.result


def task_notification(model: FakeModel) -> str | None:
    """The result Claude Code handed the model in a background task's notification, if any."""

    def texts(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from texts(item)
        elif isinstance(value, list):
            for item in value:
                yield from texts(item)

    for recorded in reversed(model.requests):
        for text in texts(recorded.body):
            if "<task-notification>" in text and "<result>" in text:
                return text.partition("<result>")[2].partition("</result>")[0]
    return None


def test_claude_codes_tui_takes_the_terminal_route_as_a_task(home: HostHome) -> None:
    """Claude Code 2.1.332's TUI takes MCP tasks: an ask for the terminal UI returns a task
    at once, Claude Code polls it, and its answer reaches the model as a notification."""
    require(KEY)
    home.pi_ask_settings('[mcp]\nface = "terminal"\ntasks = true\n')
    inbox = user_inbox(home)
    try:
        with FakeModel(Messages(), PAYLOAD) as model:
            tui = claude_tui(home, model)
            try:
                # The call came back at once, as a task; the ask waits in the inbox.
                handed = wait_for(lambda: model.result, "the task handle", START_CAP_S, tui)
                assert "server-side task" in handed, handed
                answer_in_inbox(inbox, tui)
                notified = wait_for(
                    lambda: task_notification(model), "the task's notification", ANSWER_CAP_S, tui
                )
            finally:
                tui.close()
    finally:
        inbox.kill()
    cancelled, answers = answers_seen(notified)
    assert cancelled is False, notified
    assert answers == {"Database": ["SQLite"]}, notified
