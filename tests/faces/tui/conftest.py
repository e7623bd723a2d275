from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask.config.store import SettingsStore


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SettingsStore:
    """A settings store on a fresh config file (defaults), untouched by PI_ASK_* variables."""
    import os

    for name in list(os.environ):
        if name.startswith("PI_ASK_"):
            monkeypatch.delenv(name)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return SettingsStore(tmp_path / "config.toml")
