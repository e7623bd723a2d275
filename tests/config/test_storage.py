"""Concurrent and interrupted writes, with real processes."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from pi_ask.config.storage import _check_private, lock_path, locked, locks_folder, write_atomic
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


def start(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A child running ``code``, once it says it is ready; use it in a ``with`` (closes pipes)."""
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
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
from pi_ask.config.storage import _check_private, lock_path, locked, locks_folder, write_atomic

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
    assert time.monotonic() - began < 5  # a cap far below the 10 s lock timeout
    # And the temporary files the killed writers left are cleared under the lock; the lock
    # itself is not beside the file.
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["config.toml"]


def test_write_atomic_keeps_the_permissions(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("a = 1\n")
    path.chmod(0o600)
    write_atomic(path, b"a = 2\n")
    assert path.read_text() == "a = 2\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [entry.name for entry in tmp_path.iterdir()] == ["config.toml"]


def test_writers_through_a_symlink_and_the_real_path_share_one_lock(tmp_path: Path) -> None:
    """Two processes, one saving through a dotfiles symlink and one through the file it points
    to, each with its own state folder: 200 + 200 saves, none failed, none lost."""
    real = tmp_path / "dotfiles" / "pi-ask.toml"
    real.parent.mkdir()
    real.write_text("# mine\n[behaviour]\nshow_footer_hints = true\n")
    link = tmp_path / "config" / "config.toml"
    link.parent.mkdir()
    link.symlink_to(real)

    def env(state: str) -> dict[str, str]:
        return {**os.environ, "PI_ASK_STATE_DIR": str(tmp_path / state)}

    with (
        start(TOGGLER, str(link), "behaviour.show_footer_hints", "bool", env=env("a")) as first,
        start(TOGGLER, str(real), "answer.extraction_timeout_ms", "int", env=env("b")) as second,
    ):
        for process in (first, second):
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        # Each child asserts that every one of its 200 saves succeeded.
        assert first.wait(timeout=300) == 0
        assert second.wait(timeout=300) == 0
    assert link.is_symlink()
    document = tomllib.loads(real.read_text())
    assert document["behaviour"]["show_footer_hints"] is True  # i = 199 is odd
    assert document["answer"]["extraction_timeout_ms"] == 1199
    assert real.read_text().startswith("# mine\n")
    # Neither folder holds a lock or a temporary file.
    assert [entry.name for entry in real.parent.iterdir()] == ["pi-ask.toml"]
    assert [entry.name for entry in link.parent.iterdir()] == ["config.toml"]


def test_the_lock_is_keyed_by_the_real_path_outside_the_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real.toml"
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "one"))
    through_link = lock_path(link)
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "two"))
    assert lock_path(real) == through_link
    assert lock_path(tmp_path / "other.toml") != through_link
    assert through_link.parent == locks_folder()
    assert tmp_path not in through_link.parents
    info = locks_folder().stat()
    assert info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) == 0o700


@pytest.mark.parametrize("how", ["open to others", "a symlink"])
def test_a_locks_folder_that_is_not_private_is_refused(tmp_path: Path, how: str) -> None:
    folder = tmp_path / "locks"
    if how == "a symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(tmp_path / "elsewhere")
    else:
        folder.mkdir()
        folder.chmod(0o777)
    with pytest.raises(PermissionError, match="not private to this user"):
        _check_private(folder)


def test_cleanup_removes_a_dead_writers_temporary_but_not_a_live_ones(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("a = 1\n")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    with subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    ) as live:
        stale = tmp_path / f".config.toml.{dead.pid}.abc123.tmp"
        busy = tmp_path / f".config.toml.{live.pid}.def456.tmp"
        stale.write_text("left by a writer killed mid-save")
        busy.write_text("being written right now")
        with locked(config):
            write_atomic(config, b"a = 2\n")
        assert not stale.exists()
        assert busy.read_text() == "being written right now"
        assert live.stdin is not None
        live.stdin.close()
    assert config.read_text() == "a = 2\n"
