"""Install the pinned host CLIs for the host matrix: ``python -m tests.hosts.install``.

Run by ``.ci/run``. Each host goes into its own npm prefix under the hosts folder, all in
parallel; one line per host says how long it took, or why it could not be installed (the
tests of that host then skip, naming the reason). A prefix already holding the pinned
versions is kept. Exit status 0 even when some host failed: the matrix reports it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.hosts.pins import PINS, Pin, hosts_dir

INSTALL_CAP_S = 180
FAILED_NOTE = "install-failed.txt"  # why the last install failed, read by the tests' skips


def installed(prefix: Path, pin: Pin) -> bool:
    for spec in pin.packages:
        name, _, version = spec.rpartition("@")
        manifest = prefix / "node_modules" / name / "package.json"
        try:
            if json.loads(manifest.read_text(encoding="utf-8")).get("version") != version:
                return False
        except (OSError, ValueError):
            return False
    return (prefix / "node_modules" / ".bin" / pin.binary).exists()


def install(pin: Pin, npm: str) -> str:
    prefix = hosts_dir() / pin.key
    if installed(prefix, pin):
        return f"{pin.key}: already installed"
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.mkdir(parents=True)
    started = time.monotonic()
    try:
        done = subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
             "--no-save", "--loglevel=error", *pin.packages],
            capture_output=True,
            text=True,
            timeout=INSTALL_CAP_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )  # fmt: skip
        problem = "" if done.returncode == 0 else (done.stderr.strip() or "npm failed")
    except subprocess.TimeoutExpired:
        problem = f"npm install did not finish in {INSTALL_CAP_S} s"
    took = time.monotonic() - started
    if not problem and not installed(prefix, pin):
        problem = f"npm finished but {pin.binary} at the pinned version is missing"
    if problem:
        last = _reason(problem)
        (prefix / FAILED_NOTE).write_text(last + "\n", encoding="utf-8")
        return f"{pin.key}: NOT installed ({last}); its tests will skip"
    return f"{pin.key}: installed {' '.join(pin.packages)} in {took:.1f} s"


def _reason(problem: str) -> str:
    """npm's own reason (``npm error code …`` and the ``request … failed`` line), not its last
    line, which only points to a debug log."""
    lines = [line.strip() for line in problem.splitlines() if line.strip()]
    telling = [
        line
        for line in lines
        if line.startswith(("npm error code", "npm ERR! code")) or "reason:" in line
    ]
    return "; ".join(telling or lines[-1:])[:300]


def main() -> int:
    folder = hosts_dir()
    npm = shutil.which("npm")
    if npm is None:
        print(f"hosts: no npm on PATH; the host matrix will skip (folder {folder})")
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=len(PINS)) as pool:
        for line in pool.map(lambda pin: install(pin, npm), PINS):
            print(f"hosts: {line}", flush=True)
    print(f"hosts: {folder} ready in {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
