"""The runtime folder does not depend on what a host passes on, and one passed over is said once.

Codex hands its MCP servers a short list of variables without ``XDG_RUNTIME_DIR``; an inbox
started in the user's terminal has it. Both must pick the same folder, or the asker never
finds the inbox. ``/run/user`` stands in a temporary folder here (``paths.USER_RUN``), so the
tester's own runtime folder is never touched.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.relay import paths
from pi_ask.relay.inbox_socket import InboxListener
from pi_ask.relay.inboxes import poke_inboxes
from pi_ask.relay.paths import runtime_dir


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A temporary folder with a short path: pytest's own (``popen-gw1/test_…0/``) is too deep
    for the sockets a runtime folder must hold, and would be refused for that reason alone."""
    folder = Path(tempfile.mkdtemp(prefix="pa-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def user_run(short_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``/run/user`` of this test's own, and no ``PI_ASK_RUNTIME_DIR`` to name a folder."""
    folder = short_tmp / "run-user"
    folder.mkdir()
    monkeypatch.setattr(paths, "USER_RUN", folder)
    monkeypatch.delenv(paths.RUNTIME_ENV)
    return folder


def _xdg(tmp_path: Path) -> Path:
    """A private ``XDG_RUNTIME_DIR`` that is not ``/run/user/<uid>`` (containers, WSL, CI)."""
    folder = tmp_path / "xdg"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _with_and_without_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(_xdg(tmp_path)))
    with_xdg = runtime_dir()
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    return with_xdg, runtime_dir()


def test_without_run_user_both_use_the_state_folder(
    user_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_xdg, without = _with_and_without_xdg(user_run.parent, monkeypatch)
    assert with_xdg == without == Path(os.environ["PI_ASK_STATE_DIR"]) / "run"


def test_with_run_user_both_use_it(
    user_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = user_run / str(os.getuid())
    own.mkdir(mode=0o700)
    with_xdg, without = _with_and_without_xdg(user_run.parent, monkeypatch)
    assert with_xdg == without == own / "pi-ask"
    assert os.lstat(own / "pi-ask").st_mode & 0o777 == 0o700


def test_a_run_user_folder_that_is_a_symlink_is_not_followed(
    user_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (user_run / str(os.getuid())).symlink_to(elsewhere)
    with_xdg, without = _with_and_without_xdg(user_run.parent, monkeypatch)
    assert with_xdg == without == Path(os.environ["PI_ASK_STATE_DIR"]) / "run"
    assert list(elsewhere.iterdir()) == []


def test_xdg_runtime_dir_is_the_last_resort_for_a_state_folder_too_deep(
    user_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(deep))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(_xdg(user_run.parent)))
    assert runtime_dir() == _xdg(user_run.parent) / "pi-ask"


def test_an_inbox_started_with_xdg_runtime_dir_is_found_by_an_asker_without_it(
    user_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(_xdg(user_run.parent)))
    inbox = InboxListener(runtime_dir())  # what `pi-ask inbox` listens on
    try:
        monkeypatch.delenv("XDG_RUNTIME_DIR")  # the asker, started by Codex
        assert poke_inboxes(runtime_dir()) == 1
        assert inbox.woken.wait(30)  # a cap: the poke has been sent already
    finally:
        inbox.close()


def test_a_folder_passed_over_is_said_once_with_the_one_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)  # what a careless mkdir (or another user) leaves: open to others
    own = tmp_path / "own"
    monkeypatch.setattr(paths, "_candidates", lambda: [shared, own])
    monkeypatch.setattr(paths, "_said", set())
    assert paths.runtime_dir() == own
    assert paths.runtime_dir() == own  # an MCP server asks for every call
    said = capsys.readouterr().err.splitlines()
    assert said == [
        f"pi-ask: sockets of pending asks are kept in {own} ({shared}: open to others (mode 0755))"
    ]
    assert own.stat().st_mode & 0o777 == 0o700


def test_the_first_fit_folder_is_used_without_a_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    own = tmp_path / "own"
    monkeypatch.setattr(paths, "_candidates", lambda: [own, tmp_path / "other"])
    monkeypatch.setattr(paths, "_said", set())
    assert paths.runtime_dir() == own
    assert capsys.readouterr().err == ""
