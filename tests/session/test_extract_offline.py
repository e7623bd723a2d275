from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_ask.contract import LoadedPayload, load_payload
from pi_ask.session.extract_offline import extract_offline

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
