"""Result values of the ``ask_user`` tool, and their JSON wire form.

The wire form uses the contract's camelCase keys and omits absent fields (never ``null``).
The values are ``typing.NamedTuple``s, immutable and hashable: the ``no_terminal`` answer
builds one, and importing ``dataclasses`` (``inspect``, ``ast``, ``dis``) and creating six
frozen dataclasses cost that answer as much as starting Python itself (python-port.md §8).
Their annotations are evaluated (no ``from __future__ import annotations``: see
docs/architecture.md).
"""

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, NamedTuple

from pi_ask.contract.attachments import Attachment

# In ``kinds`` (the first frame needs them, not the classes below); named here too, so
# ``from pi_ask.contract.results import JsonObject`` keeps working (explicit re-exports).
from pi_ask.contract.kinds import CANCEL_REASONS as CANCEL_REASONS  # noqa: PLC0414
from pi_ask.contract.kinds import CancelReason as CancelReason  # noqa: PLC0414
from pi_ask.contract.kinds import Issue as Issue  # noqa: PLC0414
from pi_ask.contract.kinds import JsonObject as JsonObject  # noqa: PLC0414
from pi_ask.contract.kinds import Mode as Mode  # noqa: PLC0414
from pi_ask.contract.kinds import QuestionStatus as QuestionStatus  # noqa: PLC0414
from pi_ask.contract.payload import Option, Question

ELABORATION_INSTRUCTION = (
    "First answer the user's noted clarification directly and concisely using the provided "
    "question and option context. Do not treat these notes as final answers. Then re-ask only "
    "the affected questions if a choice is still needed afterward. Do not jump straight to a "
    "follow-up question unless the note is already resolved."
)


class AnswerRecord(NamedTuple):
    """A serialized answer (``details.answers[id]``)."""

    values: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    indices: tuple[int, ...] = ()
    custom_text: str | None = None
    note: str | None = None
    # (option value, note) pairs in selection order; only selected options.
    option_notes: tuple[tuple[str, str], ...] = ()
    # Files the user attached (python-port.md §12), in the order attached.
    attachments: tuple[Attachment, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (
            self.values
            or self.labels
            or self.indices
            or self.custom_text
            or self.note
            or self.option_notes
            or self.attachments
        )

    @property
    def is_committed(self) -> bool:
        """True when it holds a choice (option or custom text), not just notes."""
        return bool(self.values or self.labels or self.indices or self.custom_text)

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "values": list(self.values),
            "labels": list(self.labels),
            "indices": list(self.indices),
        }
        if self.custom_text is not None:
            out["customText"] = self.custom_text
        if self.note is not None:
            out["note"] = self.note
        if self.option_notes:
            out["optionNotes"] = dict(self.option_notes)
        if self.attachments:
            out["attachments"] = [item.to_json() for item in self.attachments]
        return out


class AnswerRecords(Mapping[str, AnswerRecord]):
    """``details.answers``: each answered question's record by question id, read-only.

    A ``Mapping`` in question order (``answers["lang"].values``, ``"lang" in answers``,
    ``answers.get("lang")``), immutable and hashable like the frozen result that holds it.

    Example:
        >>> answers = AnswerRecords({"lang": AnswerRecord(values=("py",))})
        >>> answers["lang"].values
        ('py',)
    """

    __slots__ = ("_records",)

    def __init__(
        self, records: Mapping[str, AnswerRecord] | Iterable[tuple[str, AnswerRecord]] = ()
    ) -> None:
        self._records: dict[str, AnswerRecord] = dict(records)

    def __getitem__(self, question_id: str) -> AnswerRecord:
        return self._records[question_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def __hash__(self) -> int:
        # Equal mappings hash alike whatever their order, as Mapping's == ignores order.
        return hash(frozenset(self._records.items()))

    def __repr__(self) -> str:
        return f"AnswerRecords({self._records!r})"


def option_to_json(option: Option) -> JsonObject:
    out: JsonObject = {"value": option.value, "label": option.label}
    if option.description is not None:
        out["description"] = option.description
    if option.preview is not None:
        out["preview"] = option.preview
    if option.recommended is not None:
        out["recommended"] = option.recommended
    return out


def question_meta_to_json(question: Question) -> JsonObject:
    """``details.questions[]`` entry: requested type plus ``presentedType`` when it differs."""
    out: JsonObject = {
        "id": question.id,
        "label": question.label,
        "prompt": question.prompt,
        "type": question.requested_type,
    }
    if question.presented_type is not None:
        out["presentedType"] = question.presented_type
    return out


def question_context_to_json(question: Question) -> JsonObject:
    """Full question context carried by every elaboration item."""
    out = question_meta_to_json(question)
    out["options"] = [option_to_json(o) for o in question.options if not o.freeform]
    return out


class ElaborationItem(NamedTuple):
    """One note the user asked the agent to elaborate on."""

    question: Question
    note: str
    answered: bool
    answer: AnswerRecord | None = None
    # Set for option-targeted items only.
    option: Option | None = None
    selected: bool = False

    def to_json(self) -> JsonObject:
        out: JsonObject
        if self.option is None:
            out = {
                "target": {"kind": "question"},
                "question": question_context_to_json(self.question),
            }
        else:
            out = {
                "target": {"kind": "option", "optionValue": self.option.value},
                "question": question_context_to_json(self.question),
                "option": option_to_json(self.option),
                "selected": self.selected,
            }
        out["answered"] = self.answered
        if self.answer is not None:
            out["answer"] = self.answer.to_json()
        out["note"] = self.note
        return out


class Continuation(NamedTuple):
    affected_question_ids: tuple[str, ...]
    preserved_answers: tuple[tuple[str, AnswerRecord], ...]
    question_states: tuple[tuple[str, QuestionStatus], ...]
    strategy: Literal["refine_only", "resume"] = "refine_only"

    def to_json(self) -> JsonObject:
        return {
            "strategy": self.strategy,
            "affectedQuestionIds": list(self.affected_question_ids),
            "preservedAnswers": {k: v.to_json() for k, v in self.preserved_answers},
            "questionStates": {k: {"status": s} for k, s in self.question_states},
        }


class Elaboration(NamedTuple):
    items: tuple[ElaborationItem, ...]
    instruction: str = ELABORATION_INSTRUCTION
    next_action: Literal["clarify", "clarify_then_reask"] = "clarify_then_reask"

    def to_json(self) -> JsonObject:
        return {
            "instruction": self.instruction,
            "nextAction": self.next_action,
            "items": [i.to_json() for i in self.items],
        }


class _Details(NamedTuple):
    cancelled: bool
    mode: Mode = "submit"
    title: str | None = None
    questions: tuple[Question, ...] = ()
    answers: "AnswerRecords" = AnswerRecords()
    continuation: Continuation | None = None
    elaboration: Elaboration | None = None
    error_issues: tuple[Issue, ...] | None = None
    # Set on every cancelled result without an error; ``None`` otherwise.
    reason: CancelReason | None = None


class ResultDetails(_Details):
    """``details`` of the tool result.

    ``answers`` may be given as any mapping or as pairs: it is kept as a read-only
    ``AnswerRecords`` (``_replace`` keeps what it is given, so give it one there).
    """

    __slots__ = ()

    def __new__(  # noqa: PLR0917 - the fields, positional as in the tuple
        cls,
        cancelled: bool,
        mode: Mode = "submit",
        title: str | None = None,
        questions: tuple[Question, ...] = (),
        answers: Mapping[str, AnswerRecord] | Iterable[tuple[str, AnswerRecord]] = (),
        continuation: Continuation | None = None,
        elaboration: Elaboration | None = None,
        error_issues: tuple[Issue, ...] | None = None,
        reason: CancelReason | None = None,
    ) -> "ResultDetails":
        records = answers if isinstance(answers, AnswerRecords) else AnswerRecords(answers)
        return super().__new__(
            cls,
            cancelled,
            mode,
            title,
            questions,
            records,
            continuation,
            elaboration,
            error_issues,
            reason,
        )

    @property
    def ends_ask(self) -> bool:
        """True when the ask is over for resume: submitted, elaborated or cancelled by the user.

        ``no_terminal``, ``timeout`` and ``aborted`` leave it resumable (python-port.md §11).
        """
        return not self.cancelled or self.reason == "cancelled"

    def answer(self, question_id: str) -> AnswerRecord | None:
        return self.answers.get(question_id)

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        if self.title is not None:
            out["title"] = self.title
        out["cancelled"] = self.cancelled
        if self.reason is not None:
            out["reason"] = self.reason
        if self.error_issues is not None:
            out["error"] = {
                "kind": "invalid_input",
                "issues": [i.to_json() for i in self.error_issues],
            }
        out["mode"] = self.mode
        out["questions"] = [question_meta_to_json(q) for q in self.questions]
        out["answers"] = {k: v.to_json() for k, v in self.answers.items()}
        if self.continuation is not None:
            out["continuation"] = self.continuation.to_json()
        if self.elaboration is not None:
            out["elaboration"] = self.elaboration.to_json()
        return out


class ToolResult(NamedTuple):
    """What ``ask_user`` returns: the text for the agent and the structured details."""

    text: str
    details: ResultDetails = ResultDetails(cancelled=True)

    def to_json(self) -> JsonObject:
        return {"content": [{"type": "text", "text": self.text}], "details": self.details.to_json()}

    @classmethod
    def from_json(cls, document: str | bytes | Mapping[str, Any]) -> "ToolResult":
        """Read a result back from its JSON (what ``pi-ask ask`` printed, or ``to_json()``).

        ``ToolResult.from_json(result.to_json()) == result`` for every result pi-ask makes,
        except that ``details.questions`` carry no options (the wire form has none there).

        Raises:
            ValueError: Not a result document; the message names the first wrong field.

        Example:
            >>> ToolResult.from_json('{"content": [{"type": "text", "text": "Hi"}], '
            ...     '"details": {"cancelled": true, "reason": "cancelled", "mode": "submit", '
            ...     '"questions": [], "answers": {}}}').details.reason
            'cancelled'
        """
        from pi_ask.contract.result_reading import read_result

        return read_result(document)
