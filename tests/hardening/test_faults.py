"""Faults around a real ``pi-ask ask`` in a pseudo-terminal: signals, an unwritable state
folder, a config file deleted or replaced while the flow is open.

Every child runs with ``PI_ASK_CONFIG`` and ``PI_ASK_STATE_DIR`` inside ``tmp_path`` (the e2e
``child_env``). Terminal modes are read with ``stty -a`` by the same shell, on the same pty,
right after pi-ask ended: that is what the user's shell would find.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from tests.e2e.terminal import Terminal, child_env, pi_ask_command
from tests.hardening.result_shape import check_result

pytestmark = pytest.mark.pty

FIXTURE = Path(__file__).resolve().parents[1] / "faces" / "tui" / "fixtures" / "payload_a.json"
FIRST_PROMPT = "Which language should the new command-line tool be written in?"
LAYOUT_PROMPT = "Pick a config file layout."
FOOTER_HINT = "Enter confirm"


def payload_a() -> LoadedPayload:
    loaded = load_payload(FIXTURE.read_text(encoding="utf-8"))
    assert isinstance(loaded, LoadedPayload)
    return loaded


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return child_env(tmp_path / "config.toml", tmp_path / "state", **extra)


def _terminal(tmp_path: Path, *args: str, stdout: str = "stdout.json") -> Terminal:
    """``pi-ask ARGS`` on a pseudo-terminal, in the same config and state as ``_run``."""
    return Terminal(
        [*pi_ask_command(), *args], stdout=tmp_path / stdout, env=_env(tmp_path), cwd=tmp_path
    )


def _run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """``pi-ask ARGS`` without a terminal, in the same config and state as the pty runs."""
    return subprocess.run(
        [*pi_ask_command(), *args],
        capture_output=True,
        text=True,
        env=_env(tmp_path, **extra),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=30,
        check=False,
    )


class WrappedAsk:
    """``pi-ask ask`` run by a shell on a pty; the shell then records the exit status and
    ``stty -a`` of that same pty, and ``pid`` is pi-ask's own process id."""

    def __init__(self, tmp_path: Path, *args: str, **extra: str) -> None:
        self.files = {name: tmp_path / name for name in ("pid", "out.json", "status", "stty")}
        quoted = {name: shlex.quote(str(path)) for name, path in self.files.items()}
        command = " ".join(shlex.quote(part) for part in [*pi_ask_command(), "ask", *args])
        inner = f"echo $$ > {quoted['pid']}; exec {command}"
        script = (
            f"sh -c {shlex.quote(inner)} > {quoted['out.json']}; "
            f"echo $? > {quoted['status']}; stty -a > {quoted['stty']}"
        )
        self.term = Terminal(
            ["/bin/sh", "-c", script],
            stdout=tmp_path / "shell.out",
            env=_env(tmp_path, **extra),
            cwd=tmp_path,
        )

    @property
    def pid(self) -> int:
        return int(self.files["pid"].read_text(encoding="utf-8"))

    def finish(self) -> tuple[int, list[str], dict[str, object] | None]:
        """pi-ask's exit status, the pty's ``stty -a`` words, and the result on stdout."""
        self.term.exit_status(timeout=60)
        status = int(self.files["status"].read_text(encoding="utf-8"))
        modes = self.files["stty"].read_text(encoding="utf-8").split()
        text = self.files["out.json"].read_text(encoding="utf-8")
        return status, modes, json.loads(text) if text.strip() else None


def _cooked(modes: list[str]) -> bool:
    return "icanon" in modes and "echo" in modes and "-icanon" not in modes


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_restores_the_terminal_and_leaves_the_ask_resumable(
    tmp_path: Path, signum: signal.Signals
) -> None:
    ask = WrappedAsk(tmp_path, str(FIXTURE))
    try:
        ask.term.wait_for(FIRST_PROMPT)
        ask.term.press("enter")
        ask.term.wait_for("☒ Language")
        os.kill(ask.pid, signum)
        status, modes, result = ask.finish()
    finally:
        ask.term.kill()
    assert status == 128 + signum
    assert _cooked(modes), modes
    # The cursor is shown again and bracketed paste is off after the last frame.
    drawn = "".join(ask.term.output)
    assert drawn.rfind("\x1b[?25h") > drawn.rfind("\x1b[?25l")
    assert drawn.rfind("\x1b[?2004l") > drawn.rfind("\x1b[?2004h")
    assert result is not None
    details = check_result(result, payload_a().payload)
    assert details["cancelled"] is True
    assert details["answers"] == {"lang": {"values": ["py"], "labels": ["Python"], "indices": [1]}}
    listed = _run(tmp_path, "resume", "--list")
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    assert line.endswith("1/3 answered  Project setup"), line


def test_a_hangup_that_closes_the_terminal_keeps_the_draft(tmp_path: Path) -> None:
    ask = WrappedAsk(tmp_path, str(FIXTURE))
    ask.term.wait_for(FIRST_PROMPT)
    ask.term.press("enter")
    ask.term.wait_for("☒ Language")
    pid = ask.pid
    ask.term.child.close(force=False)  # the pty is gone: the kernel hangs the session up
    deadline = time.monotonic() + 60
    while _alive(pid):
        assert time.monotonic() < deadline, "pi-ask outlived its terminal"
        time.sleep(0.05)
    listed = _run(tmp_path, "resume", "--list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.rstrip().endswith("1/3 answered  Project setup")


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie that nobody reaped counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def test_sigkill_after_two_answers_then_resume_restores_both(tmp_path: Path) -> None:
    first = _terminal(tmp_path, "ask", str(FIXTURE), stdout="killed.json")
    try:
        first.wait_for(FIRST_PROMPT)
        first.press("down", "enter")  # Go
        first.wait_for("Which features should ship in v1?")
        first.press("space", "down", "down", "space", "enter")  # Login, Cloud sync
        first.wait_for(LAYOUT_PROMPT)
        first.child.kill(signal.SIGKILL)
        assert first.exit_status() == 128 + signal.SIGKILL
    finally:
        first.kill()
    assert (tmp_path / "killed.json").read_text(encoding="utf-8") == ""
    resumed = _terminal(tmp_path, "resume", stdout="resumed.json")
    try:
        resumed.wait(lambda: "☒ Language" in resumed.text() and "☒ Features" in resumed.text())
        resumed.press("shift+tab")  # straight to the review tab, then submit
        resumed.wait_for("Review answers")
        resumed.press("1")
        resumed.wait_for("Press 1 again to Submit.")
        resumed.press("1")
        assert resumed.exit_status() == 0
    finally:
        resumed.kill()
    result = json.loads((tmp_path / "resumed.json").read_text(encoding="utf-8"))
    details = check_result(result, payload_a().payload)
    assert details["cancelled"] is False
    assert details["answers"] == {
        "lang": {"values": ["go"], "labels": ["Go"], "indices": [2]},
        "features": {
            "values": ["login", "sync"],
            "labels": ["Login", "Cloud sync"],
            "indices": [1, 3],
        },
    }
    # Submitted: nothing is left to resume.
    assert _run(tmp_path, "resume", "--list").returncode == 1


def test_an_unwritable_state_folder_turns_drafts_off_and_the_flow_works(tmp_path: Path) -> None:
    # We run as root, so chmod cannot make a folder unwritable; a path under a regular file
    # can never be created, whoever we are.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    term = Terminal(
        [*pi_ask_command(), "ask", str(FIXTURE)],
        stdout=tmp_path / "stdout.json",
        env=child_env(tmp_path / "config.toml", blocker / "state"),
        cwd=tmp_path,
        width=100,
        height=30,
    )
    try:
        term.wait_for(FIRST_PROMPT)
        term.wait_for("Drafts are off")
        term.press("enter", "space", "enter", "enter")
        term.wait_for("Review answers")
        term.press("1", "1")
        assert term.exit_status() == 0
    finally:
        term.kill()
    result = json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))
    details = check_result(result, payload_a().payload)
    assert details["cancelled"] is False
    assert set(details["answers"]) == {"lang", "features", "layout"}  # type: ignore[arg-type]
    assert blocker.read_text(encoding="utf-8") == ""


def test_drafts_off_without_a_terminal_still_gives_the_result(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    done = _run(tmp_path, "ask", "--ui", "none", str(FIXTURE), PI_ASK_STATE_DIR=str(blocker / "s"))
    assert done.returncode == 1, done.stderr
    check_result(json.loads(done.stdout), payload_a().payload)


def _replace(path: Path, text: str) -> None:
    """Save ``text`` the way editors do: a new file renamed over the old one."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(text, encoding="utf-8")
    fresh.replace(path)


def test_config_deleted_then_replaced_mid_flow(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    # Each version of the file shows on the screen (footer hints on or off), so every step
    # waits for what the user would see, never for the watcher's polling interval.
    hidden = "[notifications]\nenabled = false\n[behaviour]\nshow_footer_hints = false\n"
    config.write_text(hidden, encoding="utf-8")
    term = _terminal(tmp_path, "ask", str(FIXTURE))
    try:
        term.wait_for(FIRST_PROMPT)
        assert FOOTER_HINT not in term.text()
        config.unlink()  # no file: the defaults, footer hints on
        term.wait_for(FOOTER_HINT)
        term.press("down")  # the flow goes on without its file
        term.wait(lambda: "❯ 2. Go" in term.text())
        _replace(config, "[behaviour]\nshow_footer_hints = false\n")
        term.wait(lambda: FOOTER_HINT not in term.text())
        _replace(config, "this is [not toml\n")  # broken: the last good settings stay
        term.wait_for("not valid TOML")
        assert FOOTER_HINT not in term.text()
        _replace(config, "[behaviour]\nshow_footer_hints = true\n")
        term.wait_for(FOOTER_HINT)
        term.press("enter", "space", "enter", "enter")
        term.wait_for("Review answers")
        term.press("1", "1")
        assert term.exit_status() == 0
    finally:
        term.kill()
    result = json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))
    details = check_result(result, payload_a().payload)
    assert details["answers"]["lang"]["values"] == ["go"]  # type: ignore[index]


def test_a_deep_config_saved_mid_flow_is_a_notice_and_the_watcher_goes_on(
    tmp_path: Path,
) -> None:
    """``x = [[[[…]]]]`` 500 levels deep once drew a RecursionError over the flow and
    stopped the watcher for good."""
    config = tmp_path / "config.toml"
    config.write_text("[notifications]\nenabled = false\n", encoding="utf-8")
    term = _terminal(tmp_path, "ask", str(FIXTURE))
    try:
        term.wait_for(FOOTER_HINT)
        _replace(config, "x = " + "[" * 500 + "]" * 500 + "\n")
        term.wait_for("nested more than 100 levels deep")
        assert "Traceback" not in term.text() and "RecursionError" not in term.text()
        _replace(config, "[behaviour]\nshow_footer_hints = false\n")  # the watcher still runs
        term.wait(lambda: FOOTER_HINT not in term.text())
        term.press("esc")
        assert term.exit_status() == 1
    finally:
        term.kill()
    result = json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))
    assert result["details"]["cancelled"] is True


def test_a_read_only_state_folder_under_ui_none_says_so_in_one_line(tmp_path: Path) -> None:
    from tests.hardening.mounts import tmpfs

    with tmpfs(tmp_path / "state", read_only=True) as state:
        done = _run(tmp_path, "ask", "--ui", "none", str(FIXTURE), PI_ASK_STATE_DIR=str(state))
    assert done.returncode == 1, done.stderr
    check_result(json.loads(done.stdout), payload_a().payload)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        "pi-ask: the session log cannot be written, so this ask is not recorded "
        "(pi-ask resume cannot reopen it): "
    )
    assert "Read-only file system" in lines[0]


def test_a_fifo_swapped_in_for_the_config_under_an_open_flow_never_freezes_it(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[notifications]\nenabled = false\n", encoding="utf-8")
    term = _terminal(tmp_path, "ask", str(FIXTURE))
    try:
        term.wait_for(FOOTER_HINT)
        fifo = tmp_path / "swap.fifo"
        os.mkfifo(fifo)
        fifo.replace(config)  # nobody will ever write into it
        term.wait_for("a named pipe (FIFO), not a regular file")
        term.press("down")  # the flow still answers keys
        term.wait(lambda: "❯ 2. Go" in term.text())
        term.press("ctrl+c")  # and Ctrl+C (nothing answered yet: it cancels at once)
        assert term.exit_status() == 1
    finally:
        term.kill()
    result = json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))
    assert result["details"]["cancelled"] is True
