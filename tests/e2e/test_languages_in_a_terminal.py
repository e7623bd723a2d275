"""``LANG=de_DE.UTF-8 pi-ask demo`` is German on screen, and its result is English for the agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.pty


def _answer_the_demo(spawn, tmp_path: Path, env: dict[str, str], words: dict[str, str]) -> object:
    term = spawn("demo", **env)
    term.wait_for(words["review_tab"])
    assert words["footer"] in term.text()
    term.press("enter")  # Python
    term.wait_for("Which checks should run on every pull request?")
    term.press("space", "enter")  # Tests
    term.wait_for("Which package layout do you prefer?")
    term.press("enter")  # src layout
    term.wait_for(words["review"])
    term.press("1")
    term.wait_for(words["again"])
    term.press("1")
    assert term.exit_status() == 0
    return json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))


def test_the_demo_in_german_hands_the_agent_the_english_result(spawn, tmp_path: Path) -> None:
    german = _answer_the_demo(
        spawn,
        tmp_path,
        {"LANG": "de_DE.UTF-8"},
        {
            "review_tab": "≡ Übersicht",
            "footer": "Enter bestätigen",
            "review": "Antworten prüfen",
            "again": "Drücken Sie 1 noch einmal: Absenden.",
        },
    )
    english = _answer_the_demo(
        spawn,
        tmp_path,
        {"LANG": "C.UTF-8"},
        {
            "review_tab": "≡ Review",
            "footer": "Enter confirm",
            "review": "Review answers",
            "again": "Press 1 again to Submit.",
        },
    )
    assert german == english
    assert isinstance(german, dict)
    assert german["content"][0]["text"].startswith("Language: Python")


def test_ui_language_names_the_language_whatever_lang_says(spawn, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[ui]\nlanguage = "ja"\n', encoding="utf-8")
    term = spawn("demo", LANG="de_DE.UTF-8")
    term.wait_for("≡ 確認")
    assert "自由回答" in term.text()
    term.press("esc")
    assert term.exit_status() == 1
    assert term.lines()[0] == "キャンセルしました"
