"""A host that passes its MCP server few variables still reaches the user's inbox (issue 26).

Codex hands an MCP server a short list of variables of its own choosing: the user's
``XDG_RUNTIME_DIR`` and ``TMUX`` are not among them. The user runs ``pi-ask inbox`` in a
terminal whose ``XDG_RUNTIME_DIR`` is not ``/run/user/<uid>``; pi-ask, started by Codex, must
find that inbox all the same: with docs/mcp.md's ``env_vars``, and without them too (the
runtime folder does not depend on that variable). Before, without them, the ask never
reached the inbox.
"""

from __future__ import annotations

import re

import pytest

from tests.hosts.conftest import require
from tests.hosts.fake_models import FakeModel, Responses
from tests.hosts.hosts import HostHome, headless
from tests.hosts.running import PAYLOAD, HostRun, answer_in_inbox, submitted_answers, user_inbox

pytestmark = pytest.mark.hosts

ENV_VARS = re.compile(r"^env_vars = \[.*?\]\n", re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize("env_vars", ["as documented", "left out"])
def test_codex_without_the_users_runtime_folder_reaches_a_running_inbox(
    env_vars: str, home: HostHome
) -> None:
    require("codex")
    runtime = home.root / "xdg"
    runtime.mkdir(mode=0o700)
    user = home.env(XDG_RUNTIME_DIR=str(runtime))
    home.pi_ask_settings('[mcp]\nface = "terminal"\n')
    inbox = user_inbox(home, user)
    try:
        with FakeModel(Responses(), PAYLOAD) as model:
            run_env = headless("codex", home, model.url, "Set up the service.")
            if env_vars == "left out":
                config = home.root / ".codex" / "config.toml"
                text = config.read_text(encoding="utf-8")
                assert ENV_VARS.search(text), text
                config.write_text(ENV_VARS.sub("", text), encoding="utf-8")
            run_env.env["XDG_RUNTIME_DIR"] = str(runtime)
            run = HostRun(run_env, home, model)
            try:
                answer_in_inbox(inbox, run)
                assert run.wait() == 0, run.output()
            finally:
                run.stop()
            assert model.result is not None, run.output()
            assert submitted_answers(model.result) == {"Database": ["SQLite"]}, model.result
    finally:
        inbox.kill()
