"""Every test runs with its own settings file and state folder, never the user's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_user_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("PI_ASK_CONFIG", str(home / "config" / "pi-ask" / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(home / "state" / "pi-ask"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    # Pending asks and inboxes of this test only; no tmux popup on the tester's own tmux.
    monkeypatch.setenv("PI_ASK_RUNTIME_DIR", str(home / "run"))
    monkeypatch.delenv("TMUX", raising=False)


@pytest.fixture
def runtime() -> Path:
    """This test's runtime folder for pending asks (the fixture above gives each test its own)."""
    return Path(os.environ["PI_ASK_RUNTIME_DIR"])
