"""The README's example, answered in a real terminal, gives exactly the README's result."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.test_ask_in_a_terminal import result_of

pytestmark = pytest.mark.pty
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_answers_as_the_readme_shows(spawn, tmp_path: Path) -> None:
    payload_text, result_text = re.findall(
        r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL
    )[:2]
    payload = tmp_path / "questions.json"
    payload.write_text(payload_text, encoding="utf-8")
    term = spawn("ask", str(payload), width=100, height=30)
    term.wait_for("How should I frame the next prompt?")
    term.press("down", "enter")  # Rich
    term.wait_for("Which frontend frameworks have you used?")
    term.press("space", "down", "space", "enter")  # React, Vue
    term.wait_for("Review answers")
    term.press("1")
    term.wait_for("Press 1 again to Submit.")
    term.press("1")
    assert term.exit_status() == 0
    assert result_of(tmp_path) == json.loads(result_text)
