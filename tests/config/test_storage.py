"""Concurrent and interrupted writes, with real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from pi_ask.config.storage import locked, write_atomic
from pi_ask.config.toml_text import default_text

TOGGLER = """
import sys
from pathlib import Path
from pi_ask.config.store import SettingsStore

path, key, kind = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
store = SettingsStore(path, create=False)
print("ready", flush=True)
sys.stdin.readline()
for i in range(200):
    value = (i % 2 == 1) if kind == "bool" else 1000 + i
    result = store.set(key, value)
    assert result.ok, result.error
"""


def start(code: str, *args: str) -> subprocess.Popen[str]:
    """A child running ``code``, once it says it is ready; use it in a ``with`` (closes pipes)."""
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def test_two_processes_toggling_200_times_each_lose_nothing(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    original = (
        "# shared\n[behaviour]\nshow_footer_hints = true # a\n\n[answer]\nextractor = 'auto'\n"
    )
    config.write_text(original)
    with (
        start(TOGGLER, str(config), "behaviour.show_footer_hints", "bool") as first,
        start(TOGGLER, str(config), "answer.extraction_timeout_ms", "int") as second,
    ):
        for process in (first, second):
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        assert first.wait(timeout=120) == 0
        assert second.wait(timeout=120) == 0
    document = tomllib.loads(config.read_text())
    assert document["behaviour"]["show_footer_hints"] is True  # i = 199 is odd
    assert document["answer"]["extraction_timeout_ms"] == 1199
    assert config.read_text() == original.replace(
        "extractor = 'auto'\n", "extractor = 'auto'\nextraction_timeout_ms = 1199\n"
    )


WRITER = """
import sys
from pathlib import Path
from pi_ask.config.storage import locked, write_atomic

path = Path(sys.argv[1])
versions = [path.read_bytes(), path.read_bytes().replace(b"= true", b"= false")]
print("ready", flush=True)
n = 0
while True:
    n += 1
    with locked(path):
        write_atomic(path, versions[n % 2])
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_during_writes_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    # A large file: most of the writer's time is spent writing it, so the kills land there.
    padding = "".join(f"# padding line {n:06d} " + "x" * 80 + "\n" for n in range(20_000))
    original = padding + default_text()
    config.write_text(original)
    versions = {original.encode(), original.replace("= true", "= false").encode()}
    for delay in (0.05, 0.11, 0.17, 0.23, 0.29):
        with start(WRITER, str(config)) as writer:
            time.sleep(delay)  # not a wait for anything: the kill lands at a varied moment
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=60)
        assert config.read_bytes() in versions
    # The lock died with the process: the next writer gets it at once.
    began = time.monotonic()
    with locked(config):
        pass
    assert time.monotonic() - began < 1
    # And the temporary files the killed writers left are cleared under the lock.
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["config.toml", "config.toml.lock"]


def test_write_atomic_keeps_the_permissions(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("a = 1\n")
    path.chmod(0o600)
    write_atomic(path, b"a = 2\n")
    assert path.read_text() == "a = 2\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [entry.name for entry in tmp_path.iterdir()] == ["config.toml"]
