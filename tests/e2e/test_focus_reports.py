"""Focus reports in a real pseudo-terminal: DECSET 1004 on, reports that cancel nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import PAYLOAD_A

pytestmark = pytest.mark.pty

FOCUS_IN, FOCUS_OUT = "\x1b[I", "\x1b[O"


def test_focus_reports_reach_no_key_binding_and_the_ask_submits(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language should the new command-line tool be written in?")
    # The terminal is asked for focus reports once the first frame is drawn.
    term.wait(lambda: "\x1b[?1004h" in "".join(term.output))
    term.child.send(FOCUS_OUT + FOCUS_IN + FOCUS_OUT)
    term.press("down")
    term.child.send(FOCUS_IN)
    term.press("enter")
    term.wait_for("Which features should ship in v1?")
    term.child.send(FOCUS_OUT)
    term.child.send(FOCUS_IN)
    term.press("space", "enter")
    term.wait_for("Pick a config file layout.")
    term.press("enter")
    term.wait_for("Review answers")
    term.child.send(FOCUS_OUT + FOCUS_IN)
    term.press("1")
    term.wait_for("Press 1 again to Submit.")
    term.press("1")
    assert term.exit_status() == 0
    output = "".join(term.output)
    assert output.rindex("\x1b[?1004l") > output.index("\x1b[?1004h")  # off again at the end
    details = json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))["details"]
    assert details["cancelled"] is False
    assert details["answers"]["lang"]["values"] == ["go"]
    assert details["answers"]["features"]["values"] == ["login"]
