"""Run ``pi-ask`` in a real pseudo-terminal and read its screen like a person would.

The child's terminal output goes into a pyte screen; stdout is redirected to a file (the
JSON result), exactly as in ``pi-ask ask q.json > answer.json``. Keys are pi-ask key ids
turned into bytes by the keymaps' table. Waiting is by polling the screen for a
condition, never by fixed sleeps.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

from pi_ask.keymaps.terminal_bytes import terminal_bytes

ROOT = Path(__file__).resolve().parents[2]
_CPR_REQUEST = "\x1b[6n"


def pi_ask_command() -> list[str]:
    """The installed ``pi-ask`` of this environment (falls back to ``python -m pi_ask``)."""
    script = Path(sys.executable).with_name("pi-ask")
    if script.exists():
        return [str(script)]
    found = shutil.which("pi-ask")
    return [found] if found else [sys.executable, "-m", "pi_ask"]


def key_bytes(key: str) -> str:
    if key.startswith("text:"):
        return key[len("text:") :]
    data = terminal_bytes(key)
    if data is None:
        raise ValueError(f"no bytes for key {key!r}")
    return data


class Terminal:
    """A child process on a pty of ``width`` x ``height`` with its screen in pyte."""

    def __init__(
        self,
        args: list[str],
        *,
        stdout: Path,
        env: dict[str, str],
        width: int = 80,
        height: int = 24,
        cwd: Path | None = None,
    ) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        command = " ".join(shlex.quote(part) for part in args)
        shell = f"exec {command} > {shlex.quote(str(stdout))}"
        self.child = pexpect.spawn(
            "/bin/sh",
            ["-c", shell],
            env=env,
            dimensions=(height, width),
            encoding="utf-8",
            codec_errors="replace",
            cwd=str(cwd or ROOT),
        )
        self.child.delaybeforesend = None
        self.output: list[str] = []

    def pump(self, timeout: float = 0.05) -> None:
        """Read what the child wrote so far into the screen; answer cursor queries."""
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=timeout)
            except pexpect.TIMEOUT:
                return
            except pexpect.EOF:
                return
            self.output.append(data)
            if _CPR_REQUEST in data:
                row, column = self.screen.cursor.y + 1, self.screen.cursor.x + 1
                self.child.send(f"\x1b[{row};{column}R")
            self.stream.feed(data)
            timeout = 0.01

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait(self, condition: Callable[[], bool], timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("timed out; the screen shows:\n" + self.text())
            if not self.child.isalive():
                self.pump(0.01)
                if condition():
                    return
                raise AssertionError("the process ended; the screen shows:\n" + self.text())
            self.pump()

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        self.wait(lambda: text in self.text(), timeout)

    def press(self, *keys: str) -> None:
        for key in keys:
            self.child.send(key_bytes(key))

    def exit_status(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.child.isalive():
            if time.monotonic() > deadline:
                raise AssertionError("the process did not end:\n" + self.text())
            self.pump()
        self.pump(0.01)
        self.child.close()
        status = self.child.exitstatus
        if status is None:
            return 128 + (self.child.signalstatus or 0)
        return int(status)

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def child_env(config: Path, state: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("PI_ASK_") and key != "NO_COLOR"
    }
    env.update(PI_ASK_CONFIG=str(config), PI_ASK_STATE_DIR=str(state), TERM="xterm-256color")
    env.update(extra)
    return env
