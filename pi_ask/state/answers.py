"""Pure operations on one question's ``Answer``, and storing it back into the state."""

from __future__ import annotations

from collections.abc import Callable

from pi_ask.state.model import Answer, AskState, Selection
from pi_ask.state.selectors import answer_for


def put_answer(state: AskState, question_id: str, answer: Answer) -> AskState:
    """Store ``answer`` for ``question_id``, keeping question order; drop it when empty."""
    stored = dict(state.answers)
    if answer.is_empty:
        stored.pop(question_id, None)
    else:
        stored[question_id] = answer
    ordered = tuple((q.id, stored[q.id]) for q in state.questions if q.id in stored)
    return state._replace(answers=ordered)


def update_answer(
    state: AskState, question_id: str, change: Callable[[Answer], Answer]
) -> AskState:
    """Apply ``change`` to the question's answer (an empty one when it has none)."""
    return put_answer(state, question_id, change(answer_for(state, question_id) or Answer()))


def select_only(answer: Answer, selection: Selection) -> Answer:
    """Single-choice select: only ``selection`` stays; custom text is discarded, notes kept."""
    return Answer(
        selected=(selection,),
        note=answer.note,
        option_notes=answer.option_notes,
        attachments=answer.attachments,
    )


def clear_selection(answer: Answer) -> Answer:
    """Deselect every option; custom text and notes are kept."""
    return answer._replace(selected=())


def toggle_option(answer: Answer, selection: Selection) -> Answer:
    """Multi toggle: remove the option if selected, else append it (selection order)."""
    if answer.is_selected(selection.value):
        kept = tuple(s for s in answer.selected if s.value != selection.value)
        return answer._replace(selected=kept)
    return answer._replace(selected=(*answer.selected, selection))


def flip_custom(answer: Answer) -> Answer:
    """Multi toggle on the custom row with saved text: select or deselect that text."""
    return answer._replace(custom_selected=not answer.custom_selected)


def save_custom_text(answer: Answer, text: str, single_choice: bool) -> Answer:
    """Save the answer editor's trimmed ``text`` (behaviour.md §5.5).

    Single-choice questions always lose their option selection first; blank text clears the
    custom answer, non-blank text becomes the selected custom answer.
    """
    if single_choice:
        answer = clear_selection(answer)
    if not text:
        return answer._replace(custom_text=None, custom_selected=False)
    return answer._replace(custom_text=text, custom_selected=True)


def save_note(answer: Answer, text: str) -> Answer:
    """Save the question note's trimmed ``text``; blank removes it."""
    return answer._replace(note=text or None)


def save_option_note(answer: Answer, value: str, text: str) -> Answer:
    """Save option ``value``'s trimmed note; blank removes it.

    An edited note keeps its place; a new note goes last (first-written order).
    """
    notes = dict(answer.option_notes)
    if not text:
        notes.pop(value, None)
    else:
        notes[value] = text
    return answer._replace(option_notes=tuple(notes.items()))


def committed_count(answer: Answer | None) -> int:
    """Selected options, plus one for selected non-blank custom text."""
    if answer is None:
        return 0
    return len(answer.selected) + (1 if answer.custom_selected and answer.custom_text else 0)


def keep_custom_only(answer: Answer) -> Answer:
    """A confirmed destructive switch to single choice: options go, custom text is chosen."""
    return answer._replace(selected=(), custom_selected=bool(answer.custom_text))
