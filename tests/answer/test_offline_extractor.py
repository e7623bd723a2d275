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


def test_an_alternative_asked_on_its_own_is_an_option_of_the_question_before() -> None:
    assert _asked("Ship it today? Or wait until Monday?") == [
        (
            "Ship or wait",
            "Ship it today? Or wait until Monday?",
            ["Ship it today", "Wait until Monday"],
        )
    ]
    [(_, _, options)] = _asked("Should I merge now? Or should I wait for the review instead?")
    assert options == ["Merge now", "Wait for the review"]
    # Alternatives add to the choices the question already offers.
    [(_, _, options)] = _asked("Should I use pytest or unittest? Or maybe nose?")
    assert [o.lower() for o in options] == ["pytest", "unittest", "nose"]


def test_an_open_alternative_is_the_users_own_answer_not_an_option() -> None:
    [(_, prompt, options)] = _asked("Should I squash the commits? Or something else?")
    assert (prompt, options) == ("Should I squash the commits? Or something else?", ["Yes", "No"])


def test_an_either_or_is_labelled_as_a_person_names_it() -> None:
    [(label, _, options)] = _asked("Should I ship it today, or wait until Monday?")
    assert (label, options) == ("Ship or wait", ["Ship it today", "Wait until Monday"])
    [(label, _, _)] = _asked("Do you want the API in REST, GraphQL, or gRPC?")
    assert label == "REST, GraphQL or gRPC"
    # A question that names its subject keeps that name.
    assert _asked("Which database? PostgreSQL or SQLite?")[0][0] == "Database"


def test_each_alternative_sheds_its_own_lead_and_a_word_of_address() -> None:
    text = "Shall I proceed with the tests, or would ye like me to pause here, captain?"
    assert _asked(text)[0][2] == ["Proceed with the tests", "Pause here"]
    text = "Want me to start on the milestone, or would you prefer to scope it first?"
    assert _asked(text)[0][0:3:2] == (
        "Start or scope",
        ["Start on the milestone", "Scope it first"],
    )


def test_a_question_ending_in_a_colon_offers_the_list_under_it() -> None:
    text = "Would you like me to:\n1. Run the command directly 2. Create a script file"
    assert _asked(text) == [
        (
            "Run or create",
            "Would you like me to:",
            ["Run the command directly", "Create a script file"],
        )
    ]
    # A question after the list asks instead, and takes the list.
    text = "Should I:\n1. Patch the parser\n2. Rewrite the lexer\n\nWhat are your orders?"
    assert [prompt for _, prompt, _ in _asked(text)] == ["What are your orders?"]
    # A statement over a list asks nothing.
    assert _asked("Here is what I changed:\n- The parser\n- The lexer") == []


def test_a_transcript_mark_is_not_part_of_the_message() -> None:
    [(_, prompt, _)] = _asked("✦ I have cloned the repository. What would you like to do with it?")
    assert prompt == "I have cloned the repository. What would you like to do with it?"
