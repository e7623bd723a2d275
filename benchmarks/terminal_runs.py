"""Run a command on a real pseudo-terminal and time what its user sees.

``TerminalRun`` spawns the command with pexpect on a 100x40 pty and feeds everything it
writes into a pyte screen, so "the key was handled" means "the screen shows its effect",
however prompt_toolkit chose to redraw.
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pexpect
import pyte

ROWS = 40
COLUMNS = 100
TIMEOUT_S = 30.0
DOWN = "\x1b[B"
UP = "\x1b[A"


@dataclass(frozen=True, slots=True)
class Launch:
    """A command to time on a pty.

    Attributes:
        name: The row name in the report.
        command: The program and its arguments.
        marker: Text on the first frame; it is drawn when this appears. A pattern stands
            for what text cannot say (a colour), matched in the bytes the terminal gets.
        env: The child's environment.
        keyed: True when the first frame is a flow whose cursor a Down key moves (from
            option 1 to option 2 of the first question).
    """

    name: str
    command: tuple[str, ...]
    marker: str | re.Pattern[str]
    env: Mapping[str, str] = field(repr=False)
    keyed: bool = False


def cursor_on(number: int) -> Callable[[list[str]], bool]:
    """A screen predicate: the option cursor is on option ``number`` of the list."""
    prefix = f"❯ {number}."
    return lambda lines: any(line.startswith(prefix) for line in lines)


class TerminalRun:
    """One spawned command on a pty, its screen, and timings taken against it."""

    def __init__(self, launch: Launch) -> None:
        self.launch = launch
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self._stream = pyte.Stream(self.screen)
        self.started = time.perf_counter()
        self.child = pexpect.spawn(
            launch.command[0],
            list(launch.command[1:]),
            env=dict(launch.env),
            dimensions=(ROWS, COLUMNS),
            encoding="utf-8",
            codec_errors="replace",
        )
        self.child.delaybeforesend = None

    def first_frame(self) -> float:
        """Seconds from the spawn until the marker is on the terminal."""
        marker = self.launch.marker
        if isinstance(marker, str):
            self.child.expect_exact(marker, timeout=TIMEOUT_S)
        else:
            self.child.expect(marker, timeout=TIMEOUT_S)
        elapsed = time.perf_counter() - self.started
        self._stream.feed(self.child.before + self.child.after + self.child.buffer)
        self.child.buffer = ""
        return elapsed

    def lines(self) -> list[str]:
        """The screen as text lines."""
        return list(self.screen.display)

    def press(self, key: str, shown: Callable[[list[str]], bool]) -> float:
        """Send ``key``; seconds until the screen satisfies ``shown``."""
        start = time.perf_counter()
        self.child.send(key)
        deadline = start + TIMEOUT_S
        while not shown(self.lines()):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"{self.launch.name}: the key's effect never showed")
            try:
                data = self.child.read_nonblocking(65536, timeout=remaining)
            except pexpect.TIMEOUT:
                continue
            self._stream.feed(data)
        return time.perf_counter() - start

    def drain(self) -> None:
        """Feed whatever the child wrote since, without waiting."""
        while True:
            try:
                self._stream.feed(self.child.read_nonblocking(65536, timeout=0))
            except (pexpect.TIMEOUT, pexpect.EOF):
                return

    def close(self, grace_s: float = 3.0) -> None:
        """End the child as a process manager would: SIGTERM, then SIGKILL after ``grace_s``.

        SIGTERM lets pi-ask cancel the flow and stop its notification (killing a hanging
        command's process group), so no ``sleep 30`` outlives its run.
        """
        if self.child.isalive():
            os.kill(self.child.pid, signal.SIGTERM)
            deadline = time.perf_counter() + grace_s
            while self.child.isalive() and time.perf_counter() < deadline:
                try:
                    self.child.read_nonblocking(65536, timeout=0.05)
                except pexpect.TIMEOUT:
                    continue
                except pexpect.EOF:
                    break
        self.child.close(force=True)


@dataclass(frozen=True, slots=True)
class RunTiming:
    """One run: its first frame and, for keyed launches, its first key, in seconds."""

    first_frame_s: float
    first_key_s: float | None


def time_run(launch: Launch) -> RunTiming:
    """Spawn ``launch``, time its first frame and (when keyed) a Down key sent right after."""
    run = TerminalRun(launch)
    try:
        first = run.first_frame()
        key = run.press(DOWN, cursor_on(2)) if launch.keyed else None
        return RunTiming(first, key)
    finally:
        run.close()
