"""The default places (platformdirs), with no PI_ASK_* variable: HOME and XDG in a temp folder.

Every other test names its files through PI_ASK_CONFIG and PI_ASK_STATE_DIR, so these are
the runs that exercise what a user without any variable gets.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask

PAYLOAD = {
    "title": "Paths",
    "questions": [{"id": "a", "prompt": "Pick?", "options": [{"value": "x"}]}],
}


def _env(home: Path, **xdg: str) -> dict[str, str]:
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("PI_ASK_", "XDG_"))
    }
    env["HOME"] = str(home)
    env.update(xdg)
    return env


def _pi_ask(env: dict[str, str], *args: str, stdin: str = "", cwd: Path) -> str:
    done = run_pi_ask(*args, env=env, cwd=cwd, stdin=stdin, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.mark.parametrize("xdg", [False, True])
def test_config_and_state_go_to_the_platform_folders(tmp_path: Path, xdg: bool) -> None:
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    if xdg:
        env = _env(
            home,
            XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
            XDG_STATE_HOME=str(tmp_path / "xdg-state"),
        )
        config = tmp_path / "xdg-config" / "pi-ask" / "config.toml"
        state = tmp_path / "xdg-state" / "pi-ask"
    else:
        env = _env(home)
        config = home / ".config" / "pi-ask" / "config.toml"
        state = home / ".local" / "state" / "pi-ask"

    printed = _pi_ask(env, "config", "path", cwd=work).strip()
    assert Path(printed.replace("~", str(home), 1)) == config

    # A config written through the command lands there, and the next run reads it there.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"schemaVersion": 5, "behaviour": {"showFooterHints": False}}))
    _pi_ask(env, "config", "import", str(old), cwd=work)
    assert "show_footer_hints = false" in config.read_text(encoding="utf-8")
    shown = _pi_ask(env, "config", "show", cwd=work)
    assert "show_footer_hints = false" in shown

    # An ask is recorded in the state folder's session log, and offered for resume from it.
    result = json.loads(
        _pi_ask(env, "ask", "--ui", "none", "-", stdin=json.dumps(PAYLOAD), cwd=work)
    )
    assert result["details"]["cancelled"] is True
    logs = list((state / "sessions").glob("*.jsonl"))
    assert len(logs) == 1 and "Paths" in logs[0].read_text(encoding="utf-8")
    assert "0/1 answered  Paths" in _pi_ask(env, "resume", "--list", cwd=work)
    # Nothing went anywhere else in the home folder.
    expected = {config.parent, state} if not xdg else set()
    made = {path for path in home.rglob("*") if path.is_dir() and path.name == "pi-ask"}
    assert made == expected
