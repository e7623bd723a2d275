"""Codex's TUI, in a private tmux server: its empty accept is never a submitted result.

Codex 0.171's TUI draws a form for single selects and text fields, but for a form with a
multi-select it shows only "pi-ask needs your approval" (Yes / No / Cancel) and Yes sends
``accept`` with no content. pi-ask must not turn that into a submitted result with no
answers (python-port.md §12): the ask goes to the terminal route, where the user answers.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from tests.e2e.tmux import HAVE_TMUX, Tmux
from tests.hosts.conftest import require
from tests.hosts.fake_models import FakeModel, Responses
from tests.hosts.hosts import HostHome, headless
from tests.hosts.running import (
    ANSWER_CAP_S,
    PAYLOAD_TITLE,
    START_CAP_S,
    answer_in_plain_attach,
    answers_seen,
    pending_ask,
    wait_for,
)

pytestmark = [
    pytest.mark.hosts,
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed"),
]

MULTI: dict[str, Any] = {
    "title": PAYLOAD_TITLE,
    "questions": [
        {
            "id": "extras",
            "label": "Extras",
            "prompt": "What else should it have?",
            "type": "multi",
            "options": [
                {"value": "metrics", "label": "Metrics"},
                {"value": "tracing", "label": "Tracing"},
            ],
        }
    ],
}


class CodexTui:
    """Codex's TUI in a pane of a private tmux server, with exactly ``env``."""

    def __init__(self, command: list[str], env: dict[str, str], home: HostHome) -> None:
        exports = " ".join(shlex.quote(f"{key}={value}") for key, value in env.items())
        self.tmux = Tmux(
            f"exec env -i {exports} {shlex.join(command)}", width=120, height=40, cwd=home.work
        )
        self.model: FakeModel | None = None

    def ended(self) -> bool:
        return False  # the pane stays (remain-on-exit); its screen says what happened

    def output(self) -> str:
        summary = self.model.summary() if self.model is not None else ""
        return f"Codex's screen:\n{self.tmux.text()}\n{summary}"


def test_an_empty_accept_in_codexs_tui_goes_to_the_terminal_route(home: HostHome) -> None:
    require("codex")
    home.pi_ask_settings('[behaviour]\nno_terminal = "wait"\n')  # face = auto
    with FakeModel(Responses(), MULTI) as model:
        run = headless("codex", home, model.url, "Set up the service.")
        tui = CodexTui(
            [run.command[0], "Set up the service."], {**run.env, "TERM": "xterm-256color"}, home
        )
        tui.model = model
        try:
            wait_for(
                lambda: "needs your approval" in tui.tmux.text(),
                "Codex's approval prompt",
                START_CAP_S,
                tui,
            )
            tui.tmux.press("text:y")  # "Yes, provide the requested info": accept, no content
            user = home.env()
            ask = pending_ask(user, home, tui)
            answer_in_plain_attach(user, home, ask["id"], "1,2")
            wait_for(lambda: model.result, "the tool result", ANSWER_CAP_S, tui)
        finally:
            tui.tmux.close()
    assert model.result is not None
    cancelled, answers = answers_seen(model.result, MULTI)
    assert cancelled in (None, False), model.result
    assert answers == {"Extras": ["Metrics", "Tracing"]}, model.result
