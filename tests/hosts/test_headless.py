"""Every real host, headless, reaches the user through ``pi-ask attach`` (issue 26).

Each host is set up as docs/mcp.md says and runs once without a terminal against a loopback
fake model whose first reply calls pi-ask's tool. pi-ask's settings send the ask to the
terminal route and wait for an attach (``face = "terminal"``, ``no_terminal = "wait"``);
the test answers in ``pi-ask attach`` on a pty and asserts what the host handed the model
in its next request.
"""

from __future__ import annotations

import pytest

from tests.hosts.conftest import require
from tests.hosts.fake_models import FINAL_TEXT, FakeModel
from tests.hosts.hosts import DIALECTS, HostHome, family, headless, tool_name
from tests.hosts.running import PAYLOAD, HostRun, answer_in_attach, answers_seen, pending_ask

pytestmark = pytest.mark.hosts

WAIT_FOR_ATTACH = '[mcp]\nface = "terminal"\n\n[behaviour]\nno_terminal = "wait"\n'
HEADLESS = ["codex", "claude-2.1.332", "claude-2.1.197", "opencode"]


@pytest.mark.parametrize("key", HEADLESS)
def test_a_headless_hosts_ask_is_answered_in_attach(key: str, home: HostHome) -> None:
    require(key)
    home.pi_ask_settings(WAIT_FOR_ATTACH)
    with FakeModel(DIALECTS[family(key)](), PAYLOAD, tool_name(key)) as model:
        run = HostRun(headless(key, home, model.url, "Set up the service."), home, model)
        try:
            user = home.env()
            ask = pending_ask(user, home, run)
            answer_in_attach(user, home, ask["id"])
            assert run.wait() == 0, run.output()
        finally:
            run.stop()
        assert model.result is not None, run.output()
        cancelled, answers = answers_seen(model.result)
        assert cancelled in (None, False), model.result
        assert answers == {"Database": ["SQLite"]}, model.result
        assert FINAL_TEXT in run.output()
