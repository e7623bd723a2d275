"""``pi-ask mcp`` until its tool is listed, against minimal SDK servers (issue 28).

Each round starts a server on pipes, sends ``initialize``, ``notifications/initialized`` and
``tools/list`` at once (as hosts do) and stops the clock at the ``tools/list`` answer. Three
servers, interleaved in every round (the order rotates): ``pi-ask mcp``; a minimal server of
the Python SDK pi-ask uses (one tool, the SDK's own stdio transport); a minimal server of the
TypeScript SDK (``@modelcontextprotocol/sdk``, installed with npm into a cache folder beside
this file, ignored by git). The verdicts are medians of per-round ratios.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from first_frame import paired_ratio

ROUNDS = 15
TS_SDK = "@modelcontextprotocol/sdk@1.32.2"
CACHE = Path(__file__).resolve().parent / ".node"
CAP_S = 120.0

PYTHON_SERVER = """
import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

TOOL = types.Tool(name="ask_user", description="Ask the user.", input_schema={"type": "object"})


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL])


async def main():
    server = Server("minimal", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
"""

TS_SERVER = """
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "minimal", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "ask_user", description: "Ask the user.", inputSchema: { type: "object" } }],
}));
await server.connect(new StdioServerTransport());
"""


@dataclass(frozen=True, slots=True)
class McpStart:
    pi_ask_ms: float
    python_sdk_ms: float
    typescript_sdk_ms: float | None
    """``None`` when npm could not install the TypeScript SDK (the reason is printed)."""
    ratio_python: float
    ratio_typescript: float | None


def _handshake() -> bytes:
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def _listed_after(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Seconds from the start of ``argv`` to its ``tools/list`` answer."""
    start = time.perf_counter()
    server = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        cwd=cwd,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(_handshake())
        server.stdin.flush()
        deadline = start + CAP_S
        while time.perf_counter() < deadline:
            line = server.stdout.readline()
            if not line:
                raise RuntimeError(f"{argv[:3]} ended before listing its tools")
            message = json.loads(line)
            if message.get("id") == 2:
                elapsed = time.perf_counter() - start
                if "tools" not in message.get("result", {}):
                    raise RuntimeError(f"{argv[:3]} answered tools/list with {message}")
                return elapsed
        raise RuntimeError(f"{argv[:3]} listed no tools in {CAP_S:g} s")
    finally:
        server.kill()
        server.wait()


def _typescript_server() -> list[str] | None:
    """``node server.mjs`` with the TypeScript SDK installed in CACHE, or ``None``."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        print("mcp_start: no node/npm: the TypeScript floor is skipped", file=sys.stderr)
        return None
    script = CACHE / "server.mjs"
    if not (CACHE / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        CACHE.mkdir(exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(CACHE), TS_SDK],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            why = done.stderr.strip().splitlines()[-1:] or ["no message"]
            print(f"mcp_start: npm could not install {TS_SDK}: {why[0]}", file=sys.stderr)
            return None
    script.write_text(TS_SERVER, encoding="utf-8")
    return [node, str(script)]


def measure_mcp_start(workdir: Path, env: dict[str, str]) -> McpStart:
    """Every round: the three servers in a rotating order, each from a cold process."""
    run_env = {**env, "PI_ASK_CONFIG": str(workdir / "mcp-config.toml")}
    run_env["PI_ASK_STATE_DIR"] = str(workdir / "mcp-state")
    servers = {
        "pi_ask": [sys.executable, "-m", "pi_ask", "mcp"],
        "python": [sys.executable, "-c", PYTHON_SERVER],
    }
    typescript = _typescript_server()
    if typescript is not None:
        servers["typescript"] = typescript
    times: dict[str, list[float]] = {name: [] for name in servers}
    names = list(servers)
    _listed_after(servers["pi_ask"], run_env, workdir)  # writes the config file once
    for number in range(ROUNDS):
        for name in names[number % len(names) :] + names[: number % len(names)]:
            times[name].append(_listed_after(servers[name], run_env, workdir))

    def median_ms(name: str) -> float:
        return round(statistics.median(times[name]) * 1000, 1)

    return McpStart(
        pi_ask_ms=median_ms("pi_ask"),
        python_sdk_ms=median_ms("python"),
        typescript_sdk_ms=median_ms("typescript") if typescript else None,
        ratio_python=paired_ratio(times["pi_ask"], times["python"]),
        ratio_typescript=paired_ratio(times["pi_ask"], times["typescript"]) if typescript else None,
    )


if __name__ == "__main__":  # a quick look: uv run python benchmarks/mcp_start.py
    import dataclasses
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        found = measure_mcp_start(Path(folder), dict(os.environ))
    print(json.dumps(dataclasses.asdict(found), indent=2))
