"""Shared by the tests that run pi-ask as a child process: run it to its end, or wait on it.

``run_pi_ask`` runs ``python -m pi_ask`` in a session of its own (no controlling terminal,
as CI and an agent's tool run it), text in and out. ``wait_until`` is the one polling wait:
a generous cap on a condition, never a sleep standing in for one.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path


def run_pi_ask(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``python -m pi_ask ARGS`` to its end; ``stdin=None`` leaves standard input inherited."""
    return subprocess.run(
        [sys.executable, "-m", "pi_ask", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,
        timeout=timeout,
        check=False,
    )


def wait_until(condition: Callable[[], object], what: str, timeout: float = 20.0) -> object:
    """Poll ``condition`` until it is truthy and return its value; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)  # a polling interval; the condition is what is waited for


def python_output(code: str, *, env: Mapping[str, str] | None = None, timeout: float = 60) -> str:
    """What ``code`` prints, run in a fresh interpreter (what a start imports, say); a
    non-zero exit fails the test with the child's traceback."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=True,
    ).stdout
