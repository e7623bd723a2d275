"""The ask-flow state: frozen values that transitions replace, never mutate.

A sketch of the shape every face reads; ``state.transitions`` owns how it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pi_ask.contract.payload import Question
from pi_ask.contract.results import Mode

CUSTOM_VALUE = "__other__"
CUSTOM_LABEL = "Type your own"
FREEFORM_LABEL = "Type your answer:"


@dataclass(frozen=True, slots=True)
class Behaviour:
    """The behaviour settings the engine reads, handed in as a plain value."""

    auto_submit_when_answered_without_notes: bool = False
    confirm_dismiss_when_dirty: bool = True
    double_press_review_shortcuts: bool = True
    present_single_as_multi: bool = False
    show_footer_hints: bool = True


@dataclass(frozen=True, slots=True)
class Selection:
    """A selected option: its value, label and 1-based row number."""

    value: str
    label: str
    index: int


@dataclass(frozen=True, slots=True)
class Answer:
    """Everything the user gave for one question (behaviour.md §1.3)."""

    selected: tuple[Selection, ...] = ()
    custom_text: str | None = None
    custom_selected: bool = False
    note: str | None = None
    # (option value, note) in the order the notes were first written.
    option_notes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Navigate:
    """Browsing a question's rows."""

    kind: Literal["navigate"] = "navigate"


@dataclass(frozen=True, slots=True)
class Review:
    """On the review tab."""

    kind: Literal["review"] = "review"


@dataclass(frozen=True, slots=True)
class EditAnswer:
    """The free-form answer editor is open on a question."""

    question_id: str
    kind: Literal["input"] = "input"


@dataclass(frozen=True, slots=True)
class EditNote:
    """A note editor is open: the question's note, or an option's when ``option_value`` is set."""

    question_id: str
    option_value: str | None = None
    kind: Literal["note"] = "note"


View = Navigate | Review | EditAnswer | EditNote


@dataclass(frozen=True, slots=True)
class AskState:
    """The whole state of one ask flow."""

    questions: tuple[Question, ...]
    title: str | None = None
    tab: int = 0
    row: int = 0
    action: int = 0
    view: View = field(default_factory=Navigate)
    # question id -> answer; entries that become empty are removed.
    answers: tuple[tuple[str, Answer], ...] = ()
    completed: bool = False
    cancelled: bool = False
    mode: Mode = "submit"
