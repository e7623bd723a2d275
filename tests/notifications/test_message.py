from __future__ import annotations

import re

from pi_ask.notifications.message import (
    EVENT,
    MESSAGE_LIMIT,
    TITLE,
    subject_for,
    waiting_message,
)


def test_title_event_and_limit_are_the_contract_values() -> None:
    assert (TITLE, EVENT, MESSAGE_LIMIT) == ("pi ask", "question.waiting", 120)


def test_message_names_the_subject() -> None:
    assert waiting_message("Database") == "Question waiting: Database"


def test_message_collapses_whitespace_in_the_subject() -> None:
    assert waiting_message("  Which\n\n database\tengine?  ") == (
        "Question waiting: Which database engine?"
    )


def test_message_of_exactly_120_characters_is_kept() -> None:
    subject = "x" * (120 - len("Question waiting: "))
    assert waiting_message(subject) == f"Question waiting: {subject}"


def test_longer_message_is_cut_to_119_characters_and_an_ellipsis() -> None:
    message = waiting_message("y" * 200)
    assert len(message) == 120
    assert message == ("Question waiting: " + "y" * 200)[:119] + "…"


def test_hostile_subject_is_cleaned_and_truncated() -> None:
    hostile = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\r\nline two\x00" + "A" * 10_000
    message = waiting_message(hostile)
    assert len(message) == 120
    assert message.endswith("…")
    assert message.startswith("Question waiting: ^[]0;pwned^G^[[2J\\x9b31m<U+202E>evil line two^@A")
    assert re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e]", message) is None


def test_subject_is_the_label_the_payload_gave() -> None:
    assert subject_for("Database", "Which database?") == "Database"


def test_subject_falls_back_to_the_prompt_without_a_label() -> None:
    assert subject_for(None, "Which database?") == "Which database?"


def test_subject_falls_back_to_the_prompt_for_a_blank_label() -> None:
    assert subject_for("  \n", "Which database?") == "Which database?"
