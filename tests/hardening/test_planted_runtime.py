"""Another user's planted ``/tmp/runtime-<uid>`` must not break the no-terminal path (31 #1).

With ``XDG_RUNTIME_DIR`` unset, platformdirs' runtime folder for a uid is
``/tmp/runtime-<uid>``, which anyone can create first. The audit planted it 0755, 0777, as
a symlink and with the leaf inside; a background ``pi-ask ask`` then printed a traceback and
no result, ``attach`` a traceback, and the MCP terminal route an error with code 0. pi-ask no
longer asks platformdirs for a runtime folder (pi_ask/relay/paths.py): this holds it there,
as a real second user, through the API and through the real commands (run by an interpreter
that user may run). Needs root; skipped otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from pi_ask.api import ask_user
from pi_ask.relay.client import list_pending
from pi_ask.relay.elsewhere import sweep
from pi_ask.relay.paths import asks_dir, runtime_dir
from tests.mcp_server.raw_wire import INITIALIZED, RawSession, initialize, request
from tests.other_users import (
    NOBODY,
    as_user,
    other_user_env,
    other_user_python,
    pi_ask_as,
    plant,
    remove_planted,
    unused_uid,
    victim_home,
)

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


HOWS = ["0755", "0777", "0777 with the leaf", "symlink"]


def _planted(uid: int, how: str) -> Path:
    how, leaf = ("0777", "pi-ask") if how == "0777 with the leaf" else (how, None)
    return Path(str(as_user(NOBODY, plant(Path(f"/tmp/runtime-{uid}"), how, leaf))))


def _contents(planted: Path) -> list[str]:
    return sorted(os.listdir(planted))


def _python() -> str:
    python = other_user_python()
    if python is None:
        pytest.skip("no Python interpreter of this version that another user may run")
    return python


def _env(home: Path, **extra: str) -> dict[str, str]:
    """A background agent's environment: no terminal, no XDG_RUNTIME_DIR, no tmux."""
    return {
        "HOME": str(home),
        "PI_ASK_STATE_DIR": str(home / "state"),
        "PI_ASK_CONFIG": str(home / "config.toml"),
        **extra,
    }


def _payload(home: Path) -> Path:
    path = home / "ask.json"
    path.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    path.chmod(0o644)
    return path


def _one_clean_stderr(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) <= 2, done.stderr


class Scene(NamedTuple):
    """A victim, the interpreter it runs pi-ask with, and what another user planted."""

    uid: int
    home: Path
    python: str
    planted: Path
    before: list[str]

    def untouched(self) -> bool:
        """True when nothing was written into the planter's folder."""
        return _contents(self.planted) == self.before


@pytest.fixture(params=HOWS)
def scene(victim: tuple[int, Path], request: pytest.FixtureRequest) -> Scene:
    uid, home = victim
    python = _python()
    planted = _planted(uid, request.param)
    return Scene(uid, home, python, planted, _contents(planted))


@pytest.mark.parametrize("ui", ["none", "auto"])
def test_a_background_pi_ask_ask_prints_its_result(scene: Scene, ui: str) -> None:
    uid, home, python = scene.uid, scene.home, scene.python
    done = pi_ask_as(uid, python, "ask", str(_payload(home)), "--ui", ui, env=_env(home), cwd=home)
    assert done.returncode == 1, done.stderr  # no terminal to ask on (docs/contract.md)
    result = json.loads(done.stdout)
    assert result["details"]["reason"] == "no_terminal"
    _one_clean_stderr(done)
    assert scene.untouched()


def test_attach_as_the_victim_lists_and_says_why_it_cannot_draw(scene: Scene) -> None:
    uid, home, python = scene.uid, scene.home, scene.python
    env = _env(home)
    started = pi_ask_as(uid, python, "ask", "--detach", str(_payload(home)), env=env, cwd=home)
    assert started.returncode == 0, started.stderr
    ask_id = json.loads(started.stdout)["id"]
    listed = pi_ask_as(uid, python, "attach", "--list", "--json", env=env, cwd=home)
    assert listed.returncode == 0, listed.stderr
    assert [entry["id"] for entry in json.loads(listed.stdout)] == [ask_id]
    # In the background there is no terminal to answer on: one line, the ask kept.
    attached = pi_ask_as(uid, python, "attach", ask_id, env=env, cwd=home)
    assert attached.returncode == 1
    assert "attach needs a terminal" in attached.stderr
    _one_clean_stderr(attached)
    again = pi_ask_as(uid, python, "attach", "--list", "--json", env=env, cwd=home)
    assert [entry["id"] for entry in json.loads(again.stdout)] == [ask_id]
    assert scene.untouched()


def test_the_mcp_terminal_route_as_the_victim_gives_a_result(scene: Scene) -> None:
    session = RawSession(
        [scene.python, "-m", "pi_ask", "mcp", "--face", "terminal"],
        scene.home,
        env={**other_user_env(), **_env(scene.home)},
        user=scene.uid,
        group=scene.uid,
        extra_groups=[],
        start_new_session=True,
    )
    session.send(initialize(1))
    session.answer_to(1)
    session.send(INITIALIZED)
    session.send(request(2, "tools/call", {"name": "ask_user", "arguments": PAYLOAD}))
    reply = session.answer_to(2)
    assert "error" not in reply, reply
    assert reply["result"]["structuredContent"]["reason"] == "no_terminal"
    status, stderr = session.close()
    assert status == 0
    assert "Traceback" not in stderr
    assert scene.untouched()


def test_xdg_runtime_dir_naming_the_planted_folder_is_not_trusted(
    victim: tuple[int, Path],
) -> None:
    # A session that set XDG_RUNTIME_DIR to the platform's shared-temp fallback, planted with
    # our leaf: the sockets go to the state folder, and at most one line says so.
    uid, home = victim
    python = _python()
    planted = _planted(uid, "0777 with the leaf")
    before = _contents(planted / "pi-ask")
    env = _env(home, XDG_RUNTIME_DIR=str(planted))
    done = pi_ask_as(uid, python, "ask", str(_payload(home)), env=env, cwd=home)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"
    _one_clean_stderr(done)
    said = [line for line in done.stderr.splitlines() if "sockets of pending asks" in line]
    assert len(said) <= 1
    for line in said:
        assert str(home / "state" / "run") in line and str(planted / "pi-ask") in line
    assert _contents(planted / "pi-ask") == before
