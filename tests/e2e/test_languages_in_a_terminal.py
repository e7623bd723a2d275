"""``LANG=de_DE.UTF-8 pi-ask demo`` is German on screen, the demo's own questions too, and the
result's own words stay English for the agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_ask.demo import DEMO_PAYLOAD

pytestmark = pytest.mark.pty


def _answer_the_demo(spawn, tmp_path: Path, env: dict[str, str], words: dict[str, str]) -> object:
    term = spawn("demo", **env)
    term.wait_for(words["review_tab"])
    assert words["footer"] in term.text()
    assert words["first"] in term.text()
    term.press("enter")  # Python
    term.wait_for(words["second"])
    term.press("space", "enter")  # Tests
    term.wait_for(words["third"])
    term.press("enter")  # src layout
    term.wait_for(words["review"])
    term.press("1")
    term.wait_for(words["again"])
    term.press("1")
    assert term.exit_status() == 0
    return json.loads((tmp_path / "stdout.json").read_text(encoding="utf-8"))


def _demo_words(language: str) -> list[tuple[str, str]]:
    """(translated, English) for every word of the demo's payload, longest first."""
    from pi_ask import i18n
    from pi_ask.demo import demo_payload

    i18n.use_language(language)
    try:
        translated = json.loads(json.dumps(demo_payload(i18n.gettext)))
    finally:
        i18n.use_language("auto")
    pairs: list[tuple[str, str]] = []

    def walk(mine: object, source: object) -> None:
        if isinstance(mine, dict) and isinstance(source, dict):
            for key in mine:
                walk(mine[key], source[key])
        elif isinstance(mine, list) and isinstance(source, list):
            for item, original in zip(mine, source, strict=True):
                walk(item, original)
        elif isinstance(mine, str) and isinstance(source, str) and mine != source:
            pairs.append((mine, source))

    walk(translated, DEMO_PAYLOAD)
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def test_the_demo_in_german_hands_the_agent_the_english_result(spawn, tmp_path: Path) -> None:
    german = _answer_the_demo(
        spawn,
        tmp_path,
        {"LANG": "de_DE.UTF-8"},
        {
            "review_tab": "≡ Übersicht",
            "footer": "Enter bestätigen",
            "first": "In welcher Sprache soll der neue Dienst geschrieben werden?",
            "second": "Welche Prüfungen sollen bei jedem Pull-Request laufen?",
            "third": "Welches Paketlayout bevorzugen Sie?",
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
            "first": "Which language should the new service be written in?",
            "second": "Which checks should run on every pull request?",
            "third": "Which package layout do you prefer?",
            "review": "Review answers",
            "again": "Press 1 again to Submit.",
        },
    )
    assert isinstance(german, dict) and isinstance(english, dict)
    assert english["content"][0]["text"].startswith("Language: Python")
    assert german["content"][0]["text"].startswith("Sprache: Python")
    # The same answers by value, and the same English sentences around the demo's own words:
    # the German demo words swapped for the English ones give the English result exactly.
    words = _demo_words("de")
    assert len(words) > 10
    swapped = json.dumps(german, ensure_ascii=False)
    for de, en in words:
        swapped = swapped.replace(de, en)
    assert json.loads(swapped) == english
    assert english["details"]["answers"]["language"]["values"] == ["python"]  # type: ignore[index]


def test_ui_language_names_the_language_whatever_lang_says(spawn, tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[ui]\nlanguage = "ja"\n', encoding="utf-8")
    term = spawn("demo", LANG="de_DE.UTF-8")
    term.wait_for("≡ 確認")
    assert "自由回答" in term.text()
    term.press("esc")
    assert term.exit_status() == 1
    assert term.lines()[0] == "キャンセルしました"
