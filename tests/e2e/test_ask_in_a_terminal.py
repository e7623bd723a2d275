"""``pi-ask ask`` in a real pseudo-terminal: the screen, the keys, the JSON on stdout."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from conftest import PAYLOAD_A, PAYLOADS

pytestmark = pytest.mark.pty


def result_of(tmp_path: Path) -> dict[str, object]:
    text = (tmp_path / "stdout.json").read_text(encoding="utf-8")
    assert text.count("\n") == 1, "exactly one JSON document on stdout"
    document: dict[str, object] = json.loads(text)
    return document


def test_submit_through_the_flow(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language should the new command-line tool be written in?")
    assert term.lines()[0] == "─" * 80
    assert "❯ 1. Python" in term.lines()
    term.press("down", "enter")
    term.wait_for("Which features should ship in v1?")
    term.press("space", "down", "down", "space", "enter")
    term.wait_for("Pick a config file layout.")
    term.press("enter")
    term.wait_for("Review answers")
    term.press("1")
    term.wait_for("Press 1 again to Submit.")
    term.press("1")
    assert term.exit_status() == 0
    assert term.lines()[:3] == [
        "✓ Language: Go",
        "✓ Features: Login, Cloud sync",
        "✓ Layout: Single file",
    ]
    details = result_of(tmp_path)["details"]
    assert isinstance(details, dict)
    assert details["cancelled"] is False
    assert details["answers"]["lang"]["values"] == ["go"]
    assert details["answers"]["features"]["values"] == ["login", "sync"]


def test_cancel_prints_a_cancelled_result(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOADS / "basic.json"))
    term.wait_for("How should I frame the next prompt?")
    term.press("esc")
    assert term.exit_status() == 1
    assert term.lines()[0] == "Cancelled"
    assert result_of(tmp_path)["details"]["cancelled"] is True  # type: ignore[index]


def test_sigterm_restores_the_terminal_and_prints_a_cancelled_result(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language")
    term.press("enter")
    term.wait_for("☒ Language")
    term.child.kill(signal.SIGTERM)
    status = term.exit_status()
    # The drawing is gone and the transcript says how it ended: the terminal was restored.
    assert "Which features" not in term.text()
    assert term.lines()[0] == "Cancelled"
    assert status == 128 + signal.SIGTERM
    details = result_of(tmp_path)["details"]
    assert details["cancelled"] is True  # type: ignore[index]
