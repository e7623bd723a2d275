"""Commands: what a face asks the ask flow to do, handed to ``state.dispatcher.apply``.

A face turns each key (or RPC message, or remote submission) into exactly one command.
Editor text lives in the face while the user types; the commands that close or save an
editor, and the ones whose outcome depends on it (the dirty-dismiss guard), carry it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.kinds import CancelReason, Mode


@dataclass(frozen=True, slots=True)
class MoveTab:
    """Switch tab by ``delta`` (wraps over the questions and the review tab)."""

    delta: int = 1


@dataclass(frozen=True, slots=True)
class MoveOption:
    """Move the row cursor (or the review action) by ``delta``, clamped, no wrap."""

    delta: int = 1


@dataclass(frozen=True, slots=True)
class Confirm:
    """Enter: activate the row as a confirm, or run the highlighted review action."""


@dataclass(frozen=True, slots=True)
class Toggle:
    """Space: toggle the row under the cursor."""


@dataclass(frozen=True, slots=True)
class Digit:
    """A number key 1-9: jump to that row and activate it, or a review shortcut."""

    digit: int


@dataclass(frozen=True, slots=True)
class Cancel:
    """Esc in navigation: cancel the flow, through the dirty-dismiss guard.

    ``editor_text`` is the raw text of an open editor (it makes the flow dirty); it is
    never saved.
    """

    editor_text: str = ""


@dataclass(frozen=True, slots=True)
class Dismiss:
    """Ctrl+C anywhere: cancel the flow, through the guard, discarding any editor draft."""

    editor_text: str = ""


@dataclass(frozen=True, slots=True)
class Abort:
    """End the flow as cancelled at once (remote cancel, signal): no guard, no draft saved.

    ``reason`` says why (python-port.md §11): ``aborted`` for a host or a signal,
    ``timeout`` for a passed deadline, ``cancelled`` for a user's cancel made elsewhere.
    """

    reason: CancelReason = "aborted"


@dataclass(frozen=True, slots=True)
class ChangeQuestionType:
    """The type hotkey: cycle the current question's presented type."""


@dataclass(frozen=True, slots=True)
class OpenQuestionNote:
    """Open the note editor of the current question."""


@dataclass(frozen=True, slots=True)
class OpenOptionNote:
    """Open the note editor of the option under the cursor."""


@dataclass(frozen=True, slots=True)
class SubmitEditor:
    """Enter in the open editor: save ``text`` (trimmed), then advance where the rules say."""

    text: str


@dataclass(frozen=True, slots=True)
class CloseEditor:
    """Esc in the open editor: save ``text`` (trimmed) and close it, without advancing."""

    text: str


@dataclass(frozen=True, slots=True)
class EditorNavigate:
    """A ``*_when_empty`` editor key: save ``text`` (the empty draft), then make ``move``."""

    text: str
    move: MoveTab | MoveOption


@dataclass(frozen=True, slots=True)
class BehaviourChanged:
    """The settings changed: re-evaluate auto-submit with the behaviour given to ``apply``.

    ``config_notice`` replaces the config-load notice (``None`` clears it).
    """

    config_notice: str | None = None


@dataclass(frozen=True, slots=True)
class SubmittedAnswer:
    """One question's answer in a validated remote submission (behaviour.md §13)."""

    values: tuple[str, ...] = ()
    custom_text: str | None = None
    note: str | None = None
    option_notes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ReplaceAnswers:
    """A validated remote submission: replace every answer and complete on the review tab."""

    answers: tuple[tuple[str, SubmittedAnswer], ...]
    mode: Mode = "submit"


@dataclass(frozen=True, slots=True)
class ChooseOnly:
    """A dialog card's choice (behaviour.md §12): the option ``value`` alone becomes the
    answer of ``question_id``, even on a multi question."""

    question_id: str
    value: str


@dataclass(frozen=True, slots=True)
class TypeAnswer:
    """A dialog's typed answer: ``text``, trimmed, becomes the single custom answer of
    ``question_id``; blank text leaves the question unanswered."""

    question_id: str
    text: str


@dataclass(frozen=True, slots=True)
class AttachFile:
    """A file the face copied into the ask's folder joins ``question_id``'s answer (the face
    checked the limits with ``contract.attachments.attachment_problem`` first)."""

    question_id: str
    attachment: Attachment


@dataclass(frozen=True, slots=True)
class DetachFile:
    """The attachment at ``path`` leaves ``question_id``'s answer (its copy stays until the
    ask's folder goes)."""

    question_id: str
    path: str


@dataclass(frozen=True, slots=True)
class SubmitAnswers:
    """The last dialog was answered: complete as a submit, with the answers as they are."""


Command = (
    MoveTab
    | MoveOption
    | Confirm
    | Toggle
    | Digit
    | Cancel
    | Dismiss
    | Abort
    | ChangeQuestionType
    | OpenQuestionNote
    | OpenOptionNote
    | SubmitEditor
    | CloseEditor
    | EditorNavigate
    | BehaviourChanged
    | ReplaceAnswers
    | ChooseOnly
    | TypeAnswer
    | SubmitAnswers
    | AttachFile
    | DetachFile
)
