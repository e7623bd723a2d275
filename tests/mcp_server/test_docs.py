"""docs/mcp.md: every host's set-up snippet parses, and its command serves ``ask_user``."""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.mcp_server.helpers import PAYLOAD, FormHost

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"
HOSTS = ("Claude Code", "Codex", "Cursor", "VS Code", "Gemini CLI", "opencode")
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Snippet:
    host: str
    language: str
    text: str


def host_sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    setup = text.split("## Set-up per host", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### (.+)$", setup, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def snippets() -> list[Snippet]:
    found = []
    for host, body in host_sections().items():
        found.extend(Snippet(host, lang, code) for lang, code in FENCE.findall(body))
        # An inline JSON fragment (opencode's older form) counts as a snippet too.
        found.extend(
            Snippet(host, "json", "{" + span + "}")
            for span in re.findall(r"`(\"mcp\": \{.*?\}\})`", body)
        )
    return found


def server_command(snippet: Snippet) -> list[str]:
    """The command line a host would start, read the way that host reads its config."""
    if snippet.language == "sh":
        words = shlex.split(snippet.text)
        assert words[:3] == ["claude", "mcp", "add"], words
        return words[words.index("--") + 1 :]
    if snippet.language == "toml":
        entry = tomllib.loads(snippet.text)["mcp_servers"]["pi-ask"]
        assert entry["tool_timeout_sec"] > 0
        # Codex passes a server only its own short list of variables (issue 26); the
        # runtime folder no longer needs XDG_RUNTIME_DIR, tmux and settings may.
        assert {"TMUX", "TMUX_PANE", "XDG_CONFIG_HOME", "PI_ASK_CONFIG"} <= set(entry["env_vars"])
        return [entry["command"], *entry["args"]]
    config = json.loads(snippet.text)
    if "mcpServers" in config:
        entry = config["mcpServers"]["pi-ask"]
    elif "servers" in config:
        entry = config["servers"]["pi-ask"]
    else:
        mcp = config["mcp"]
        entry = mcp["servers"]["pi-ask"] if "servers" in mcp else mcp["pi-ask"]
    if isinstance(entry["command"], list):
        assert entry["type"] == "local"
        return list(entry["command"])
    assert entry.get("type", "stdio") == "stdio"
    if "timeout" in entry:
        assert isinstance(entry["timeout"], int) and entry["timeout"] > 0
    return [entry["command"], *entry.get("args", [])]


def installed(command: str) -> str:
    """``pi-ask`` as installed in this environment (the one beside this interpreter)."""
    beside = Path(sys.executable).parent / command
    found = str(beside) if beside.exists() else shutil.which(command)
    assert found is not None, f"{command} is not installed"
    return found


def test_the_route_table_names_every_host_section() -> None:
    """Each host set up below has a row saying where its asks reach you ("not measured"
    where nobody measured it), and its section says so too."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("| host | headless | TUI |", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    named = [row.split("|")[1].strip() for row in rows]
    for host in HOSTS:
        assert sum(cell.startswith(host) for cell in named) == 1, host
    assert len(rows) == len(HOSTS)
    assert all(row.count("|") == 6 for row in rows)
    for host, body in host_sections().items():
        assert "Where asks reach you:" in body, host


def test_every_host_has_a_snippet_and_a_timeout_line() -> None:
    sections = host_sections()
    assert tuple(sections) == HOSTS
    found = {snippet.host for snippet in snippets()}
    assert found == set(HOSTS)
    for host, body in sections.items():
        assert "Tool timeout:" in body, host


@pytest.mark.anyio
@pytest.mark.parametrize(
    "snippet", snippets(), ids=lambda s: f"{s.host}-{s.language}-{len(s.text)}"
)
async def test_the_snippet_starts_a_server_that_asks(snippet: Snippet, tmp_path: Path) -> None:
    command, *args = server_command(snippet)
    name = args[args.index("--tool-name") + 1] if "--tool-name" in args else "ask_user"
    assert (command, args) in (("pi-ask", ["mcp"]), ("pi-ask", ["mcp", "--tool-name", name]))
    env = {name: value for name, value in os.environ.items() if name.startswith("PI_ASK_")}
    env["PATH"] = os.environ.get("PATH", "")
    server = StdioServerParameters(command=installed(command), args=args, env=env, cwd=tmp_path)
    host = FormHost("accept", {"q1": "sqlite"})
    async with Client(server, elicitation_callback=host) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        result = await client.call_tool(name, copy.deepcopy(PAYLOAD))
    assert tools == [name, f"{name}_start", f"{name}_result"]
    assert result.structured_content["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
