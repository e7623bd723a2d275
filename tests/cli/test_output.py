"""The result JSON is laid out for its reader: indented on a terminal, one line when redirected."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask

PAYLOAD = Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "basic.json"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }


def _stdout_on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run ``pi-ask ARGS`` with stdout on a pseudo-terminal (and no controlling terminal)."""
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "pi_ask", *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its side
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    status = child.wait(timeout=60)
    return status, b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def test_a_terminal_gets_indented_json(env: dict[str, str]) -> None:
    status, out = _stdout_on_a_terminal(["ask", "--ui", "none", str(PAYLOAD)], env)
    assert status == 1
    document = json.loads(out)
    assert out == json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def test_a_redirected_stdout_gets_one_line(env: dict[str, str]) -> None:
    done = run_pi_ask("ask", "--ui", "none", str(PAYLOAD), env=env)
    assert done.stdout.count("\n") == 1
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"


def test_rpc_mode_keeps_json_lines_even_on_a_terminal(env: dict[str, str]) -> None:
    status, out = _stdout_on_a_terminal(["ask", "--ui", "rpc", str(PAYLOAD)], env)
    lines = out.splitlines()
    assert all(json.loads(line) for line in lines)
    assert json.loads(lines[-1])["details"]["cancelled"] is True
    assert status == 1
