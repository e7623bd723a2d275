"""FIFOs, devices and huge files where pi-ask expects a file (issue 31, finding 5).

A config file that is a FIFO once hung ``pi-ask ask --ui none`` for good, deaf to signals; a
config symlinked to ``/dev/zero`` ended in ``MemoryError``. Every path a user or another
program names is now refused with a message naming what it is, without being read. Each run
has a generous cap (``run_pi_ask``'s timeout): a hang fails the test, it never waits forever.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask

CAP_S = 60
PAYLOAD = {"questions": [{"id": "a", "prompt": "Pick?", "options": [{"value": "x"}]}]}
FIFO_TEXT = "a named pipe (FIFO), not a regular file"
DEVICE_TEXT = "a character device, not a regular file"


def special(tmp_path: Path, kind: str) -> Path:
    """A FIFO nobody writes into, a link to /dev/zero, or a sparse 4 GiB file."""
    path = tmp_path / f"special-{kind}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        with path.open("wb") as out:
            out.truncate(4 << 30)
    return path


REFUSALS = {"fifo": FIFO_TEXT, "zero": DEVICE_TEXT, "huge": "larger than"}


def env_with(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(PI_ASK_STATE_DIR=str(tmp_path / "state"), **extra)
    return env


@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_a_special_config_file_never_hangs_ask_ui_none(tmp_path: Path, kind: str) -> None:
    env = env_with(tmp_path, PI_ASK_CONFIG=str(special(tmp_path, kind)))
    payload = json.dumps(PAYLOAD)
    done = run_pi_ask(
        "ask", "--ui", "none", "-", env=env, cwd=tmp_path, stdin=payload, timeout=CAP_S
    )
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    validated = run_pi_ask("config", "validate", env=env, cwd=tmp_path, timeout=CAP_S)
    assert f"cannot be read ({REFUSALS[kind]}" in validated.stdout, validated


@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_a_special_payload_file_is_one_usage_line(tmp_path: Path, kind: str) -> None:
    path = special(tmp_path, kind)
    done = run_pi_ask("ask", "--ui", "none", str(path), env=env_with(tmp_path), timeout=CAP_S)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"pi-ask: ask: payload file {str(path)!r} cannot be read: ")
    assert REFUSALS[kind] in line


def test_an_endless_payload_on_standard_input_is_one_usage_line(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [sys.executable, "-m", "pi_ask", "ask", "--ui", "none", "-"],
            stdin=zero,
            capture_output=True,
            text=True,
            env=env_with(tmp_path),
            timeout=CAP_S,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "pi-ask: ask: the payload on standard input is larger than 16 MiB"
    ]


@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_answer_text_refuses_a_special_file(tmp_path: Path, kind: str) -> None:
    path = special(tmp_path, kind)
    done = run_pi_ask("answer", "--text", str(path), "--ui", "none", env=env_with(tmp_path))
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"pi-ask: {path}: cannot be read (") and REFUSALS[kind] in line


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_resume_session_refuses_a_special_file(tmp_path: Path, kind: str) -> None:
    path = special(tmp_path, kind)
    done = run_pi_ask("resume", "--list", "--session", str(path), env=env_with(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"pi-ask: --session {path}: {REFUSALS[kind]}"]


def test_a_fifo_as_our_own_session_log_turns_recording_off_without_a_hang(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    log = state / "mine.jsonl"
    state.mkdir()
    os.mkfifo(log)
    done = run_pi_ask(
        "ask", "--ui", "none", "--session", str(log), "-",
        env=env_with(tmp_path), cwd=tmp_path, stdin=json.dumps(PAYLOAD), timeout=CAP_S,
    )  # fmt: skip
    assert done.returncode == 1
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"
    (line,) = done.stderr.splitlines()
    assert line.startswith("pi-ask: the session log cannot be written") and FIFO_TEXT in line


# --- the module itself -----------------------------------------------------------------------


def test_read_regular_reads_a_file_within_its_limit(tmp_path: Path) -> None:
    from pi_ask.regular_files import FileTooLarge, read_regular

    path = tmp_path / "a"
    path.write_bytes(b"x" * 100)
    assert read_regular(path, 100) == b"x" * 100
    with pytest.raises(FileTooLarge, match=r"larger than 0 KiB \(100 bytes\)"):
        read_regular(path, 99)


def test_nothing_special_is_opened_even_to_write(tmp_path: Path) -> None:
    from pi_ask.config.loading import MAX_CONFIG_BYTES, read_file
    from pi_ask.regular_files import NotRegularFile, open_regular
    from pi_ask.session.log import SessionLog, SessionWriteError

    fifo = special(tmp_path, "fifo")
    for flags in (os.O_RDONLY, os.O_WRONLY | os.O_APPEND | os.O_CREAT):
        with pytest.raises(NotRegularFile, match="FIFO"):
            open_regular(fifo, flags)
    with pytest.raises(SessionWriteError, match="FIFO"):
        SessionLog(fifo).append_custom("x", {})
    assert read_file(special(tmp_path, "zero")).detail == DEVICE_TEXT
    huge = read_file(special(tmp_path, "huge"))
    assert huge.status == "unreadable"
    assert huge.detail == f"larger than {MAX_CONFIG_BYTES // 1024 // 1024} MiB ({4 << 30} bytes)"


def test_the_docs_state_the_limits() -> None:
    from pi_ask.cli.main import MAX_PAYLOAD_READ
    from pi_ask.config.loading import MAX_CONFIG_BYTES
    from pi_ask.regular_files import size_text
    from pi_ask.session.log import MAX_WHOLE_READ

    doc = Path(__file__).resolve().parents[2] / "docs" / "answering-elsewhere.md"
    text = " ".join(doc.read_text(encoding="utf-8").split())
    assert f"settings {size_text(MAX_CONFIG_BYTES)}" in text
    assert f"a payload file or standard input {size_text(MAX_PAYLOAD_READ)}" in text
    assert f"session files and `--text` {size_text(MAX_WHOLE_READ)}" in text


def test_dev_null_is_the_empty_file_it_always_was(tmp_path: Path) -> None:
    from pi_ask.config.loading import read_file
    from pi_ask.regular_files import read_regular

    assert read_regular("/dev/null", 10) == b""
    assert read_file(Path("/dev/null")).status == "parsed"
    env = env_with(tmp_path, PI_ASK_CONFIG="/dev/null")
    done = run_pi_ask("config", "validate", env=env, timeout=CAP_S)
    assert done.returncode == 0 and "cannot be read" not in done.stdout, done
