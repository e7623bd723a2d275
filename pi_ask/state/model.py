"""The ask-flow state: frozen values that ``state.dispatcher.apply`` replaces, never mutates.

Everything a face needs to draw the flow lives here, so a face never keeps its own flow
logic: the cursor, the open editor, the answers, the footer notice and the pending
confirmations (dirty dismiss, destructive type change, review double-press).
"""

from typing import Literal, NamedTuple

from pi_ask.contract.attachments import Attachment

# The English words of the synthetic rows and the review's actions (a face shows them with
# ``pi_ask.words.shown``); named here too because the engine and its tests read them here.
from pi_ask.contract.kinds import CancelReason, Mode
from pi_ask.contract.payload import Question
from pi_ask.words import CUSTOM_LABEL as _CUSTOM_LABEL
from pi_ask.words import FREEFORM_LABEL as _FREEFORM_LABEL
from pi_ask.words import REVIEW_ACTIONS as _REVIEW_ACTIONS

CUSTOM_VALUE = "__other__"
CUSTOM_LABEL = _CUSTOM_LABEL
FREEFORM_LABEL = _FREEFORM_LABEL
REVIEW_ACTIONS: tuple[str, ...] = _REVIEW_ACTIONS


class Behaviour(NamedTuple):
    """The behaviour settings the engine reads, handed in as a plain value."""

    auto_submit_when_answered_without_notes: bool = False
    confirm_dismiss_when_dirty: bool = True
    double_press_review_shortcuts: bool = True
    present_single_as_multi: bool = False
    show_footer_hints: bool = True


class Selection(NamedTuple):
    """A selected option: its value, label and 1-based row ``number``."""

    value: str
    label: str
    number: int


class Answer(NamedTuple):
    """Everything the user gave for one question (behaviour.md §1.3).

    Text is stored trimmed (python-port.md §6 decision 5): ``custom_text`` and the notes are
    either non-blank or absent.
    """

    selected: tuple[Selection, ...] = ()
    custom_text: str | None = None
    custom_selected: bool = False
    note: str | None = None
    # (option value, note) in the order the notes were first written.
    option_notes: tuple[tuple[str, str], ...] = ()
    # Files attached to the answer (python-port.md §12), in the order attached.
    attachments: tuple[Attachment, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when nothing is left: such entries are removed from the state."""
        return not (
            self.selected or self.custom_text or self.note or self.option_notes or self.attachments
        )

    @property
    def is_answered(self) -> bool:
        """True with a selected option or selected non-blank custom text."""
        return bool(self.selected) or (self.custom_selected and bool(self.custom_text))

    @property
    def has_notes(self) -> bool:
        """True with a question note or any option note (selected or not)."""
        return self.note is not None or bool(self.option_notes)

    def option_note(self, value: str) -> str | None:
        """The note written for option ``value``, if any."""
        return dict(self.option_notes).get(value)

    def is_selected(self, value: str) -> bool:
        """True when option ``value`` is selected."""
        return any(s.value == value for s in self.selected)


class Navigate(NamedTuple):
    """Browsing a question's rows."""

    kind: Literal["navigate"] = "navigate"


class Review(NamedTuple):
    """On the review tab."""

    kind: Literal["review"] = "review"


class EditAnswer(NamedTuple):
    """The free-form answer editor is open on a question."""

    question_id: str
    kind: Literal["input"] = "input"


class EditNote(NamedTuple):
    """A note editor is open: the question's note, or an option's when ``option_value`` is set."""

    question_id: str
    option_value: str | None = None
    kind: Literal["note"] = "note"


View = Navigate | Review | EditAnswer | EditNote


class AskState(NamedTuple):
    """The whole state of one ask flow.

    ``tab`` runs over the questions and then the review tab (``tab == len(questions)``).
    ``row`` is the cursor row on a question tab, ``action`` the highlighted review action
    (0 Submit, 1 Elaborate, 2 Cancel).
    """

    questions: tuple[Question, ...]
    title: str | None = None
    tab: int = 0
    row: int = 0
    action: int = 0
    view: View = Navigate()
    # question id -> answer, in question order; entries that become empty are removed.
    answers: tuple[tuple[str, Answer], ...] = ()
    completed: bool = False
    cancelled: bool = False
    # Why a cancelled flow ended (python-port.md §11); ``None`` while not cancelled.
    cancel_reason: CancelReason | None = None
    mode: Mode = "submit"
    # Footer notice slot: the dirty-dismiss warning or a type-change notice.
    notice: str | None = None
    # The config-load notice, shown when ``notice`` is empty.
    config_notice: str | None = None
    # The dirty-dismiss warning was shown: the next cancel or dismiss discards.
    pending_dismiss: bool = False
    # Question id whose destructive type change waits for a second press.
    pending_type_change: str | None = None
    # Review digit (1-3) armed by a first press when double-press is on.
    pending_review_digit: int | None = None
    # The answer editor was closed with Esc: do not reopen it until the next commit.
    suppress_auto_open: bool = False
