"""What the review tab shows for each question, by highlighted action (behaviour.md §7.7).

With Submit or Cancel highlighted committed answers show (with their question note and
selected-option notes), and notes on options not chosen show as *unsent*: the user wrote them,
and Submit drops them (behaviour.md §5.6), so every face marks them "not sent unless you choose
it or Elaborate" instead of hiding them (a third-wave deviation, python-port.md §12). With
Elaborate highlighted note-only questions and notes on unselected options show as sent.
"""

from typing import NamedTuple

from pi_ask.contract.payload import Question
from pi_ask.state.model import Answer, AskState
from pi_ask.state.selectors import answer_for

ELABORATE_ACTION = 1


class ReviewChoice(NamedTuple):
    """One committed choice: an option label with its note, or the custom text."""

    label: str
    note: str | None = None


class ReviewEntry(NamedTuple):
    """One question on the review tab."""

    label: str
    # Committed choices in selection order, custom text last; empty means no answer line.
    choices: tuple[ReviewChoice, ...] = ()
    custom_only: bool = False
    note: str | None = None
    # (option label, note) of unselected options; only with Elaborate highlighted.
    other_notes: tuple[tuple[str, str], ...] = ()
    # (option label, note) of unselected options with Submit or Cancel highlighted: shown,
    # marked as not sent (words.NOT_SENT).
    unsent_notes: tuple[tuple[str, str], ...] = ()
    # The payload flags it ``required`` (advisory): an unanswered one is marked as such.
    required: bool = False

    @property
    def is_unanswered(self) -> bool:
        """True when no answer or sent note is visible: the face shows ``→ unanswered``."""
        return not (self.choices or self.note or self.other_notes)

    @property
    def one_per_line(self) -> bool:
        """Choices go one per line (each with its note) when several or any has a note."""
        return len(self.choices) > 1 or any(c.note for c in self.choices)


def review_entries(state: AskState) -> tuple[ReviewEntry, ...]:
    """The review entries of every question, for the highlighted action."""
    elaborate = state.action == ELABORATE_ACTION
    return tuple(
        _entry(q, answer_for(state, q.id), elaborate)._replace(required=q.required)
        for q in state.questions
    )


def _entry(question: Question, answer: Answer | None, elaborate: bool) -> ReviewEntry:
    if answer is None:
        return ReviewEntry(question.label)
    if not (answer.is_answered or elaborate):
        return ReviewEntry(question.label, unsent_notes=_unchosen_notes(question, answer))
    choices = tuple(ReviewChoice(s.label, answer.option_note(s.value)) for s in answer.selected)
    if answer.custom_selected and answer.custom_text:
        choices = (*choices, ReviewChoice(answer.custom_text))
    unchosen = _unchosen_notes(question, answer)
    return ReviewEntry(
        question.label,
        choices=choices,
        custom_only=bool(choices) and not answer.selected,
        note=answer.note,
        other_notes=unchosen if elaborate else (),
        unsent_notes=() if elaborate else unchosen,
    )


def _unchosen_notes(question: Question, answer: Answer) -> tuple[tuple[str, str], ...]:
    """(option label, note) of every option with a note that is not selected, in note order."""
    labels = {o.value: o.label for o in question.options}
    return tuple(
        (labels[value], note)
        for value, note in answer.option_notes
        if value in labels and not answer.is_selected(value)
    )
