from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.contract import LoadedPayload, load_payload
from pi_ask.session.offline_extractor import extract_offline

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
