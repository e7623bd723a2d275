"""Another user's planted ``/tmp/runtime-<uid>`` must not break the no-terminal path (31 #1).

With ``XDG_RUNTIME_DIR`` unset, platformdirs' runtime folder for a uid is
``/tmp/runtime-<uid>``, which anyone can create first. The audit planted it 0755, 0777, as
a symlink and with the leaf inside; a background ``pi-ask ask`` then printed a traceback and
no result. pi-ask no longer asks platformdirs for a runtime folder (pi_ask/relay/paths.py):
this holds it there, as a real second user. Needs root; skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_ask.api import ask_user
from pi_ask.relay.client import list_pending
from pi_ask.relay.elsewhere import sweep
from pi_ask.relay.paths import asks_dir, runtime_dir
from tests.other_users import NOBODY, as_user, plant, remove_planted, unused_uid, victim_home

pytestmark = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="planting a folder as another user needs root (fork + setuid)",
)

PAYLOAD = {
    "questions": [
        {"id": "db", "prompt": "Which database?", "options": [{"value": "pg", "label": "PG"}]}
    ]
}


def _isolate(home: Path) -> None:
    """The environment of a background agent's asker: no terminal, no XDG_RUNTIME_DIR."""
    for name in ("XDG_RUNTIME_DIR", "PI_ASK_RUNTIME_DIR", "TMUX", "TMUX_PANE"):
        os.environ.pop(name, None)
    os.environ.update(
        HOME=str(home),
        PI_ASK_STATE_DIR=str(home / "state"),
        PI_ASK_CONFIG=str(home / "config.toml"),
    )


def _ask_in_background(home: Path) -> Callable[[], object]:
    def work() -> object:
        _isolate(home)
        os.setsid()  # no controlling terminal: nobody can be asked here
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        result = ask_user(PAYLOAD)
        assert not isinstance(result, str)
        detached = ask_user(PAYLOAD, detach=True)
        listed = [summary.ask_id for summary in list_pending()]
        return {
            "reason": result.details.reason,
            "detached": detached,
            "listed": listed,
            "runtime": str(runtime_dir()),
        }

    return work


@pytest.fixture
def victim() -> Iterator[tuple[int, Path]]:
    uid = unused_uid("/tmp/runtime-{uid}")
    home = victim_home(uid)
    # Load everything the ask needs here, once: the victim cannot read this interpreter.
    warm = Path(tempfile.mkdtemp())
    saved = dict(os.environ)
    try:
        _isolate(warm)
        ask_user(PAYLOAD, ui="none")
        ask_user(PAYLOAD, detach=True)
        list_pending()
        sweep(asks_dir())
    finally:
        os.environ.clear()
        os.environ.update(saved)
        shutil.rmtree(warm)
    try:
        yield uid, home
    finally:
        shutil.rmtree(home, ignore_errors=True)
        remove_planted(Path(f"/tmp/runtime-{uid}"))


@pytest.mark.parametrize("how", ["0755", "0777", "0777 with the leaf", "symlink"])
def test_a_planted_runtime_folder_changes_nothing(victim: tuple[int, Path], how: str) -> None:
    uid, home = victim
    how, leaf = ("0777", "pi-ask") if how == "0777 with the leaf" else (how, None)
    planted = Path(str(as_user(NOBODY, plant(Path(f"/tmp/runtime-{uid}"), how, leaf))))
    before = sorted(os.listdir(planted))
    seen = as_user(uid, _ask_in_background(home))
    assert isinstance(seen, dict)
    assert seen["reason"] == "no_terminal"
    assert seen["listed"] == [seen["detached"]]  # what attach and the inbox list
    assert seen["runtime"] == str(home / "state" / "run")
    info = os.lstat(home / "state" / "run")
    assert info.st_uid == uid and info.st_mode & 0o777 == 0o700
    assert sorted(os.listdir(planted)) == before  # nothing written into the planter's folder
