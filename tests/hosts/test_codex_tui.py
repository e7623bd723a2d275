"""Codex's TUI, in a private tmux server: its empty accept is never a submitted result.

Codex 0.171's TUI draws a form for single selects and text fields, but for a form with a
multi-select it shows only "pi-ask needs your approval" (Yes / No / Cancel) and Yes sends
``accept`` with no content. pi-ask must not turn that into a submitted result with no
answers (python-port.md §12): the ask goes to the terminal route, where the user answers.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.tmux import HAVE_TMUX
from tests.hosts.conftest import require
from tests.hosts.fake_models import FakeModel, Responses
from tests.hosts.hosts import HostHome, headless
from tests.hosts.running import (
    ANSWER_CAP_S,
    PAYLOAD_TITLE,
    START_CAP_S,
    answer_in_plain_attach,
    pending_ask,
    submitted_answers,
    wait_for,
)
from tests.hosts.tui import HostTui

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


def test_an_empty_accept_in_codexs_tui_goes_to_the_terminal_route(home: HostHome) -> None:
    require("codex")
    home.pi_ask_settings('[behaviour]\nno_terminal = "wait"\n')  # face = auto
    with FakeModel(Responses(), MULTI) as model:
        run = headless("codex", home, model.url, "Set up the service.")
        command = [run.command[0], "Set up the service."]
        tui = HostTui(command, {**run.env, "TERM": "xterm-256color"}, home, model)
        try:
            wait_for(
                lambda: tui.shows("needs your approval"),
                "Codex's approval prompt",
                START_CAP_S,
                tui,
            )
            # "Yes, provide the requested info": accept, with no content. Pressed again while
            # the prompt stays: a key that comes as the prompt is drawn can be dropped (seen
            # in a loaded run: the prompt stayed and pi-ask never heard back).
            tui.press_until(
                "text:y",
                lambda: not tui.shows("needs your approval"),
                "the prompt's end",
                before="needs your approval",
            )
            user = home.env()
            ask = pending_ask(user, home, tui)
            answer_in_plain_attach(user, home, ask["id"], "1,2")
            wait_for(lambda: model.result, "the tool result", ANSWER_CAP_S, tui)
        finally:
            tui.close()
    assert model.result is not None
    answers = submitted_answers(model.result, MULTI)
    assert answers == {"Extras": ["Metrics", "Tracing"]}, model.result
