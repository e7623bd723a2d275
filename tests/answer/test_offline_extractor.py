from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.answer.offline_extractor import extract_offline
from pi_ask.contract.loading import LoadedPayload, load_payload

FIXTURES = Path(__file__).parent.parent / "fixtures" / "answer"
MESSAGES = sorted(FIXTURES.glob("*.md"))


def test_there_are_ten_fixtures() -> None:
    assert len(MESSAGES) == 10


@pytest.mark.parametrize("message", MESSAGES, ids=[m.stem for m in MESSAGES])
def test_each_fixture_yields_the_questions_it_states(message: Path) -> None:
    expected = json.loads(message.with_suffix(".json").read_text())
    assert extract_offline(message.read_text()) == expected


@pytest.mark.parametrize("message", MESSAGES, ids=[m.stem for m in MESSAGES])
def test_every_extracted_form_is_a_valid_answer_form(message: Path) -> None:
    params = extract_offline(message.read_text())
    if params["questions"]:
        assert isinstance(load_payload(params, allow_freeform=True), LoadedPayload)


_pieces = st.sampled_from(
    [
        "Should I use ",
        " or ",
        ", ",
        "?",
        ".",
        "\n",
        "\n\n",
        "- ",
        "1. ",
        "A) ",
        "**",
        " — ",
        ": ",
        "(",
        ")",
        "`",
        "```\n",
        "> ",
        "   ",
        "Which one",
        "these",
        "Does that sound good",
        "Redis",
        "other",
        "Something else",
        "数据库",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_pieces | st.text(max_size=8), max_size=40).map("".join))
def test_any_text_gives_a_valid_form_or_none(text: str) -> None:
    params = extract_offline(text)
    questions = params["questions"]
    assert isinstance(questions, list)
    if questions:
        loaded = load_payload(params, allow_freeform=True)
        assert isinstance(loaded, LoadedPayload), loaded
        assert all(len(q["options"]) <= 4 for q in questions)


def _asked(text: str) -> list[tuple[str, str, list[str]]]:
    """(label, prompt, option labels) of each extracted question."""
    return [
        (q["label"], q["prompt"], [o["label"] for o in q["options"] if not o.get("freeform")])
        for q in extract_offline(text)["questions"]
    ]


def test_four_numbered_questions_keep_their_order_options_and_own_labels() -> None:
    text = (
        "Before I scaffold it:\n\n"
        "1. What language should the CLI be written in?\n"
        "2. Which database? PostgreSQL, SQLite, or MySQL?\n"
        "3. Do you want me to add CI? (yes/no)\n"
        "4. What should the project be called?\n"
    )
    assert _asked(text) == [
        ("Language", "What language should the CLI be written in?", []),
        ("Database", "Which database?", ["PostgreSQL", "SQLite", "MySQL"]),
        ("Add CI", "Do you want me to add CI?", ["Yes", "No"]),
        ("Project", "What should the project be called?", []),
    ]


def test_a_yes_no_hint_makes_a_yes_no_question() -> None:
    assert _asked("Do you want me to add CI? (yes/no)") == [
        ("Add CI", "Do you want me to add CI?", ["Yes", "No"])
    ]
    assert _asked("Proceed with the force push? (y/n)")[0][2] == ["Yes", "No"]


def test_parenthesised_choices_are_options_not_fragments() -> None:
    [(_, prompt, options)] = _asked("Which port should the dev server listen on (8080 or 3000)?")
    assert (prompt, options) == ("Which port should the dev server listen on?", ["8080", "3000"])


def test_a_phrase_after_the_last_choice_belongs_to_the_question() -> None:
    [(_, _, options)] = _asked("Should I use pytest or unittest for the tests?")
    assert [o.lower() for o in options] == ["pytest", "unittest"]
    # ... but after a colon the choices are written out whole.
    text = "Which database for local development: SQLite or Postgres in Docker?"
    [(_, _, options)] = _asked(text)
    assert options == ["SQLite", "Postgres in Docker"]


def test_options_listed_before_the_question() -> None:
    text = (
        "I see two ways to fix the upload test:\n\n"
        "A) Mock the S3 client\nB) Run MinIO in CI\n\nWhich do you prefer?"
    )
    assert _asked(text) == [
        ("Fix upload test", "Which do you prefer?", ["Mock the S3 client", "Run MinIO in CI"])
    ]


def test_inline_dashed_options() -> None:
    [(_, prompt, options)] = _asked("Which feature should I build first? - Login - Export - Sync")
    assert (prompt, options) == ("Which feature should I build first?", ["Login", "Export", "Sync"])


def test_a_question_its_next_sentence_answers_is_not_asked() -> None:
    text = "Why is the build slow? Mostly because of Docker. Should I add a cache mount?"
    assert [prompt for _, prompt, _ in _asked(text)] == ["Should I add a cache mount?"]


def test_the_examples_in_docs_answer_md_are_what_the_extractor_does() -> None:
    page = (Path(__file__).parents[2] / "docs" / "answer.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(?P<message>[^`]+)` \| (?P<asks>[^|]+) \|$", page, re.MULTILINE)
    assert len(rows) >= 8
    for message, asks in rows:
        questions = extract_offline(message)["questions"]
        if asks.startswith("(nothing"):
            assert questions == [], message
            continue
        [question] = questions
        labels = [o["label"] for o in question["options"] if not o.get("freeform")]
        expected = [] if asks.startswith("(the user") else asks.strip().split(" · ")
        assert [label.lower() for label in labels] == [e.lower() for e in expected], message
