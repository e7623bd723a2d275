"""A runtime folder passed over is said once, with the folder used instead and why (31 #1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask.relay import paths


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
