"""A pi RPC host for the tests: runs the adapter as a child process on real pipes."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

HERE = Path(__file__).resolve().parent
WAIT_S = 60.0  # a cap on each wait for a line, generous for a loaded machine

Message = dict[str, object]


@dataclass
class RpcHost:
    """The host side: reads request lines, writes response lines, collects the rest."""

    process: subprocess.Popen[bytes]
    stdout_lines: queue.Queue[bytes | None] = field(default_factory=queue.Queue)
    stderr_chunks: list[bytes] = field(default_factory=list)
    readers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> RpcHost:
        assert self.process.stdout is not None and self.process.stderr is not None
        self.readers = [
            threading.Thread(target=self._pump, args=(self.process.stdout,), daemon=True),
            threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        return self

    def _pump(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.stdout_lines.put(line)
        self.stdout_lines.put(None)

    def _drain(self, stream: IO[bytes]) -> None:
        self.stderr_chunks.extend(stream)

    def line(self) -> Message:
        """The next stdout line, parsed; it must come within ``WAIT_S`` seconds."""
        raw = self.stdout_lines.get(timeout=WAIT_S)
        assert raw is not None, f"stdout ended; stderr: {self.stderr}"
        assert raw.endswith(b"\n") and not raw.endswith(b"\r\n")
        message = json.loads(raw)
        assert isinstance(message, dict)
        return message

    def request(self) -> Message:
        message = self.line()
        assert message["type"] == "extension_ui_request", message
        return message

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, *messages: Message) -> None:
        self.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in messages))

    def respond(self, request: Message, **fields: object) -> None:
        self.send({"type": "extension_ui_response", "id": request["id"], **fields})

    def choose(self, request: Message, position: int) -> None:
        """Answer a select card with its option string at ``position`` (0-based, -1 last)."""
        options = request["options"]
        assert isinstance(options, list)
        self.respond(request, value=options[position])

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def finish(self) -> tuple[Message, int]:
        """The result line (the last stdout line) and the exit status; nothing may follow."""
        result = self.line()
        assert "details" in result and "content" in result, result
        status = self.process.wait(timeout=WAIT_S)
        for reader in self.readers:
            reader.join(WAIT_S)
        assert self.stdout_lines.get(timeout=WAIT_S) is None, "stdout went on after the result"
        return result, status

    @property
    def stderr(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")


def adapter_command(payload: Path) -> list[str]:
    """``run_rpc`` on its own, as ``pi-ask ask --ui rpc`` calls it."""
    return [sys.executable, str(HERE / "rpc_child.py"), str(payload)]


def cli_command(payload: Path) -> list[str]:
    """The real command."""
    return [sys.executable, "-m", "pi_ask", "ask", "--ui", "rpc", str(payload)]


COMMANDS = {"cli": cli_command, "adapter": adapter_command}


@pytest.fixture(params=sorted(COMMANDS))
def rpc_host(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[Message], RpcHost]]:
    """Start a host on a payload: ``rpc_host(payload_dict)``.

    Every test runs twice: through ``pi-ask ask --ui rpc`` and through ``run_rpc`` alone.
    """
    command = COMMANDS[request.param]
    with hosts_in(tmp_path) as spawn:
        count = 0

        def start(payload: Message) -> RpcHost:
            nonlocal count
            path = tmp_path / f"payload-{count}.json"
            count += 1
            path.write_text(json.dumps(payload), encoding="utf-8")
            return spawn(command(path))

        yield start


@contextmanager
def hosts_in(folder: Path) -> Iterator[Callable[[list[str]], RpcHost]]:
    """``spawn(command)`` starts a host on pipes with its config and state in ``folder``;
    on exit every host still running is killed and every pipe closed."""
    hosts: list[RpcHost] = []
    env = {
        **os.environ,
        "PI_ASK_CONFIG": str(folder / "config.toml"),
        "PI_ASK_STATE_DIR": str(folder / "state"),
    }

    def spawn(command: list[str]) -> RpcHost:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=folder,
        )
        host = RpcHost(process).start()
        hosts.append(host)
        return host

    try:
        yield spawn
    finally:
        for host in hosts:
            if host.process.poll() is None:
                host.process.kill()
                host.process.wait()
            for stream in (host.process.stdin, host.process.stdout, host.process.stderr):
                if stream is not None:
                    stream.close()
