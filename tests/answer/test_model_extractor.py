from __future__ import annotations

import json
import time

import pytest

from pi_ask.answer.extraction import GAVE_UP, TIMED_OUT, ExtractionError
from pi_ask.answer.model_extractor import ModelRun, extract_with_model
from pi_ask.answer.providers import Endpoint
from tests.answer.chat_server import Reply, chat_server

GOOD = {
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "type": "single",
            "options": [
                {"value": "pg", "label": "PostgreSQL"},
                {"value": "lite", "label": "SQLite"},
            ],
        }
    ]
}
DUPLICATE_IDS = {"questions": [GOOD["questions"][0], GOOD["questions"][0]]}
TOO_MANY = {
    "questions": [
        {
            "id": "pick",
            "prompt": "Which one?",
            "options": [{"value": v, "label": v.upper()} for v in ("a", "b", "c", "d", "other")],
        }
    ]
}


def _run(url: str, *, timeout_ms: int = 5000, retries: int = 1) -> ModelRun:
    return ModelRun(Endpoint("test", "test-model", url, "sk-test"), timeout_ms, retries)


def _extract(url: str, notes: list[str], **kwargs: int) -> dict[str, object]:
    return extract_with_model(
        "Which database, PostgreSQL or SQLite?",
        "Set it up.",
        _run(url, **kwargs),
        notify=notes.append,
    )


def test_a_good_tool_call_is_the_form() -> None:
    notes: list[str] = []
    with chat_server(Reply(arguments=(json.dumps(GOOD),))) as server:
        assert _extract(server.url, notes) == GOOD
    (request,) = server.requests
    assert request["model"] == "test-model"
    assert request["tool_choice"] == {"type": "function", "function": {"name": "ask_user"}}
    tools = request["tools"]
    assert isinstance(tools, list)
    assert tools[0]["function"]["name"] == "ask_user"
    system, user = request["messages"]  # type: ignore[misc]
    assert system["role"] == "system"
    assert user["content"] == (
        "<previous_user_message>\nSet it up.\n</previous_user_message>\n\n"
        "<assistant_message>\nWhich database, PostgreSQL or SQLite?\n</assistant_message>\n\n"
        "Call ask_user exactly once with the questions from the assistant message."
    )
    assert notes == ["Extracting questions using test/test-model..."]


def test_fenced_json_in_prose_reply_is_accepted() -> None:
    with chat_server(Reply(text=f"```json\n{json.dumps(GOOD)}\n```")) as server:
        assert _extract(server.url, []) == GOOD


def test_an_invalid_reply_is_retried_with_the_problem_fed_back() -> None:
    notes: list[str] = []
    first = json.dumps(DUPLICATE_IDS)
    with chat_server(Reply(arguments=(first,)), Reply(arguments=(json.dumps(GOOD),))) as server:
        assert _extract(server.url, notes) == GOOD
    retry = server.user_messages()[1]
    assert retry.startswith(
        "The previous extraction was invalid. Fix this issue:\n"
        'questions[1].id: Question 2: duplicate question id "db"\n\n'
        f"Previous extraction output:\n{first}\n\n<previous_user_message>"
    )
    assert notes[-1] == "Retrying question extraction (1/1)..."


def test_two_tool_calls_are_refused_and_retried() -> None:
    twice = Reply(arguments=(json.dumps(GOOD), json.dumps(GOOD)))
    with chat_server(twice, Reply(arguments=(json.dumps(GOOD),))) as server:
        assert _extract(server.url, []) == GOOD
    assert "Expected exactly one ask_user tool call; received 2." in server.user_messages()[1]


def test_no_questions_is_an_empty_form_not_an_error() -> None:
    with chat_server(Reply(arguments=('{"questions": []}',))) as server:
        assert _extract(server.url, []) == {"questions": []}


def test_prose_every_time_gives_up_after_the_retries() -> None:
    replies = (Reply(text="I could not find questions."), Reply(text="Sorry."))
    with chat_server(*replies) as server, pytest.raises(ExtractionError) as failure:
        _extract(server.url, [])
    assert str(failure.value) == GAVE_UP
    assert len(server.requests) == 2


def test_a_reply_still_invalid_after_retries_is_repaired_when_it_can_be() -> None:
    reply = Reply(arguments=(json.dumps(TOO_MANY),))
    with chat_server(reply, reply) as server:
        form = _extract(server.url, [])
    options = form["questions"][0]["options"]  # type: ignore[index]
    assert [o["value"] for o in options] == ["a", "b", "c", "other"]


def test_a_slow_model_times_out() -> None:
    with chat_server(Reply(arguments=(json.dumps(GOOD),), delay_s=2.0)) as server:
        started = time.monotonic()
        with pytest.raises(ExtractionError) as failure:
            _extract(server.url, [], timeout_ms=200, retries=0)
        assert time.monotonic() - started < 1.5
    assert str(failure.value) == TIMED_OUT


def test_a_server_error_is_reported_as_is() -> None:
    errors = (Reply(status=500), Reply(status=500))
    with chat_server(*errors) as server, pytest.raises(ExtractionError) as failure:
        _extract(server.url, [])
    assert "500" in str(failure.value)
