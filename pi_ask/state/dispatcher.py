"""The ask flow's one entry point: ``new_state`` to start, ``apply`` for every command.

``apply`` runs the command's transition, then the controller rules every face shares
(behaviour.md §6): pending confirmations cleared by other actions, notices cleared on a tab
change, the answer editor opened when the cursor lands on an empty ``Type your own``, and
auto-submit evaluated after every action (python-port.md §6 decision 2).
"""

from __future__ import annotations

from pi_ask.state.activation import confirm, press_digit, toggle
from pi_ask.state.attachments import attach_file, detach_file
from pi_ask.state.commands import (
    Abort,
    AttachFile,
    BehaviourChanged,
    Cancel,
    ChangeQuestionType,
    ChooseOnly,
    CloseEditor,
    Command,
    Confirm,
    DetachFile,
    Digit,
    Dismiss,
    EditorNavigate,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    ReplaceAnswers,
    SubmitAnswers,
    SubmitEditor,
    Toggle,
    TypeAnswer,
)
from pi_ask.state.dialog_answers import choose_only, submit_answers, type_answer
from pi_ask.state.dismissal import abort, request_cancel
from pi_ask.state.editors import (
    close_editor,
    editor_navigate,
    open_option_note,
    open_question_note,
    submit_editor,
)
from pi_ask.state.model import AskState, Behaviour, EditAnswer, EditNote
from pi_ask.state.navigation import move_option, move_tab
from pi_ask.state.opening import auto_open
from pi_ask.state.question_types import TYPE_CHANGE_CONFIRM_NOTICE, change_question_type
from pi_ask.state.remote_answers import replace_answers
from pi_ask.state.selectors import (
    has_any_notes,
    is_answered,
    is_review_tab,
)

# Commands a face sends only while no editor is open (its keys go to the editor then).
_NAVIGATION_COMMANDS = (
    MoveTab,
    MoveOption,
    Confirm,
    Toggle,
    Digit,
    ChangeQuestionType,
    OpenQuestionNote,
    OpenOptionNote,
)


def apply(state: AskState, command: Command, behaviour: Behaviour) -> AskState:
    """Apply one command and the shared controller rules; a completed flow never changes.

    Args:
        state: The current state.
        command: What the face asks for.
        behaviour: The live behaviour settings.

    Returns:
        The new state. ``completed`` set means the face closes the flow and builds the
        result with ``build_result``.
    """
    if state.completed:
        return state
    after = _transition(state, command, behaviour)
    after = _clear_pending(after, command)
    if after.tab != state.tab:
        after = after._replace(notice=None, config_notice=None, pending_dismiss=False)
    after = _update_suppression(state, after, command)
    return _auto_submit(auto_open(after), behaviour)


def _transition(state: AskState, command: Command, behaviour: Behaviour) -> AskState:
    editing = isinstance(state.view, EditAnswer | EditNote)
    if editing and isinstance(command, _NAVIGATION_COMMANDS):
        return state
    match command:
        case MoveTab(delta=delta):
            return move_tab(state, delta)
        case MoveOption(delta=delta):
            return move_option(state, delta)
        case Confirm():
            return confirm(state)
        case Toggle():
            return toggle(state)
        case Digit(digit=digit):
            return press_digit(state, digit, behaviour)
        case Cancel(editor_text=text) | Dismiss(editor_text=text):
            return request_cancel(state, text, behaviour)
        case Abort(reason=reason):
            return abort(state, reason)
        case ChangeQuestionType():
            return change_question_type(state)
        case OpenQuestionNote():
            return open_question_note(state)
        case OpenOptionNote():
            return open_option_note(state)
        case SubmitEditor(text=text):
            return submit_editor(state, text)
        case CloseEditor(text=text):
            return close_editor(state, text)
        case EditorNavigate(text=text, move=move):
            return editor_navigate(state, text, move)
        case BehaviourChanged(config_notice=notice):
            return state._replace(config_notice=notice)
        case ReplaceAnswers(answers=answers, mode=mode):
            return replace_answers(state, answers, mode)
        case ChooseOnly(question_id=question_id, value=value):
            return choose_only(state, question_id, value)
        case TypeAnswer(question_id=question_id, text=text):
            return type_answer(state, question_id, text)
        case SubmitAnswers():
            return submit_answers(state)
        case AttachFile(question_id=question_id, attachment=attachment):
            return attach_file(state, question_id, attachment)
        case DetachFile(question_id=question_id, path=path):
            return detach_file(state, question_id, path)


def _clear_pending(after: AskState, command: Command) -> AskState:
    """Any other action disarms a pending type change or review double-press (§5.8, §6.5).

    Opening settings (which reaches the engine only as ``BehaviourChanged``) does not.
    """
    if isinstance(command, BehaviourChanged):
        return after
    if not isinstance(command, ChangeQuestionType) and after.pending_type_change is not None:
        # The confirmation notice would be a lie once the next press starts over.
        notice = None if after.notice == TYPE_CHANGE_CONFIRM_NOTICE else after.notice
        after = after._replace(pending_type_change=None, notice=notice)
    if not isinstance(command, Digit) and after.pending_review_digit is not None:
        after = after._replace(pending_review_digit=None)
    return after


def _update_suppression(before: AskState, after: AskState, command: Command) -> AskState:
    """Esc on an editor suppresses the answer editor's auto-open until the next commit."""
    if isinstance(command, CloseEditor) and isinstance(before.view, EditAnswer | EditNote):
        return after._replace(suppress_auto_open=True)
    if after.suppress_auto_open and _is_commit(before, after):
        return after._replace(suppress_auto_open=False)
    return after


def _is_commit(before: AskState, after: AskState) -> bool:
    """True when the cursor, the view, a question or an answer changed."""
    return (before.tab, before.row, before.action, before.view) != (
        after.tab,
        after.row,
        after.action,
        after.view,
    ) or (before.answers, before.questions) != (after.answers, after.questions)


def _auto_submit(state: AskState, behaviour: Behaviour) -> AskState:
    """Complete as submit on a fully answered, note-free review tab when enabled (§5.10)."""
    if not behaviour.auto_submit_when_answered_without_notes or state.completed:
        return state
    if not is_review_tab(state) or has_any_notes(state):
        return state
    if all(is_answered(state, q.id) for q in state.questions):
        return state._replace(completed=True, mode="submit")
    return state
