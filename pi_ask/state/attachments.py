"""Attachments in the state: the records join and leave an answer (python-port.md §12).

The files themselves are copied by the face or host (its I/O), which checks the ask's
limits first against ``all_attachments``; here an answer only holds the records.
"""

from __future__ import annotations

from pi_ask.contract.attachments import Attachment
from pi_ask.state.answers import update_answer
from pi_ask.state.model import AskState


def all_attachments(state: AskState) -> tuple[Attachment, ...]:
    """Every answer's attachments, in question order (what an ask's limits count)."""
    return tuple(item for _, answer in state.answers for item in answer.attachments)


def attach_file(state: AskState, question_id: str, attachment: Attachment) -> AskState:
    """``attachment`` joins the question's answer; the same copy twice is kept once."""
    if not any(q.id == question_id for q in state.questions):
        return state
    if any(item.path == attachment.path for item in all_attachments(state)):
        return state
    return update_answer(
        state,
        question_id,
        lambda answer: answer._replace(attachments=(*answer.attachments, attachment)),
    )


def detach_file(state: AskState, question_id: str, path: str) -> AskState:
    """The attachment at ``path`` leaves the question's answer."""
    return update_answer(
        state,
        question_id,
        lambda answer: answer._replace(
            attachments=tuple(item for item in answer.attachments if item.path != path)
        ),
    )
