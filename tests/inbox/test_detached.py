"""``pi-ask ask --detach`` and ``pi-ask result``: an ask that outlives its asker."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.e2e.terminal import pi_ask_command
from tests.inbox.conftest import PAYLOAD, pending


def _run(env: dict[str, str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*pi_ask_command(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # no controlling terminal: how an agent's tool runs it
        timeout=60,
        check=False,
    )


def test_detach_then_attach_then_result(env, terminal, tmp_path: Path, asks: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    started = _run(env, tmp_path, "ask", "--detach", str(payload))
    assert started.returncode == 0, started.stderr
    shown = json.loads(started.stdout)
    ask_id = shown["id"]
    assert shown == {"id": ask_id, "status": "pending"}
    # The asker is gone; the ask is listed all the same, and says it is detached.
    listed = _run(env, tmp_path, "attach", "--list", "--json")
    assert [entry["id"] for entry in json.loads(listed.stdout)] == [ask_id]
    assert json.loads(listed.stdout)[0]["detached"] is True
    waiting = _run(env, tmp_path, "result", ask_id)
    assert waiting.returncode == 75
    assert json.loads(waiting.stdout) == {"id": ask_id, "status": "pending"}
    (info,) = pending(asks, 1)
    term = terminal("attach", ask_id[:8])
    term.wait_for("Which database?")
    term.press("2")
    term.wait_for("Which ORM?")
    term.press("1")
    term.wait_for("Submit")
    term.press("1", "1")
    assert term.exit_status() == 0
    done = _run(env, tmp_path, "result", ask_id, "--wait", "30")
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)["details"]["answers"]
    assert answers["db"]["values"] == ["sqlite"] and answers["orm"]["values"] == ["sa"]
    # Fetched: the session log has it finished, so resume no longer offers it.
    resumable = _run(env, tmp_path, "resume", "--list")
    assert ask_id not in resumable.stdout
    assert info.folder.exists()  # kept a day for a second fetch
    assert _run(env, tmp_path, "result", ask_id).returncode == 0


def test_result_of_an_unknown_id_is_a_usage_error(env, tmp_path: Path) -> None:
    done = _run(env, tmp_path, "result", "0000-nope")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "no ask '0000-nope'" in done.stderr


def test_detach_with_wait_is_a_usage_error(env, tmp_path: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    done = _run(env, tmp_path, "ask", "--detach", "--wait", str(payload))
    assert done.returncode == 2
    assert "--detach" in done.stderr


def test_detach_of_an_invalid_payload_prints_the_invalid_result(env, tmp_path: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text('{"questions": []}', encoding="utf-8")
    done = _run(env, tmp_path, "ask", "--detach", str(payload))
    assert done.returncode == 2
    assert json.loads(done.stdout)["details"]["error"]["issues"]


def test_a_detached_ask_outlives_a_restart_of_the_inbox(
    env, terminal, tmp_path: Path, asks: Path
) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    ask_id = json.loads(_run(env, tmp_path, "ask", "--detach", str(payload)).stdout)["id"]
    first = terminal("inbox", name="inbox1")
    first.wait_for("Which database?")  # the inbox opened it
    first.press("2")  # a committed answer: kept as the ask's draft
    first.wait_for("Which ORM?")
    first.kill()  # the inbox dies mid-answer (SIGKILL): the ask must not go with it
    assert first.exit_status() != 0
    (info,) = pending(asks, 1)
    assert info.ask_id == ask_id and info.detached
    second = terminal("inbox", name="inbox2")
    second.wait_for("☒ Q1")  # reopened with the first inbox's committed answer
    second.press("2")
    second.wait_for("Which ORM?")
    second.press("1")
    second.wait_for("Submit")
    second.press("1", "1")
    done = _run(env, tmp_path, "result", ask_id, "--wait", "30")
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)["details"]["answers"]
    assert answers["db"]["values"] == ["sqlite"] and answers["orm"]["values"] == ["sa"]
