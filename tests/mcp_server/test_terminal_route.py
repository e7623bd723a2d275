"""A host without forms is answered in pi-ask's own TUI: a running ``pi-ask inbox`` on a pty."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from pi_ask.relay.client import list_pending
from pi_ask.relay.paths import INBOX_SUFFIX
from pi_ask.session.entries import DISMISSED_TYPE, DRAFT_TYPE, PAYLOAD_TYPE
from tests.e2e.terminal import Terminal, child_env, pi_ask_command
from tests.mcp_server.helpers import ERAS, log_types
from tests.mcp_server.test_stdio import pi_ask_mcp

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 60  # a generous cap on waits for a condition, never the thing under test

ONE_QUESTION = {
    "title": "Pick a database",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [{"value": "pg", "label": "PostgreSQL"}, {"value": "sqlite"}],
        }
    ],
}


def answering_terminal(tmp_path: Path, *args: str) -> Terminal:
    """``pi-ask ARGS`` on a pty of its own, with this test's folders."""
    env = child_env(
        Path(os.environ["PI_ASK_CONFIG"]),
        Path(os.environ["PI_ASK_STATE_DIR"]),
        PI_ASK_RUNTIME_DIR=os.environ["PI_ASK_RUNTIME_DIR"],
    )
    return Terminal(
        [*pi_ask_command(), *args],
        stdout=tmp_path / f"{args[0]}.out",
        env=env,
        width=90,
        height=30,
        cwd=tmp_path,
    )


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[Terminal]:
    """``pi-ask inbox`` on a pty of its own, idle and listening."""
    runtime = Path(os.environ["PI_ASK_RUNTIME_DIR"])
    term = answering_terminal(tmp_path, "inbox")
    try:
        term.wait_for("waiting for questions", timeout=WAIT_CAP_S)
        term.wait(
            lambda: (
                runtime.exists() and any(p.name.endswith(INBOX_SUFFIX) for p in runtime.iterdir())
            ),
            timeout=WAIT_CAP_S,
        )
        yield term
    finally:
        term.kill()


def answer_in(term: Terminal, *, until_closed: bool = False) -> None:
    term.wait_for("Which database?", timeout=WAIT_CAP_S)
    term.press("2", "1", "1")  # Sqlite, then Submit (a double press on the review tab)
    if until_closed:
        assert term.exit_status(timeout=WAIT_CAP_S) == 0
    else:
        term.wait_for("waiting for questions", timeout=WAIT_CAP_S)


@pytest.mark.parametrize("mode", ERAS)
async def test_a_host_without_forms_is_answered_in_a_running_inbox(
    tmp_path: Path, inbox: Terminal, mode: str
) -> None:
    results: list[types.CallToolResult] = []
    beats: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        beats.append(message)

    async with Client(pi_ask_mcp(tmp_path), mode=mode) as client:

        async def call() -> None:
            result = await client.call_tool("ask_user", ONE_QUESTION, progress_callback=on_progress)
            results.append(result)

        with anyio.fail_after(WAIT_CAP_S * 2):
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                await anyio.to_thread.run_sync(answer_in, inbox)
    [result] = results
    details: Any = result.structured_content
    assert details["cancelled"] is False
    assert details["answers"] == {
        "db": {"values": ["sqlite"], "labels": ["Sqlite"], "indices": [2]}
    }
    assert result.content[0].text == "Q1: Sqlite"  # type: ignore[union-attr]
    assert beats  # the wait was announced to the host
    # The inbox's committed draft came back to the asker's log, then the ask ended.
    assert log_types(tmp_path) == [PAYLOAD_TYPE, DRAFT_TYPE, DISMISSED_TYPE]


async def test_a_client_cancel_closes_the_flow_in_the_inbox(
    tmp_path: Path, inbox: Terminal
) -> None:
    async with Client(pi_ask_mcp(tmp_path), mode="legacy") as client:
        with anyio.fail_after(WAIT_CAP_S * 2):
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "ask_user", ONE_QUESTION)
                await anyio.to_thread.run_sync(
                    lambda: inbox.wait_for("Which database?", timeout=WAIT_CAP_S)
                )
                group.cancel_scope.cancel()  # notifications/cancelled
            # The inbox drops the ask and waits again; the ask stays resumable.
            await anyio.to_thread.run_sync(
                lambda: inbox.wait_for("waiting for questions", timeout=WAIT_CAP_S)
            )
    assert log_types(tmp_path) == [PAYLOAD_TYPE]


async def test_with_no_terminal_wait_a_host_without_forms_waits_for_attach(
    tmp_path: Path,
) -> None:
    config = Path(os.environ["PI_ASK_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        '[behaviour]\nno_terminal = "wait"\n\n[attachments]\nmax_files = 3\n', encoding="utf-8"
    )
    results: list[types.CallToolResult] = []

    def attach_and_answer() -> None:
        term = answering_terminal(tmp_path, "attach")
        try:
            answer_in(term, until_closed=True)
        finally:
            term.kill()

    async with Client(pi_ask_mcp(tmp_path), mode="legacy") as client:

        async def call() -> None:
            results.append(await client.call_tool("ask_user", ONE_QUESTION))

        with anyio.fail_after(WAIT_CAP_S * 2):
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                while not (listed := list_pending()):  # published: attach can see it
                    await anyio.sleep(0.05)
                assert listed[0].files().max_files == 3  # the user's [attachments]
                await anyio.to_thread.run_sync(attach_and_answer)
    [result] = results
    assert result.structured_content["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
