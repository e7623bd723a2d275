"""The real ``pi-ask mcp`` in a subprocess, driven over stdio by the SDK's client."""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from pi_ask.session.entries import DISMISSED_TYPE, PAYLOAD_TYPE, UNREACHED_TYPE
from tests.mcp_server.helpers import ERAS, PAYLOAD, FormHost, OpenForm, log_types

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 120  # a generous cap on waits for a condition, never the thing under test


def pi_ask_mcp(cwd: Path, *extra: str) -> StdioServerParameters:
    """``python -m pi_ask mcp`` with this test's own settings and state folders."""
    env = {name: value for name, value in os.environ.items() if name.startswith("PI_ASK_")}
    env |= {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", str(cwd))}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "pi_ask", "mcp", *extra], env=env, cwd=cwd
    )


@pytest.mark.parametrize("mode", ERAS)
async def test_a_form_answer_comes_back_over_stdio(tmp_path: Path, mode: str) -> None:
    host = FormHost("accept", {"q1": "postgres", "q2": ["auth"], "q2_text": "audit"})
    async with Client(pi_ask_mcp(tmp_path), mode=mode, elicitation_callback=host) as client:
        tools = (await client.list_tools()).tools
        assert [tool.name for tool in tools] == ["ask_user", "ask_user_start", "ask_user_result"]
        result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    details = result.structured_content
    assert details is not None
    assert details["cancelled"] is False
    assert details["answers"]["db"]["values"] == ["postgres"]
    assert details["answers"]["extras"]["values"] == ["auth", "audit"]
    assert result.content[0].text == "Q1: PostgreSQL\nExtras: Auth, audit\nQ3: (no answer)"  # type: ignore[union-attr]
    assert log_types(tmp_path) == [PAYLOAD_TYPE, DISMISSED_TYPE]


@pytest.mark.parametrize("mode", ERAS)
async def test_without_elicitation_the_questions_come_back_unanswered(
    tmp_path: Path, mode: str
) -> None:
    async with Client(pi_ask_mcp(tmp_path), mode=mode) as client:
        result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    assert result.structured_content["reason"] == "no_terminal"  # type: ignore[index]
    assert result.content[0].text.startswith("Needs user input")  # type: ignore[union-attr]
    assert log_types(tmp_path) == [PAYLOAD_TYPE, UNREACHED_TYPE]


async def test_an_invalid_payload_over_stdio(tmp_path: Path) -> None:
    async with Client(pi_ask_mcp(tmp_path), elicitation_callback=FormHost("accept")) as client:
        result = await client.call_tool("ask_user", {"questions": "none"})
    assert result.is_error is False
    assert result.structured_content["error"]["kind"] == "invalid_input"  # type: ignore[index]
    assert result.content[0].text.startswith("Invalid ask_user payload:\n- questions")  # type: ignore[union-attr]


async def test_progress_and_cancel_over_stdio(tmp_path: Path) -> None:
    progressed = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        progressed.set()

    host = OpenForm()

    server = pi_ask_mcp(tmp_path)
    async with Client(server, mode="legacy", elicitation_callback=host) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(
                lambda: client.call_tool("ask_user", PAYLOAD, progress_callback=on_progress)
            )
            with anyio.fail_after(WAIT_CAP_S):
                await host.opened.wait()
                await progressed.wait()
            group.cancel_scope.cancel()
        with anyio.fail_after(WAIT_CAP_S):
            await host.closed.wait()
        again = await client.call_tool("ask_user", {"questions": []})
        assert again.structured_content["error"]["kind"] == "invalid_input"  # type: ignore[index]
    assert log_types(tmp_path) == [PAYLOAD_TYPE]


BLOCK_SDK = """
import sys
from importlib.abc import MetaPathFinder


class NoSdk(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mcp" or name.startswith("mcp."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NoSdk())
from pi_ask.cli.main import main

sys.exit(main(["mcp"]))
"""


def test_without_the_sdk_pi_ask_mcp_names_the_extra(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", BLOCK_SDK],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=WAIT_CAP_S,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    # The hint is this copy's own install command (pi_ask.install_hint), naming the extra.
    assert "the MCP SDK is not installed" in done.stderr and "mcp" in done.stderr.split(":", 2)[2]
    assert len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("face", ["auto", "terminal"])
async def test_the_server_never_opens_the_terminal_it_inherits(tmp_path: Path, face: str) -> None:
    log = tmp_path / "tty.log"
    guard = Path(__file__).with_name("tty_guard.py")
    server = pi_ask_mcp(tmp_path)
    server.args = [str(guard), str(log), "mcp", "--face", face]
    server.env = {**(server.env or {}), "PYTHONPATH": os.pathsep.join(sys.path)}
    async with Client(server, mode="legacy") as client:
        unanswered = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    host = FormHost("accept", {"q1": "sqlite"})
    async with Client(server, elicitation_callback=host) as client:
        answered = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    assert unanswered.structured_content["reason"] == "no_terminal"  # type: ignore[index]
    assert answered.structured_content["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
    # The last run's log: the terminal was there, nothing opened it, nothing was drawn.
    assert log.read_text(encoding="utf-8").splitlines() == ["terminal ready", "drawn 0"]
