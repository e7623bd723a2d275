"""The portable dialog flow (behaviour.md §12), driven through a scripted port."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.payload import AskPayload
from pi_ask.contract.results import ToolResult
from pi_ask.faces.rpc.flow import (
    InvalidResponse,
    card_options,
    compact,
    run_dialog_flow,
)
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result

PAYLOAD: dict[str, object] = {
    "title": "Implementation\n preferences",
    "questions": [
        {
            "id": "db",
            "label": "Database",
            "prompt": "Which database\nshould the  service use?",
            "type": "single",
            "options": [
                {
                    "value": "pg",
                    "label": "PostgreSQL",
                    "recommended": True,
                    "description": "Mature\n relational",
                },
                {"value": "sqlite", "label": "SQLite", "description": "Single file"},
            ],
        },
        {
            "id": "fw",
            "label": "Frontend",
            "prompt": "Which frameworks?",
            "type": "multi",
            "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}],
        },
        {
            "id": "layout",
            "label": "Layout",
            "prompt": "Pick a layout",
            "type": "preview",
            "options": [
                {"value": "grid", "label": "Grid", "preview": "Line one\nLine two"},
                {"value": "list", "label": "List", "preview": "a\t b", "recommended": False},
            ],
        },
    ],
}

DB_OPTIONS = [
    "1. PostgreSQL (recommended) — Mature relational",
    "2. SQLite — Single file",
    "Type something…",
]
FW_OPTIONS = ["1. React", "2. Vue", "Type something…"]
LAYOUT_OPTIONS = [
    "1. Grid — Preview: Line one Line two",
    "2. List — Preview: a b",
    "Type something…",
]


def payload(data: Mapping[str, object] = PAYLOAD, *, as_multi: bool = False) -> AskPayload:
    loaded = load_payload(data, present_single_as_multi=as_multi, allow_freeform=True)
    assert isinstance(loaded, LoadedPayload), loaded
    return loaded.payload


@dataclass
class Script:
    """A host that answers each dialog with the next scripted reply and records what it saw.

    A reply is a string, ``None`` (dismiss), an exception to raise, ``"<abort>"`` which
    sets the abort signal and then returns ``None`` as a real port does, or
    ``("<late>", answer)``: the abort comes first and the answer right after it, as when a
    host's answer crosses a signal.
    """

    replies: list[object]
    abort: threading.Event = field(default_factory=threading.Event)
    shown: list[tuple[str, str, object]] = field(default_factory=list)

    def select(self, title: str, options: Sequence[str]) -> str | None:
        self.shown.append(("select", title, list(options)))
        return self._next()

    def input(self, title: str, placeholder: str) -> str | None:
        self.shown.append(("input", title, placeholder))
        return self._next()

    def _next(self) -> str | None:
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        if reply == "<abort>":
            self.abort.set()
            return None
        if isinstance(reply, tuple) and reply[0] == "<late>":
            self.abort.set()
            return str(reply[1])
        assert reply is None or isinstance(reply, str)
        return reply


def run(script: Script, data: Mapping[str, object] = PAYLOAD, **kwargs: bool) -> ToolResult:
    reports: list[str] = []
    state = run_dialog_flow(
        new_state(payload(data, **kwargs)), script, abort=script.abort, report=reports.append
    )
    result = build_result(state)
    script.shown.append(("reports", "", reports))
    return result


def answers(result: ToolResult) -> dict[str, object]:
    out = result.to_json()["details"]
    assert isinstance(out, dict)
    found = out["answers"]
    assert isinstance(found, dict)
    return found


def test_cards_titles_and_option_strings() -> None:
    script = Script([DB_OPTIONS[0], FW_OPTIONS[1], LAYOUT_OPTIONS[0]])
    run(script)
    title = "Implementation preferences"
    assert script.shown[:3] == [
        ("select", f"[1/3] {title} — Database: Which database should the service use?", DB_OPTIONS),
        ("select", f"[2/3] {title} — Frontend: Which frameworks?", FW_OPTIONS),
        ("select", f"[3/3] {title} — Layout: Pick a layout", LAYOUT_OPTIONS),
    ]


def test_without_a_flow_title_there_is_no_title_piece() -> None:
    data = {"questions": [{"id": "a", "prompt": "Ok?", "options": [{"value": "yes"}]}]}
    script = Script([None])
    run(script, data)
    assert script.shown[0] == ("select", "[1/1] Q1: Ok?", ["1. Yes", "Type something…"])


def test_a_submit_records_the_options_themselves() -> None:
    result = run(Script([DB_OPTIONS[1], FW_OPTIONS[1], LAYOUT_OPTIONS[0]]))
    assert result.details.cancelled is False
    assert result.details.mode == "submit"
    assert answers(result) == {
        "db": {"values": ["sqlite"], "labels": ["SQLite"], "indices": [2]},
        "fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]},
        "layout": {"values": ["grid"], "labels": ["Grid"], "indices": [1]},
    }
    assert result.text == "Database: SQLite\nFrontend: Vue\nLayout: Grid"


def test_dismissing_a_card_skips_only_that_question() -> None:
    script = Script([None, FW_OPTIONS[0], None])
    result = run(script)
    assert result.details.cancelled is False
    assert answers(result) == {"fw": {"values": ["react"], "labels": ["React"], "indices": [1]}}
    assert result.text == "Database: (no answer)\nFrontend: React\nLayout: (no answer)"


def test_type_something_asks_for_text_and_trims_it() -> None:
    script = Script(["Type something…", "  Cassandra \n", "Type something…", "React, Solid", None])
    result = run(script)
    assert script.shown[1] == (
        "input",
        "[1/3] Implementation preferences — Database: Which database should the service use?"
        " — Type something…",
        "Enter your answer",
    )
    assert script.shown[3][2] == "Enter one or more answers"
    assert answers(result) == {
        "db": {
            "values": ["Cassandra"],
            "labels": ["Cassandra"],
            "indices": [],
            "customText": "Cassandra",
        },
        "fw": {
            "values": ["React, Solid"],
            "labels": ["React, Solid"],
            "indices": [],
            "customText": "React, Solid",
        },
    }


def test_blank_or_dismissed_text_leaves_the_question_unanswered() -> None:
    result = run(Script(["Type something…", "   ", "Type something…", None, None]))
    assert result.details.cancelled is False
    assert answers(result) == {}


def test_single_presented_as_multi_gets_the_multi_placeholder_and_the_note() -> None:
    script = Script(["Type something…", "x", None, None])
    result = run(script, as_multi=True)
    assert script.shown[1][2] == "Enter one or more answers"
    assert result.text.endswith(
        "Note: Some questions were presented as multi-select by user preference."
    )


def test_an_answer_that_was_not_offered_cancels_everything() -> None:
    script = Script([DB_OPTIONS[0], "PostgreSQL", "never asked"])
    result = run(script)
    assert result.details.cancelled is True
    # An answer the host never offered: the host ended the ask, not the user (§11).
    assert result.details.reason == "aborted"
    assert result.text.startswith("The ask flow was aborted before the user finished")
    # The answers given so far stay in the details (python-port.md §6 decision 8).
    assert answers(result) == {"db": {"values": ["pg"], "labels": ["PostgreSQL"], "indices": [1]}}
    assert [kind for kind, _, _ in script.shown] == ["select", "select", "reports"]
    assert script.shown[-1][2] == [
        "the answer 'PostgreSQL' to question 2 is none of the 3 options offered; "
        "the ask is cancelled"
    ]
    assert script.replies == ["never asked"]


def test_a_display_string_is_matched_exactly() -> None:
    result = run(Script([DB_OPTIONS[1].lower()]))
    assert result.details.cancelled is True


def test_a_port_that_reads_no_answer_cancels() -> None:
    script = Script([InvalidResponse("the select value 3 is not a string")])
    result = run(script)
    assert result.details.cancelled is True
    assert script.shown[-1][2] == ["the select value 3 is not a string; the ask is cancelled"]


@pytest.mark.parametrize(
    ("replies", "kept"),
    [
        (["<abort>"], {}),
        ([DB_OPTIONS[1], "Type something…", "<abort>"], {"db": ["sqlite"]}),
        ([DB_OPTIONS[1], FW_OPTIONS[0], "<abort>"], {"db": ["sqlite"], "fw": ["react"]}),
        # An answer that arrives after the abort changes nothing.
        ([("<late>", DB_OPTIONS[1])], {}),
        ([DB_OPTIONS[1], ("<late>", FW_OPTIONS[0])], {"db": ["sqlite"]}),
        ([DB_OPTIONS[1], "Type something…", ("<late>", "typed")], {"db": ["sqlite"]}),
    ],
)
def test_abort_cancels_with_the_answers_so_far(
    replies: list[object], kept: dict[str, list[str]]
) -> None:
    script = Script(replies)
    result = run(script)
    assert result.details.cancelled is True
    assert {k: v["values"] for k, v in answers(result).items()} == kept  # type: ignore[index]
    assert script.replies == []


def test_an_abort_while_a_dialog_is_open_drops_its_answer() -> None:
    class LateAbort(Script):
        def select(self, title: str, options: Sequence[str]) -> str | None:
            self.abort.set()  # the signal fired while the host still showed the card
            return options[0]

    script = LateAbort([])
    result = run(script)
    assert result.details.cancelled is True
    assert answers(result) == {}


def test_abort_before_the_first_card_shows_nothing() -> None:
    script = Script([])
    script.abort.set()
    result = run(script)
    assert result.details.cancelled is True
    assert script.shown == [("reports", "", [])]


def test_abort_after_the_last_answer_still_cancels() -> None:
    class AbortAtEnd(Script):
        def select(self, title: str, options: Sequence[str]) -> str | None:
            if title.startswith("[3/3]"):
                self.abort.set()
            return options[0]

    result = run(AbortAtEnd([]))
    assert result.details.cancelled is True


def test_freeform_forms_offer_only_type_something() -> None:
    form = {
        "questions": [
            {"id": "name", "prompt": "Name?", "options": [{"value": "free", "freeform": True}]}
        ]
    }
    script = Script(["Type something…", "Ada"])
    result = run(script, form)
    assert script.shown[0] == ("select", "[1/1] Q1: Name?", ["Type something…"])
    assert answers(result)["name"] == {
        "values": ["Ada"],
        "labels": ["Ada"],
        "indices": [],
        "customText": "Ada",
    }


def test_card_strings_are_unique_even_for_lookalike_options() -> None:
    question = payload(
        {
            "questions": [
                {
                    "id": "a",
                    "prompt": "p",
                    "options": [
                        {"value": "x", "label": "Same"},
                        {"value": "y", "label": "Same"},
                    ],
                }
            ]
        }
    ).questions[0]
    rows = card_options(question)
    assert [text for text, _ in rows] == ["1. Same", "2. Same", "Type something…"]
    assert [s.value if s else None for _, s in rows] == ["x", "y", None]


def test_compact() -> None:
    assert compact("  a\n\tb \u00a0 c\r\n") == "a b c"
