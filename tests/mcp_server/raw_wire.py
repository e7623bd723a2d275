"""``pi-ask mcp`` (or the SDK's own stdio server) in a subprocess, driven line by line."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

WAIT_CAP_S = 120  # a generous cap on waiting for a line, never the thing under test

# The SDK's own stdio transport in front of the same server: the reference the front matches.
SDK_ONLY = """
import anyio
from pi_ask.mcp_server.server import build_server, serve_stdio
anyio.run(serve_stdio, build_server())
"""


def server_env(cwd: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name.startswith("PI_ASK_")}
    return env | {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", str(cwd))}


class RawSession:
    """A server process: send JSON lines, read the lines it writes, in order."""

    def __init__(
        self, argv: list[str], cwd: Path, env: dict[str, str] | None = None, **popen: Any
    ) -> None:
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env if env is not None else server_env(cwd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **popen,
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def pi_ask(cls, cwd: Path, *extra: str) -> RawSession:
        return cls([sys.executable, "-m", "pi_ask", "mcp", *extra], cwd)

    @classmethod
    def sdk_only(cls, cwd: Path) -> RawSession:
        return cls([sys.executable, "-c", SDK_ONLY], cwd)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def send(self, message: Any) -> None:
        self.send_raw(json.dumps(message).encode())

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        """The next line the server writes (fails after the cap, or at its end of output)."""
        line = self._lines.get(timeout=WAIT_CAP_S)
        assert line, "the server closed its output"
        message = json.loads(line)
        assert isinstance(message, dict)
        return message

    def answer_to(self, message_id: Any) -> dict[str, Any]:
        """Read up to the answer to ``message_id``; anything else on the way fails."""
        message = self.read()
        assert message.get("id") == message_id and "method" not in message, message
        return message

    def close(self) -> tuple[int, str]:
        """Close its input; its exit status and everything it wrote on stderr."""
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=WAIT_CAP_S)
        stderr = self.process.stderr.read().decode("utf-8", "replace")
        self.process.stderr.close()
        rest = self._lines.get(timeout=WAIT_CAP_S)
        assert self.process.stdout is not None
        self.process.stdout.close()
        assert rest == b"", f"unread output: {rest[:300]!r}"
        return status, stderr


MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def initialize(message_id: int, version: str = "2025-11-25", **capabilities: Any) -> Any:
    params = {
        "protocolVersion": version,
        "capabilities": capabilities,
        "clientInfo": {"name": "raw", "version": "1"},
    }
    return {"jsonrpc": "2.0", "id": message_id, "method": "initialize", "params": params}


def request(message_id: int, method: str, params: Any = None, *, modern: bool = False) -> Any:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": message_id, "method": method}
    if modern:
        params = {**(params or {}), "_meta": MODERN_META}
    if params is not None:
        message["params"] = params
    return message


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def initialized(cwd: Path, phase: str) -> RawSession:
    """``pi-ask mcp`` past its handshake, still answered by the stdio front (``phase``
    "front") or handed to the SDK by a first call ("sdk": an empty payload, answered as the
    contract's invalid input)."""
    session = RawSession.pi_ask(cwd)
    session.send(initialize(1))
    session.answer_to(1)
    session.send(INITIALIZED)
    if phase == "sdk":
        session.send(request(2, "tools/call", {"name": "ask_user", "arguments": {"questions": []}}))
        result = session.answer_to(2)["result"]
        assert result["isError"] is False
        assert result["structuredContent"]["error"]["kind"] == "invalid_input"
    return session
