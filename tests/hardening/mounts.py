"""Real file systems for fault tests: a small or read-only tmpfs mounted for one test.

Mounting needs root (the suite runs as root in CI); elsewhere the test is skipped with the
reason printed (``pytest -ra``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def tmpfs(where: Path, *, size: str = "1m", read_only: bool = False) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``where`` (created) for the ``with`` body."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size},mode=0700" + (",ro" if read_only else "")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
