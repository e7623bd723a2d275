"""Answers on the wire between an answering terminal and the asker.

An answering terminal sends what its flow holds, in the session log's draft form (every
answer with its unselected notes and text, and the presented types); the asker fits it to
its own payload exactly as a resumed draft is fitted (``session.resume.restore``), then
builds the result itself. So a peer can only ever choose among the answers the flow itself
could give: it never hands the asker a result document, a label or a text of its own. The
attachment records it sends are kept only when they name files the ask holds
(``attached_files.checked``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.loading import LoadedPayload
from pi_ask.contract.payload import QUESTION_TYPES, QuestionType
from pi_ask.contract.results import ToolResult
from pi_ask.relay.attached_files import AskFiles, checked
from pi_ask.session.drafts import Draft, answer_from_json
from pi_ask.session.entries import answer_to_json
from pi_ask.session.resume import restore
from pi_ask.state.commands import Abort
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from pi_ask.state.review import run_review_action

Outcome = Literal["submit", "elaborate", "cancel"]
OUTCOMES: tuple[Outcome, ...] = ("submit", "elaborate", "cancel")
MAX_QUESTIONS_ON_WIRE = 1000


class FormError(ValueError):
    """A form message that does not have the draft shape."""


def form_to_json(state: AskState) -> JsonObject:
    """``answers`` and ``types`` of ``state``, as a draft or an answer message carries them."""
    out: JsonObject = {"answers": {qid: answer_to_json(a) for qid, a in state.answers}}
    types = {q.id: q.type for q in state.questions if q.type != q.requested_type}
    if types:
        out["types"] = types
    return out


def state_from_form(
    loaded: LoadedPayload, message: Mapping[str, object], files: AskFiles | None = None
) -> AskState:
    """The flow state of ``loaded`` holding the message's answers, fitted to the payload.

    ``files``: where the ask's attached files are and its limits; attachment records that
    name anything else are dropped (all of them without ``files``).

    Raises:
        FormError: ``answers`` or ``types`` do not have the draft shape.
    """
    answers, types = message.get("answers", {}), message.get("types", {})
    if not isinstance(answers, dict) or not isinstance(types, dict):
        raise FormError('"answers" and "types" must be objects')
    if len(answers) > MAX_QUESTIONS_ON_WIRE or len(types) > MAX_QUESTIONS_ON_WIRE:
        raise FormError("more answers than a payload can hold")
    pairs = []
    for qid, raw in answers.items():
        answer = answer_from_json(raw)
        if answer is None:
            raise FormError(f"the answer for {str(qid)[:40]!r} does not have the draft shape")
        pairs.append((qid, answer))
    presented: list[tuple[str, QuestionType]] = []
    for qid, kind in types.items():
        if kind not in QUESTION_TYPES:
            raise FormError(f"unknown question type {str(kind)[:20]!r}")
        presented.append((qid, kind))
    restored, fitted = restore(loaded, Draft("", tuple(pairs), tuple(presented)))
    return checked(new_state(restored.payload, answers=fitted), files)


def finish(state: AskState, outcome: Outcome) -> ToolResult:
    """The result of the answering terminal's ``outcome`` on ``state`` (its review action)."""
    return build_result(run_review_action(state, OUTCOMES.index(outcome)))


def ended(state: AskState, reason: Literal["timeout", "aborted"]) -> ToolResult:
    """The result of an ask that nobody finished: its deadline passed, or it was aborted."""
    return build_result(apply(state, Abort(reason=reason), Behaviour()))
