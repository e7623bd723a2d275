"""docs/mcp.md's set-up at pi-ask's default settings reaches the user (issue 26, done when).

No pi-ask settings written (the inbox writes its file of defaults: ``face = auto``,
``min_human_ms = 400``, ``no_terminal = "answer"``) and the user's ``pi-ask inbox`` running
in a terminal of its own: headless ``codex exec`` and ``claude -p`` answer pi-ask's form
themselves at once, pi-ask takes that for the host's answer (its stderr says so) and opens
the ask in the inbox, where the user answers; the model gets the answer with its label.
"""

from __future__ import annotations

import pytest

from tests.e2e.terminal import Terminal, pi_ask_command
from tests.hosts.conftest import require
from tests.hosts.fake_models import FINAL_TEXT, FakeModel
from tests.hosts.hosts import DIALECTS, HostHome, family, headless, tool_name
from tests.hosts.running import (
    ANSWER_CAP_S,
    PAYLOAD,
    START_CAP_S,
    HostRun,
    answers_seen,
    host_answered_the_form,
    wait_for,
)

pytestmark = pytest.mark.hosts

ANSWERS_THE_FORM = {"codex": "declined", "claude": "cancelled"}


@pytest.mark.parametrize("key", ["codex", "claude-2.1.332", "claude-2.1.197"])
def test_a_headless_hosts_ask_reaches_the_running_inbox_at_default_settings(
    key: str, home: HostHome
) -> None:
    require(key)
    inbox = Terminal(
        [*pi_ask_command(), "inbox"],
        stdout=home.root / "inbox.out",
        env=home.env(),
        width=90,
        height=30,
        cwd=home.work,
    )
    try:
        inbox.wait_for("waiting for questions", timeout=START_CAP_S)
        with FakeModel(DIALECTS[family(key)](), PAYLOAD, tool_name(key)) as model:
            run = HostRun(headless(key, home, model.url, "Set up the service."), home, model)
            try:
                wait_for(
                    lambda: (inbox.pump(), "Which database?" in inbox.text())[1],
                    "the question in the inbox",
                    START_CAP_S,
                    run,
                )
                inbox.press("2")
                inbox.wait_for("Submit", timeout=ANSWER_CAP_S)
                inbox.press("1", "1")
                assert run.wait() == 0, run.output()
            finally:
                run.stop()
            assert model.result is not None, run.output()
            cancelled, answers = answers_seen(model.result)
            assert cancelled in (None, False), model.result
            assert answers == {"Database": ["SQLite"]}, model.result
            assert FINAL_TEXT in run.output()
    finally:
        inbox.kill()
    assert host_answered_the_form(home) == ANSWERS_THE_FORM[family(key)], home.pi_ask_stderr()
