"""The terminal closes under an open flow: the window is closed, or tmux kills the session.

The pty's master goes away, so the next draw fails with EIO and the keys end; a session
leader also gets SIGHUP, a shell's child may get nothing else. Every time, whichever comes
first: the cancelled result on stdout, exit status 129, nothing on stderr, and the draft
still there for ``pi-ask resume``.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask
from tests.e2e.conftest import PAYLOAD_A
from tests.e2e.terminal import Terminal, child_env, pi_ask_command
from tests.e2e.tmux import Tmux

pytestmark = pytest.mark.pty
HANG_UP_STATUS = 128 + 1  # SIGHUP


def _ask(tmp_path: Path) -> str:
    command = [*pi_ask_command(), "ask", str(PAYLOAD_A)]
    stderr = shlex.quote(str(tmp_path / "stderr.txt"))
    return " ".join(shlex.quote(part) for part in command) + f" 2> {stderr}"


def _shell(tmp_path: Path, how: str) -> str:
    """``pi-ask ask`` as the session leader (exec'd), or as a child of a waiting shell."""
    stdout = shlex.quote(str(tmp_path / "stdout.json"))
    status = shlex.quote(str(tmp_path / "status"))
    if how == "leader":
        return f"exec {_ask(tmp_path)} > {stdout}"
    # The shell outlives the hang-up (its trap runs once pi-ask is done) to report the status.
    return f"trap 'echo hup >> {status}.shell' HUP; {_ask(tmp_path)} > {stdout}; echo $? > {status}"


def _env(tmp_path: Path) -> dict[str, str]:
    return child_env(tmp_path / "config.toml", tmp_path / "state")


def _check_the_aftermath(tmp_path: Path) -> None:
    text = (tmp_path / "stdout.json").read_text(encoding="utf-8")
    assert text.count("\n") == 1, text
    details = json.loads(text)["details"]
    assert details["cancelled"] is True
    assert details["answers"]["lang"]["values"] == ["py"]
    assert (tmp_path / "stderr.txt").read_text(encoding="utf-8") == ""
    # Not dismissed: the draft is offered again, with its answer.
    listed = run_pi_ask("resume", "--list", env=_env(tmp_path), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "1/3 answered" in listed.stdout, listed.stdout


@pytest.mark.parametrize("how", ["leader", "child"])
def test_closing_the_terminal_cancels_with_129_and_keeps_the_draft(
    tmp_path: Path, how: str
) -> None:
    term = Terminal(
        ["/bin/sh", "-c", _shell(tmp_path, how)],
        stdout=tmp_path / "outer-stdout",
        env=_env(tmp_path),
        cwd=tmp_path,
    )
    try:
        term.wait_for("Which language")
        term.press("enter")
        term.wait_for("☒ Language")
        term.child.ptyproc.fileobj.close()  # the window closes: the master side goes away
        term.child.wait()
    finally:
        term.kill()
    if how == "leader":  # pi-ask is the process pexpect started
        assert (term.child.exitstatus, term.child.signalstatus) == (HANG_UP_STATUS, None)
    else:
        assert (tmp_path / "status").read_text().strip() == str(HANG_UP_STATUS)
    _check_the_aftermath(tmp_path)


@pytest.mark.parametrize("how", ["leader", "child"])
def test_tmux_kill_session_cancels_and_keeps_the_draft(tmp_path: Path, how: str) -> None:
    """As the pane's own process (its status dies with the pane), or a child of its shell."""
    env = _env(tmp_path)
    env = {key: env[key] for key in ("PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "PATH")}
    env.update(LANG="C.UTF-8", TERM="screen")
    pane = Tmux(_shell(tmp_path, how), width=80, height=24, env=env, cwd=tmp_path)
    try:
        pane.wait_for("Which language")
        pane.press("enter")
        pane.wait_for("☒ Language")
        subprocess.run(["tmux", "-L", pane.socket, "kill-session"], check=True, timeout=60)
        # The pane is gone with its screen: what is waited for now is a file.
        done = tmp_path / ("stdout.json" if how == "leader" else "status")
        pane.wait(lambda: done.exists() and done.read_text().endswith("\n"), timeout=60)
    finally:
        pane.close()
    if how == "child":
        assert (tmp_path / "status").read_text().strip() == str(HANG_UP_STATUS)
    _check_the_aftermath(tmp_path)
