"""Hints for a missing extra name this copy's own source, never a bare package-index name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_ask.install_hint import extra_command, install_command, origin_from
from tests.child_processes import run_pi_ask

ROOT = Path(__file__).resolve().parents[1]
CLONE = Path("/src/pi ask")
RECEIPT = """\
[tool]
requirements = [{ name = "pi-ask", extras = ["web"], directory = "/src/pi ask" }]
entrypoints = [{ name = "pi-ask", install-path = "/home/u/.local/bin/pi-ask" }]
"""


def command(direct_url: object, receipt: str | None = None, prefix: str = "/env") -> str:
    origin = origin_from(direct_url, receipt)
    return install_command("mcp", origin, prefix=Path(prefix), python="/env/bin/python")


def test_a_uv_tool_from_a_clone_keeps_its_extras() -> None:
    url = {"url": "file:///src/pi%20ask", "dir_info": {}}
    assert command(url, RECEIPT) == "uv tool install --compile-bytecode '/src/pi ask[web,mcp]'"


def test_a_uv_synced_clone_syncs_the_extra() -> None:
    url = {"url": "file:///src/pi%20ask", "dir_info": {"editable": True}}
    assert command(url, prefix="/src/pi ask/.venv") == "cd '/src/pi ask' && uv sync --extra mcp"


def test_pip_installs_name_their_source() -> None:
    editable = {"url": "file:///src/pi%20ask", "dir_info": {"editable": True}}
    assert command(editable) == "/env/bin/python -m pip install -e '/src/pi ask[mcp]'"
    assert command({"url": "file:///src/pi%20ask", "dir_info": {}}) == (
        "/env/bin/python -m pip install '/src/pi ask[mcp]'"
    )
    git = {"url": "https://example.org/pi-ask.git", "vcs_info": {"vcs": "git", "commit_id": "ab1"}}
    assert command(git) == (
        "/env/bin/python -m pip install 'pi-ask[mcp] @ git+https://example.org/pi-ask.git@ab1'"
    )


@pytest.mark.parametrize("direct_url", [None, {}, {"url": 3}])
def test_an_unknown_source_never_names_a_bare_index_package(direct_url: object) -> None:
    text = command(direct_url)
    assert "'pi-ask[" not in text
    assert "/path/to/pi-ask[mcp]" in text


def test_this_checkout_gets_its_own_command() -> None:
    """The test environment is this clone's ``uv sync``: its hint is ``uv sync`` here."""
    assert extra_command("mcp") == f"cd {ROOT} && uv sync --extra mcp"


def test_pi_ask_mcp_without_the_sdk_prints_this_copys_command(tmp_path: Path) -> None:
    # A sitecustomize first on sys.path hides the installed SDK from find_spec.
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import importlib.util, sys\n"
        "_find = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, p=None: None if n == 'mcp' else _find(n, p)\n"
    )
    env = {"PYTHONPATH": str(tmp_path), "PI_ASK_STATE_DIR": str(tmp_path / "state")}
    done = run_pi_ask("mcp", stdin="", env={**os.environ, **env})
    assert done.returncode == 2
    assert done.stderr == (
        "pi-ask mcp: the MCP SDK is not installed; add the mcp extra: "
        f"cd {ROOT} && uv sync --extra mcp\n"
    )
