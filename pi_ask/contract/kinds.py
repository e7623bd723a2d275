"""The contract's small words: a JSON object, result modes, cancel reasons, and ``Issue``.

They live apart from ``results`` because the first frame needs them (a payload is loaded and
recorded, a state holds a mode) while the result classes are built only when the flow ends.
"""

from typing import Literal, NamedTuple

JsonObject = dict[str, object]
Mode = Literal["submit", "elaborate"]
QuestionStatus = Literal["answered", "needs_clarification", "unanswered"]
# Why a result without an error carries no answer (python-port.md §11).
CancelReason = Literal["cancelled", "no_terminal", "timeout", "aborted"]
CANCEL_REASONS: tuple[CancelReason, ...] = ("cancelled", "no_terminal", "timeout", "aborted")


class Issue(NamedTuple):
    """One validation problem: a 0-based JSON path and the contract's message."""

    path: str
    message: str

    def to_json(self) -> JsonObject:
        return {"path": self.path, "message": self.message}
