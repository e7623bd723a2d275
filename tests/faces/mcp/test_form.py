"""The elicitation form mapping (pure), and the result schema the server advertises."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.result_schema import RESULT_DETAILS_SCHEMA
from pi_ask.faces.mcp.form import build_form, form_result, read_form
from pi_ask.state.commands import ReplaceAnswers, SubmittedAnswer
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result, non_interactive_result
from tests.mcp_server.helpers import PAYLOAD


def loaded(payload: dict[str, Any] = PAYLOAD, **options: bool) -> LoadedPayload:
    result = load_payload(copy.deepcopy(payload), **options)
    assert isinstance(result, LoadedPayload)
    return result


def test_the_form_is_the_same_for_the_same_arguments() -> None:
    assert build_form(loaded().payload) == build_form(loaded().payload)


def test_titles_are_one_line_and_the_message_has_a_default() -> None:
    payload = {
        "questions": [
            {
                "id": "a",
                "prompt": "First line\nsecond  line",
                "options": [{"value": "x", "description": "a\n b"}],
            }
        ]
    }
    form = build_form(loaded(payload).payload)
    assert form.message == "Your agent has questions for you"
    field = form.schema["properties"]["q1"]  # type: ignore[index]
    assert field["title"] == "Q1: First line second line"
    assert field["oneOf"] == [{"const": "x", "title": "X — a b"}]


def test_single_as_multi_preference_gives_a_multi_select() -> None:
    form = build_form(loaded(present_single_as_multi=True).payload)
    assert form.schema["properties"]["q1"]["type"] == "array"  # type: ignore[index]


def test_a_reply_that_is_not_an_object_gives_no_answers() -> None:
    answers, problems = read_form(loaded().payload, ["q1", "postgres"])
    assert answers == ()
    assert problems == ("the form reply is not an object; no answer was taken from it",)


def test_a_multi_choice_keeps_its_order_once() -> None:
    answers, problems = read_form(loaded().payload, {"q2": ["auth", "metrics", "auth"]})
    assert answers == (("extras", SubmittedAnswer(values=("auth", "metrics"))),)
    assert problems == ()


def test_an_untouched_select_sent_as_empty_text_is_no_answer() -> None:
    answers, problems = read_form(loaded().payload, {"q1": "", "q3": "flat"})
    assert answers == (("layout", SubmittedAnswer(values=("flat",))),)
    assert problems == ()


def test_accept_without_content_submits_nothing() -> None:
    result, _ = form_result(loaded().payload, "accept", None)
    assert result.details.cancelled is False
    assert result.details.answers == {}


def elaborated() -> dict[str, object]:
    """Details of an elaborate result: notes on a question and an option."""
    payload = loaded().payload
    submitted = (
        ("db", SubmittedAnswer(values=("postgres",), note="why not sqlite?")),
        ("extras", SubmittedAnswer(option_notes=(("auth", "which kind?"),), values=("auth",))),
    )
    state = apply(new_state(payload), ReplaceAnswers(submitted, mode="elaborate"), Behaviour())
    return build_result(state).details.to_json()


def details_of(kind: str) -> dict[str, object]:
    payload = loaded().payload
    if kind == "elaborate":
        return elaborated()
    if kind == "none":
        return non_interactive_result(payload).details.to_json()
    action, content = ("accept", {"q1_text": "x"}) if kind == "submit" else ("decline", None)
    return form_result(payload, action, content)[0].details.to_json()


@pytest.mark.parametrize("kind", ["elaborate", "none", "submit", "cancel"])
def test_every_kind_of_details_fits_the_result_schema(kind: str) -> None:
    jsonschema.Draft202012Validator.check_schema(RESULT_DETAILS_SCHEMA)
    details = details_of(kind)
    jsonschema.validate(details, RESULT_DETAILS_SCHEMA, cls=jsonschema.Draft202012Validator)


def test_the_result_schema_can_fail() -> None:
    broken = elaborated()
    broken["elaboration"]["items"][0]["note"] = 3  # type: ignore[index]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, RESULT_DETAILS_SCHEMA, cls=jsonschema.Draft202012Validator)


def test_markdown_is_sent_as_clean_text() -> None:
    payload = copy.deepcopy(PAYLOAD)
    question = payload["questions"][0]
    question["prompt"] = "Keep **which** `loader`?"
    form = build_form(loaded(payload).payload)
    titles = [field["title"] for field in form.schema["properties"].values()]
    assert any(title.endswith(": Keep which loader?") for title in titles), titles
