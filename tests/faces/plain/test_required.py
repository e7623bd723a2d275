"""``required: true`` in the plain face: marked on the question and on the review."""

from __future__ import annotations

from pi_ask.state.review_tab import review_entries
from tests.faces.plain.conftest import state_of

PAYLOAD = {
    "questions": [
        {"id": "db", "prompt": "Which database?", "required": True, "options": [{"value": "pg"}]},
        {"id": "ci", "prompt": "Add CI?", "options": [{"value": "yes"}]},
    ]
}


def test_the_review_entry_carries_the_flag() -> None:
    entries = review_entries(state_of(PAYLOAD))
    assert [entry.required for entry in entries] == [True, False]


def test_the_plain_face_marks_it(answer) -> None:  # type: ignore[no-untyped-def]
    done = answer(state_of(PAYLOAD), "/review", "1")
    assert "(required)" in done.output
    assert "unanswered (required)" in done.output
