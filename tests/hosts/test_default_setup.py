"""docs/mcp.md's set-up at pi-ask's default settings reaches the user (issue 26, done when).

No pi-ask settings written (the inbox writes its file of defaults: ``face = auto``,
``min_human_ms = 400``, ``no_terminal = "answer"``) and the user's ``pi-ask inbox`` running
in a terminal of its own: headless ``codex exec`` and ``claude -p`` answer pi-ask's form
themselves at once, pi-ask takes that for the host's answer (its stderr says so) and opens
the ask in the inbox, where the user answers; the model gets the answer with its label.
"""

from __future__ import annotations

import pytest

from tests.hosts.conftest import require
from tests.hosts.fake_models import FINAL_TEXT, FakeModel
from tests.hosts.hosts import DIALECTS, HostHome, family, headless, tool_name
from tests.hosts.running import (
    PAYLOAD,
    HostRun,
    answer_in_inbox,
    host_answered_the_form,
    submitted_answers,
    user_inbox,
)

pytestmark = pytest.mark.hosts

ANSWERS_THE_FORM = {"codex": "declined", "claude": "cancelled"}


@pytest.mark.parametrize("key", ["codex", "claude-2.1.332", "claude-2.1.197"])
def test_a_headless_hosts_ask_reaches_the_running_inbox_at_default_settings(
    key: str, home: HostHome
) -> None:
    require(key)
    inbox = user_inbox(home)
    try:
        with FakeModel(DIALECTS[family(key)](), PAYLOAD, tool_name(key)) as model:
            run = HostRun(headless(key, home, model.url, "Set up the service."), home, model)
            try:
                answer_in_inbox(inbox, run)
                assert run.wait() == 0, run.output()
            finally:
                run.stop()
            assert model.result is not None, run.output()
            assert submitted_answers(model.result) == {"Database": ["SQLite"]}, model.result
            assert FINAL_TEXT in run.output()
    finally:
        inbox.kill()
    assert host_answered_the_form(home) == ANSWERS_THE_FORM[family(key)], home.pi_ask_stderr()
