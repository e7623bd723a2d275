from __future__ import annotations

import json

from pi_ask.answer.extraction import (
    GAVE_UP,
    TIMED_OUT,
    Parsed,
    cap_options,
    failure_text,
    parse_reply,
    repair,
    snake_id,
    strip_fence,
)


def _q(qid: str, prompt: str, *labels: str) -> dict[str, object]:
    return {
        "id": qid,
        "prompt": prompt,
        "options": [{"value": f"v{n}", "label": label} for n, label in enumerate(labels)],
    }


def test_snake_ids() -> None:
    assert snake_id("Fly.io") == "fly_io"
    assert snake_id("  Keep the existing REST endpoints ") == "keep_the_existing_rest_endpoints"
    assert snake_id("pre-commit") == "pre_commit"
    assert snake_id("数据库 选择") == "数据库_选择"
    assert len(snake_id("word " * 40)) <= 48
    assert snake_id("!!!") == ""


def test_fences_are_stripped_once() -> None:
    assert strip_fence('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_fence('```\n{"a": 1}```') == '{"a": 1}'
    assert strip_fence('  {"a": 1}  ') == '{"a": 1}'


def test_parse_errors_say_what_is_wrong() -> None:
    assert parse_reply("") == "model returned no text content"
    assert parse_reply("```\n```") == "model returned no text content"
    assert "Expecting value" in str(parse_reply("Here you go: {"))
    assert parse_reply("[]") == "root must be an object"
    assert parse_reply("{}") == "root must have property questions"
    bad_option = {
        "questions": [
            {
                "id": "a",
                "prompt": "p",
                "options": [{"value": "x", "label": "X", "recommended": True}],
            }
        ]
    }
    assert (
        parse_reply(json.dumps(bad_option))
        == 'questions[0].options[0] must not have property "recommended"'
    )
    assert parse_reply('{"questions": [{"id": "a", "prompt": "p", "options": []}]}') == (
        "questions[0].options must have at least 1 item"
    )


def test_semantic_and_business_issues_are_collected() -> None:
    reply = {
        "questions": [
            _q("a", "How can I help you today?", "Refactor", "Test"),
            _q("a", "Pick one", "1", "2", "3", "4", "5"),
            _q("c", "Which database should we use?", "Which database should we use"),
        ]
    }
    parsed = parse_reply(json.dumps(reply))
    assert isinstance(parsed, Parsed)
    assert parsed.issues == (
        'questions[1].id: Question 2: duplicate question id "a"',
        "questions[0].prompt is generic conversational text; "
        "omit this question unless it includes concrete choices",
        "questions[1].options has 5 items; max is 4",
        "questions[2].options[0] merely restates the question; "
        "omit this question or provide meaningful distinct options",
    )


def test_empty_questions_is_a_clean_parse() -> None:
    assert parse_reply('{"questions": []}') == Parsed({"questions": []}, ())


def test_repair_drops_small_talk_and_keeps_other_as_fourth() -> None:
    options = [{"value": v, "label": v.title()} for v in ("a", "b", "c", "d", "other")]
    fixed = repair(
        {
            "questions": [
                _q("x", "Could you clarify?", "A", "B"),
                {"id": "y", "prompt": "Which?", "options": options},
            ]
        }
    )
    assert fixed == {
        "questions": [
            {
                "id": "y",
                "prompt": "Which?",
                "options": [options[0], options[1], options[2], options[4]],
            }
        ]
    }
    assert cap_options(options[:4]) == options[:4]
    assert cap_options([*options[:4], {"value": "e", "label": "E"}]) == options[:4]


def test_failure_texts() -> None:
    assert failure_text("Request timed out.") == TIMED_OUT
    assert failure_text("payload is not valid JSON") == "payload is not valid JSON"
    assert failure_text("Connection error.") == "Connection error."
    assert GAVE_UP.startswith("Question extraction did not return")
