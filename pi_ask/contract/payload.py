"""Normalized ask payload: the engine's view of a valid ``ask_user`` tool input.

Values here are produced only by ``contract.normalize`` from a payload that passed
validation, so every field already obeys the contract (trimmed, labels filled in,
blank optional fields dropped).
"""

from typing import Literal, NamedTuple

QuestionType = Literal["single", "multi", "preview"]
QUESTION_TYPES: tuple[QuestionType, ...] = ("single", "multi", "preview")


class Option(NamedTuple):
    """One declared option of a question."""

    value: str
    label: str
    description: str | None = None
    preview: str | None = None
    # ``None`` means the payload did not set it; ``False`` is kept because the contract
    # echoes an explicit ``recommended: false`` in elaboration items.
    recommended: bool | None = None
    # Internal marker for ``pi-ask answer`` forms only (never in the public schema).
    freeform: bool = False


class Question(NamedTuple):
    """A normalized question.

    ``type`` is the type currently presented (it drives behaviour); ``requested_type`` is what
    the payload asked for. They differ after ``present_single_as_multi`` or a type change.
    """

    id: str
    label: str
    prompt: str
    type: QuestionType
    requested_type: QuestionType
    options: tuple[Option, ...]
    required: bool = False

    @property
    def presented_type(self) -> QuestionType | None:
        """The presented type when it differs from the requested one, else ``None``."""
        return self.type if self.type != self.requested_type else None

    @property
    def is_freeform(self) -> bool:
        """True for ``pi-ask answer`` questions that only take typed input."""
        return len(self.options) == 1 and self.options[0].freeform


class AskPayload(NamedTuple):
    """A normalized, valid payload."""

    questions: tuple[Question, ...]
    title: str | None = None
