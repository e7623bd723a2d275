"""``ask_user_async`` in a real terminal: the caller's event loop runs on while the form is open."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.terminal import Terminal, child_env

pytestmark = pytest.mark.pty

SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from pi_ask import ask_user_async

payload, beats = json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2])

async def main() -> None:
    count = 0

    async def heartbeat() -> None:
        nonlocal count
        while True:
            count += 1
            beats.write_text(str(count))
            await asyncio.sleep(0.02)

    beating = asyncio.create_task(heartbeat())
    result = await ask_user_async(payload, ui="tui")
    beating.cancel()
    print(json.dumps(result.to_json()))

asyncio.run(main())
"""

PAYLOAD = {
    "questions": [
        {
            "id": "db",
            "prompt": "Which database should the service use?",
            "options": [{"value": "postgres", "label": "PostgreSQL"}, {"value": "sqlite"}],
        }
    ]
}


def _count(beats: Path) -> int:
    # The heartbeat rewrites the file; a read between truncate and write sees it empty.
    text = beats.read_text("utf-8") if beats.exists() else ""
    return int(text) if text else 0


def test_the_loop_keeps_running_while_the_user_answers(tmp_path: Path) -> None:
    script, payload, beats = tmp_path / "agent.py", tmp_path / "q.json", tmp_path / "beats"
    script.write_text(SCRIPT, encoding="utf-8")
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    stdout = tmp_path / "stdout.json"
    term = Terminal(
        [sys.executable, str(script), str(payload), str(beats)],
        stdout=stdout,
        env=child_env(tmp_path / "config.toml", tmp_path / "state"),
        cwd=tmp_path,
    )
    try:
        term.wait_for("Which database should the service use?", timeout=60)
        seen = _count(beats)
        # The form is open and waiting for a key; the agent's own task still ticks.
        term.wait(lambda: _count(beats) >= seen + 3, timeout=60)
        assert "Which database should the service use?" in term.text()
        term.press("down", "enter")
        term.wait_for("Review answers", timeout=60)
        term.press("1")
        term.wait_for("Press 1 again to Submit.", timeout=60)
        term.press("1")
        assert term.exit_status(timeout=60) == 0
    finally:
        term.kill()
    details = json.loads(stdout.read_text("utf-8"))["details"]
    assert details["answers"] == {
        "db": {"values": ["sqlite"], "labels": ["Sqlite"], "indices": [2]}
    }
