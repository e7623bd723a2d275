from __future__ import annotations

import pytest

from pi_ask.answer.choice_phrases import (
    alternative,
    clean_question,
    inline_choices,
    is_generic,
    is_or_follow_up,
    is_question,
    is_yes_no,
    wants_many,
)


@pytest.mark.parametrize(
    ("sentence", "choices"),
    [
        ("Which database — PostgreSQL or SQLite?", ("PostgreSQL", "SQLite")),
        (
            "Retries: exponential backoff, a fixed delay, or none?",
            ("Exponential backoff", "A fixed delay", "None"),
        ),
        ("Should I squash or rebase the commits?", ("Squash", "Rebase the commits")),
        ("Would you prefer to merge now or wait for review?", ("Merge now", "Wait for review")),
        ("Which do you prefer, tabs or spaces?", ("Tabs", "Spaces")),
        ("Is the bug in the parser or the lexer?", ("The parser", "The lexer")),
        ("Do you want me to squash or keep them when I merge?", ("Squash", "Keep them")),
        ("**Should I keep it or drop it?**", ("Keep it", "Drop it")),
    ],
)
def test_inline_choices(sentence: str, choices: tuple[str, ...]) -> None:
    assert inline_choices(sentence) == choices


@pytest.mark.parametrize(
    ("sentence", "choices"),
    [
        ("Should I use PostgreSQL or SQLite?", ("PostgreSQL", "SQLite")),
        ("Do you prefer to use tabs or spaces?", ("Tabs", "Spaces")),
        ("Should we migrate now or wait until Friday?", ("Migrate now", "Wait until Friday")),
        ("Should we keep it or drop it?", ("Keep it", "Drop it")),
    ],
)
def test_a_verb_after_the_lead_is_dropped_only_before_short_alternatives(
    sentence: str, choices: tuple[str, ...]
) -> None:
    assert inline_choices(sentence) == choices


@pytest.mark.parametrize(
    "sentence",
    [
        "What should the service be called?",
        "Should I bump the version or not?",
        "Should I keep going?",
        "Should I rewrite the whole parsing module from scratch this week using the brand new"
        " framework we evaluated or not bother?",
    ],
)
def test_no_inline_choices(sentence: str) -> None:
    assert inline_choices(sentence) == ()


@pytest.mark.parametrize(
    ("sentence", "closed"),
    [
        ("Should I remove them?", True),
        ("Is there a staging server?", True),
        ("Want me to add a test?", True),
        ("And should we ship it today?", True),
        ("Could you share the logs?", False),
        ("What license should it use?", False),
        ("Do you have a preferred name?", False),
    ],
)
def test_yes_no(sentence: str, closed: bool) -> None:
    assert is_yes_no(sentence) is closed


def test_small_talk_and_many() -> None:
    assert is_generic("Does that sound good?")
    assert is_generic("How can I help you next?")
    assert not is_generic("Does the cache need to be shared?")
    assert wants_many("Which ones do you want? Pick any that apply.")
    assert not wants_many("Which one do you want?")


def test_question_text() -> None:
    assert is_question("Which one?**")
    assert not is_question("Done.")
    assert clean_question("And **who** maintains it?") == "Who maintains it?"
    assert clean_question("also, which one?") == "Which one?"


@pytest.mark.parametrize(
    ("sentence", "choices"),
    [
        (
            "Want me to start on the Foundation milestone, or would you prefer to scope it first?",
            ("Start on the Foundation milestone", "Scope it first"),
        ),
        ("Ship it today, or should I wait until Monday?", ("Ship it today", "Wait until Monday")),
        ("Should I deploy, or do you want me to wait, boss?", ("Deploy", "Wait")),
    ],
)
def test_alternatives_that_each_open_with_a_lead(sentence: str, choices: tuple[str, ...]) -> None:
    assert inline_choices(sentence) == choices


@pytest.mark.parametrize(
    ("sentence", "label"),
    [
        ("Or wait until Monday?", "Wait until Monday"),
        ("Or should I wait until Monday instead?", "Wait until Monday"),
        ("Or would you rather I keep it?", "Keep it"),
        ("Or maybe just skip it?", "Skip it"),
        ("Or something else?", ""),
        ("Or do you have another approach in mind?", ""),
    ],
)
def test_an_or_question_as_one_alternative(sentence: str, label: str) -> None:
    assert is_or_follow_up(sentence)
    assert alternative(sentence) == label


def test_only_a_question_opening_with_or_offers_an_alternative() -> None:
    assert not is_or_follow_up("Ordering matters here?")
    assert not is_or_follow_up("Or wait until Monday.")
