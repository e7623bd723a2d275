"""Another user planting ``/tmp/pi-ask-<uid>`` must not block config saves (issue 31, finding 6).

Two real users, as the audit had them: the planter is ``nobody`` (65534), the victim a fresh
uid of its own (so no other test or user of this machine shares its ``/tmp/pi-ask-<uid>``).
Each is a child forked from this process that drops to its uid with ``setuid``, so the victim
runs the real save code (loaded here first: it cannot read this interpreter's files as
another user). Needs root; skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.config.store import SettingsStore
from tests.other_users import NOBODY, as_user, plant, remove_planted, unused_uid, victim_home

PLANTER = NOBODY
KEY = "behaviour.show_footer_hints"

pytestmark = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="planting a folder as another user needs root (fork + setuid)",
)


@pytest.fixture
def victim() -> Iterator[tuple[int, Path]]:
    """A uid nobody uses, with a home folder of its own."""
    uid = unused_uid("/tmp/pi-ask-{uid}")
    home = victim_home(uid)
    # Load the save path here: the victim cannot read this interpreter's modules.
    warm = Path(tempfile.mkdtemp())
    try:
        assert SettingsStore(warm / "config.toml", create=False).set(KEY, False).ok
    finally:
        shutil.rmtree(warm)
    try:
        yield uid, home
    finally:
        shutil.rmtree(home, ignore_errors=True)
        remove_planted(Path(f"/tmp/pi-ask-{uid}"))


@pytest.mark.parametrize("how", ["0755", "0777 with locks", "symlink"])
def test_a_planted_temp_folder_does_not_block_saves(victim: tuple[int, Path], how: str) -> None:
    uid, home = victim
    how, leaf = ("0777", "locks") if how == "0777 with locks" else (how, None)
    planted = Path(str(as_user(PLANTER, plant(Path(f"/tmp/pi-ask-{uid}"), how, leaf))))
    before = sorted(os.listdir(planted)) if planted.is_dir() else None
    config = home / "config.toml"

    def save() -> object:
        os.environ["PI_ASK_STATE_DIR"] = str(home / "state")
        saved = SettingsStore(config, create=False).set(KEY, False)
        return {"ok": saved.ok, "error": saved.error, "info": saved.info}

    saved = as_user(uid, save)
    assert isinstance(saved, dict)
    assert saved["ok"] is True, saved["error"]
    assert "show_footer_hints = false" in config.read_text(encoding="utf-8")
    fallback = home / "state" / "locks"
    reason = "a symlink" if how == "symlink" else "owned by another user"
    assert saved["info"] == f"Config locks are kept in {fallback}: {planted} is {reason}."
    info = os.lstat(fallback)
    assert info.st_uid == uid and info.st_mode & 0o777 == 0o700
    assert len(os.listdir(fallback)) == 1  # the lock file is ours, in our folder
    # Nothing was written into the planter's folder.
    assert (sorted(os.listdir(planted)) if planted.is_dir() else None) == before
    if planted.is_symlink():
        assert os.listdir(planted) == []
