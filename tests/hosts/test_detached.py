"""An ask that outlives the host's tool timeout: started detached, fetched afterwards (issue 26).

Codex ends a tool call at its ``tool_timeout_sec`` whatever the server is doing. The model
starts the ask with ``ask_user_start`` (the id at once) and asks ``ask_user_result`` for the
answer; a call of it that outlasts the host's timeout is ended by Codex, and the model asks
again. The user answers in ``pi-ask attach`` only after such a timeout, and the model's next
fetch gets the answers.
"""

from __future__ import annotations

import re

import pytest

from tests.hosts.conftest import require
from tests.hosts.fake_models import FakeModel, Step
from tests.hosts.hosts import DIALECTS, HostHome, family, headless
from tests.hosts.running import (
    ANSWER_CAP_S,
    PAYLOAD,
    START_CAP_S,
    HostRun,
    answer_in_attach,
    answers_seen,
    pending_ask,
    submitted_answers,
    wait_for,
)

pytestmark = pytest.mark.hosts

# Long enough for a first call on a loaded machine (ask_user_start took 2.3 s cold at a load of
# 12), well under the fetch's own wait, so Codex ends a fetch while the user has not answered.
HOST_TIMEOUT_S = 10
ASK_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def ask_id(results: list[str]) -> str:
    found = ASK_ID.search(results[0])
    assert found is not None, f"no ask id in ask_user_start's result: {results[0]}"
    return found.group(0)


def unanswered(result: str) -> bool:
    """Fetch again: still pending, or the call was ended by the host's timeout."""
    return not answers_seen(result)[1]


TIMED_OUT = {"codex": "timed out awaiting tools/call", "claude": "timed out"}


@pytest.mark.parametrize("key", ["codex", "claude-2.1.332"])
def test_a_detached_ask_answered_after_the_hosts_timeout_is_fetched(
    key: str, home: HostHome
) -> None:
    require(key)
    home.pi_ask_settings('[mcp]\nface = "terminal"\n')
    steps = [
        Step("ask_user_start", PAYLOAD),
        # wait_s longer than the host's timeout: Codex ends the call, the model asks again.
        Step(
            "ask_user_result",
            lambda results: {"id": ask_id(results), "wait_s": 40},
            again=unanswered,
        ),
    ]
    with FakeModel(DIALECTS[family(key)](), PAYLOAD, steps=steps) as model:
        setup = headless(key, home, model.url, "Set up the service.")
        if family(key) == "codex":
            config = home.root / ".codex" / "config.toml"
            config.write_text(
                config.read_text(encoding="utf-8").replace(
                    "tool_timeout_sec = 3600", f"tool_timeout_sec = {HOST_TIMEOUT_S}"
                ),
                encoding="utf-8",
            )
        else:
            setup.env["MCP_TOOL_TIMEOUT"] = str(HOST_TIMEOUT_S * 1000)
        run = HostRun(setup, home, model)
        try:
            user = home.env()
            ask = pending_ask(user, home, run, blocking=False)
            # The host's timeout ended a fetch before the user answered.
            wait_for(
                lambda: any(TIMED_OUT[family(key)] in r for r in model.results[1:]),
                "a fetch ended by the host's timeout",
                START_CAP_S,
                run,
            )
            answer_in_attach(user, home, ask["id"])
            assert run.wait(timeout=ANSWER_CAP_S) == 0, run.output()
        finally:
            run.stop()
    *_, last = model.results
    assert submitted_answers(last) == {"Database": ["SQLite"]}, model.summary()
