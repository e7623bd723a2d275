"""``pi-ask ask --ui plain`` in a real pseudo-terminal, read as text only.

What a screen reader gets is the text the face writes, so these tests read the raw bytes the
child wrote to its terminal (``term.output``), not a rendered screen, and check that not one
escape sequence is among them.
"""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pytest

from tests.e2e.conftest import PAYLOAD_A

pytestmark = pytest.mark.pty

ESCAPES = re.compile(r"[\x1b\x9b]")


def result_of(tmp_path: Path) -> dict[str, object]:
    text = (tmp_path / "stdout.json").read_text(encoding="utf-8")
    assert text.count("\n") == 1, "exactly one JSON document on stdout"
    document: dict[str, object] = json.loads(text)
    return document


def written(term) -> str:  # type: ignore[no-untyped-def]
    return "".join(term.output)


def type_line(term, line: str, then: str) -> None:  # type: ignore[no-untyped-def]
    """Type ``line`` and Enter, then wait until ``then`` has been written after it."""
    start = len(written(term))
    term.child.send(line + "\r")
    term.wait(lambda: then in written(term)[start:])


def test_every_kind_of_answer_through_the_terminal(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    assert "  1. Python (recommended)" in written(term)
    type_line(term, "/note 3 maybe later", "Note saved on option 3.")
    type_line(term, "Zig", "Question 2 of 3: Features (choose any number)")
    type_line(term, "1,4", "Type your answer")
    type_line(term, "Plugins", "Question 3 of 3: Layout")
    type_line(term, "2", "Review your answers")
    assert "  Language: Zig (your own answer)" in written(term)
    assert "  Features: Login, Plugins (your own answer)" in written(term)
    type_line(term, "1", "✓ Layout: Split by environment")
    assert term.exit_status() == 0
    assert not ESCAPES.search(written(term)), "the plain face wrote an escape sequence"
    details = result_of(tmp_path)["details"]
    assert isinstance(details, dict)
    assert details["answers"]["lang"]["customText"] == "Zig"
    assert details["answers"]["features"]["values"] == ["login", "Plugins"]
    assert details["answers"]["layout"]["values"] == ["split"]


def test_a_dumb_terminal_gets_the_plain_face(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A), TERM="dumb")
    term.wait(lambda: "answer> " in written(term))
    assert "Question 1 of 3: Language" in written(term)
    type_line(term, "/review", "review> ")
    type_line(term, "3", "Cancelled")
    assert term.exit_status() == 1
    assert not ESCAPES.search(written(term))
    assert result_of(tmp_path)["details"]["cancelled"] is True  # type: ignore[index]


def test_ctrl_c_dismisses_through_the_guard(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    type_line(term, "2", "Question 2 of 3")
    term.child.send("\x03")
    term.wait(lambda: "Press Ctrl+C or /cancel again to discard." in written(term))
    term.child.send("\x03")
    assert term.exit_status() == 1
    details = result_of(tmp_path)["details"]
    assert details["cancelled"] is True  # type: ignore[index]
    assert details["reason"] == "cancelled"  # type: ignore[index]
    assert details["answers"]["lang"]["values"] == ["go"]  # type: ignore[index]


def test_end_of_input_aborts(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    type_line(term, "2", "Question 2 of 3")
    term.child.sendeof()
    assert term.exit_status() == 1
    details = result_of(tmp_path)["details"]
    assert details["cancelled"] is True  # type: ignore[index]
    assert details["reason"] == "aborted"  # type: ignore[index]
    assert details["answers"]["lang"]["values"] == ["go"]  # type: ignore[index]
    # Aborted is not answered: the ask stays resumable, with its draft.
    again = spawn("resume", "--ui", "plain")
    again.wait(lambda: "  2. Go (chosen)" in written(again))
    again.child.sendeof()
    assert again.exit_status() == 1


def test_a_killed_ask_resumes_with_its_drafts(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    type_line(term, "2", "Question 2 of 3")
    type_line(term, "1,3", "Question 3 of 3")
    term.child.kill(signal.SIGHUP)
    assert term.exit_status() == 128 + signal.SIGHUP
    again = spawn("resume", "--ui", "plain")
    again.wait(lambda: "answer> " in written(again))
    assert "  2. Go (chosen)" in written(again)
    type_line(again, "/review", "review> ")
    assert "  Features: Login, Cloud sync" in written(again)
    type_line(again, "1", "✓ Language: Go")
    assert again.exit_status() == 0
    details = result_of(tmp_path)["details"]
    assert details["answers"]["features"]["values"] == ["login", "sync"]  # type: ignore[index]


def test_sigterm_ends_the_flow_with_128_plus_the_signal(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    term.child.kill(signal.SIGTERM)
    assert term.exit_status() == 128 + signal.SIGTERM
    assert result_of(tmp_path)["details"]["cancelled"] is True  # type: ignore[index]


def test_the_face_setting_makes_auto_plain(spawn, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[ui]\nface = "plain"\n', encoding="utf-8")
    term = spawn("ask", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    type_line(term, "/cancel", "Cancelled")
    assert term.exit_status() == 1
    assert not ESCAPES.search(written(term))


def test_bad_input_then_notes_and_elaborate(spawn, tmp_path: Path) -> None:
    term = spawn("ask", "--ui", "plain", str(PAYLOAD_A))
    term.wait(lambda: "answer> " in written(term))
    type_line(term, "7", "There is no option 7: type a number from 1 to 4.")
    type_line(term, "/frobnicate", "There is no command /frobnicate")
    type_line(term, "1,2", "This question takes one answer")
    type_line(term, "", "Question 2 of 3")  # empty: nothing chosen, on to the next
    type_line(term, "0", "There is no option 0")
    type_line(term, "/qnote which backend?", "Question note saved.")
    type_line(term, "/review", "Review your answers")
    assert "  Language: unanswered" in written(term)
    assert "    Question note: which backend?" in written(term)
    type_line(term, "9", "Type 1 to submit, 2 to ask for elaboration, 3 to cancel")
    type_line(term, "2", "User asked to elaborate")
    assert term.exit_status() == 0
    assert not ESCAPES.search(written(term))
    details = result_of(tmp_path)["details"]
    assert details["mode"] == "elaborate"  # type: ignore[index]
    items = details["elaboration"]["items"]  # type: ignore[index]
    assert [item["note"] for item in items] == ["which backend?"]
