"""A private tmux server: a real terminal's idea of character widths, read back as text.

pyte measures with the same ``wcwidth`` table as prompt_toolkit, so a width mistake cancels
out there; tmux has its own table (glibc's, for most characters). Each ``Tmux`` runs its own
server on a socket of its own (``tmux -L <unique>``, in the user's 0700 tmux folder) with
no config file, and kills it when closed. Waiting is for a condition on the pane, never for
a fixed time.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path

from tests.e2e.terminal import key_bytes

HAVE_TMUX = shutil.which("tmux") is not None
_POLL_S = 0.02


class Tmux:
    """One tmux server with one pane running ``command`` at ``width`` x ``height``."""

    def __init__(
        self,
        command: str,
        *,
        width: int,
        height: int,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.socket = f"pi-ask-test-{uuid.uuid4().hex[:12]}"
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in (env or {}).items())
        folder = shlex.quote(str(cwd or Path.cwd()))
        shell = f"cd {folder} && exec env {exports} sh -c {shlex.quote(command)}"
        self._tmux(
            "-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y", str(height),
            "sh", "-c", shell,
        )  # fmt: skip
        # Keep the pane (and its last screen) when the command ends.
        self._tmux("set-option", "-g", "remain-on-exit", "on")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def lines(self) -> list[str]:
        """The pane's rows as tmux holds them, trailing spaces removed."""
        return [line.rstrip() for line in self._tmux("capture-pane", "-p").split("\n")]

    def text(self) -> str:
        return "\n".join(self.lines())

    def cursor_x(self) -> int:
        return int(self._tmux("display-message", "-p", "#{cursor_x}").strip())

    def wait(self, condition: Callable[[], bool], timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("timed out; tmux shows:\n" + self.text())
            time.sleep(_POLL_S)  # a polling interval; what is waited for is the condition

    def wait_for(self, text: str, timeout: float = 60.0) -> None:
        self.wait(lambda: text in self.text(), timeout)

    def press(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-l", key_bytes(key))

    def resize(self, width: int, height: int) -> None:
        self._tmux("resize-window", "-x", str(width), "-y", str(height))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)
