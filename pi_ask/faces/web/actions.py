"""The page's actions read back as engine commands (pure).

The page sends one small JSON object per user action (a click, a key, a tap); each becomes a
short sequence of the commands a terminal's keys would give, so every flow rule (advance
after a single choice, the editor opened on ``Type your own``, the dirty-cancel guard, the
type change's confirmation) is the engine's. Anything malformed (an unknown action, a row or
tab out of range, text too long, a field of the wrong type) is a ``BadAction`` naming the
problem, and the state is left as it was.

Actions (``do`` names the action; ``editor`` may carry the open editor's text, which is
saved first, as a terminal saves it when the editor closes):

- ``{"do": "tab", "tab": N}``: show tab N (the review tab is ``len(questions)``);
- ``{"do": "choose", "row": N}``: activate row N of the current question (single and
  preview: choose and move on; multi: toggle; ``Type your own``: open the editor);
- ``{"do": "next"}``: the next tab;
- ``{"do": "note", "row": N | null}``: open the note of option N, or the question's note;
- ``{"do": "save", "text": S}``: save the open editor (Enter); ``{"do": "close", "text": S}``:
  save and close it without moving on (Esc);
- ``{"do": "type"}``: change the question's presented type (twice when it would clear);
- ``{"do": "review", "action": "submit" | "elaborate" | "cancel"}``: run a review action;
- ``{"do": "highlight", "action": ...}``: highlight a review action (what the review shows
  depends on it);
- ``{"do": "detach", "file": N}``: file N attached to the current question's answer leaves
  it (``DetachFile``; files join it through the host's upload, ``AttachFile``);
- ``{"do": "cancel"}``: cancel the ask, through the dirty-dismiss guard.
"""

from __future__ import annotations

from collections.abc import Mapping

from pi_ask.state.commands import (
    Cancel,
    ChangeQuestionType,
    CloseEditor,
    Command,
    Confirm,
    DetachFile,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import REVIEW_ACTIONS, AskState, EditAnswer, EditNote
from pi_ask.state.selectors import answer_for, current_question, editor_draft, question_rows

MAX_TEXT_CHARS = 32_000
"""The longest text an action may carry (an answer or a note)."""
REVIEW_NAMES = tuple(name.lower() for name in REVIEW_ACTIONS)
ACTIONS = (
    "tab", "choose", "next", "note", "save", "close", "type", "review", "highlight", "detach",
)  # fmt: skip
ACTIONS_ALL = (*ACTIONS, "cancel")


class BadAction(ValueError):
    """An action the page should never send: the state does not change."""


def commands_for(state: AskState, message: object) -> tuple[Command, ...]:
    """The engine commands for one page action on ``state``.

    Raises:
        BadAction: The action is malformed or does not fit the state.
    """
    if not isinstance(message, Mapping):
        raise BadAction("an action is a JSON object")
    kind = message.get("do")
    if kind not in ACTIONS_ALL:
        raise BadAction(f"unknown action {str(kind)[:40]!r}")
    editing = isinstance(state.view, EditAnswer | EditNote)
    first: tuple[Command, ...] = ()
    if kind not in ("save", "close", "cancel") and editing:
        # Leaving the editor by another action saves it, as Esc does; a page that did not
        # send its text (another page opened the editor) keeps the text saved before.
        first = (CloseEditor(_text(message, "editor", default=editor_draft(state))),)
    if kind == "cancel":
        return (Cancel(_text(message, "editor", default="") if editing else ""),)
    if kind in ("save", "close"):
        if not editing:
            raise BadAction("no editor is open")
        text = _text(message, "text")
        return (SubmitEditor(text) if kind == "save" else CloseEditor(text),)
    return first + _navigation(state, kind, message)


def _navigation(
    state: AskState, kind: object, message: Mapping[str, object]
) -> tuple[Command, ...]:
    if kind == "tab":
        tab = _number(message, "tab", len(state.questions))
        return (MoveTab(tab - state.tab),) if tab != state.tab else ()
    if kind == "next":
        return (MoveTab(1),)
    if kind in ("review", "highlight"):
        name = message.get("action")
        if name not in REVIEW_NAMES:
            raise BadAction(f"unknown review action {str(name)[:20]!r}")
        action = REVIEW_NAMES.index(str(name))
        moves = _to_tab(state, len(state.questions))
        delta = action - (state.action if not moves else 0)
        move = (MoveOption(delta),) if delta else ()
        return (*moves, *move, Confirm()) if kind == "review" else (*moves, *move)
    question = current_question(state)
    if question is None:
        raise BadAction("the review tab has no rows")
    if kind == "type":
        return (ChangeQuestionType(),)
    if kind == "detach":
        answer = answer_for(state, question.id)
        files = answer.attachments if answer is not None else ()
        if not files:
            raise BadAction("this answer has no attached file")
        return (DetachFile(question.id, files[_number(message, "file", len(files) - 1)].path),)
    rows = question_rows(question)
    if kind == "note" and message.get("row") is None:
        return (OpenQuestionNote(),)
    row = _number(message, "row", len(rows) - 1)
    move = (MoveOption(row - state.row),) if row != state.row else ()
    if kind == "note":
        if rows[row].is_custom:
            raise BadAction("the custom row has no note of its own")
        return (*move, OpenOptionNote())
    activate: Command = Toggle() if question.type == "multi" else Confirm()
    return (*move, activate)


def _to_tab(state: AskState, tab: int) -> tuple[Command, ...]:
    return (MoveTab(tab - state.tab),) if tab != state.tab else ()


def _number(message: Mapping[str, object], key: str, highest: int) -> int:
    value = message.get(key)
    if type(value) is not int or not 0 <= value <= highest:
        raise BadAction(f'"{key}" must be a whole number from 0 to {highest}')
    return value


def typing_commands(state: AskState, message: object) -> tuple[Command, ...]:
    """What a draft of the open editor's text is: the editor saved and closed on a copy of
    the state (``{"text": S}``, sent on a debounce while the user types); nothing when no
    editor is open.

    Raises:
        BadAction: The text is missing, not text, or too long.
    """
    if not isinstance(message, Mapping):
        raise BadAction("a draft is a JSON object")
    text = _text(message, "text")
    return (CloseEditor(text),) if isinstance(state.view, EditAnswer | EditNote) else ()


def _text(message: Mapping[str, object], key: str, *, default: str | None = None) -> str:
    value = message.get(key, default)
    if not isinstance(value, str):
        raise BadAction(f'"{key}" must be text')
    if len(value) > MAX_TEXT_CHARS:
        raise BadAction(f'"{key}" is longer than {MAX_TEXT_CHARS} characters')
    return value
