"""Pure ask-flow state: commands, the ``apply`` dispatcher, selectors and result building.

Imports only the standard library and ``pi_ask.contract``: no I/O, no prompt_toolkit, no
config. A face builds a state with ``new_state``, sends every key as a command through
``apply``, draws from the selectors, and once ``completed`` returns ``build_result``.

The public names load on first use: ``config.settings`` needs ``Behaviour`` on every start,
and ``pi-ask ask --ui none`` never needs the commands and transitions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A function named like its submodule is bound at once: importing the submodule later would
# otherwise set the package attribute to the module, hiding the function from ``__getattr__``.
from pi_ask.state.review_entries import review_entries

if TYPE_CHECKING:
    from pi_ask.state.commands import (
        Abort,
        BehaviourChanged,
        Cancel,
        ChangeQuestionType,
        CloseEditor,
        Command,
        Confirm,
        Digit,
        Dismiss,
        EditorNavigate,
        MoveOption,
        MoveTab,
        OpenOptionNote,
        OpenQuestionNote,
        ReplaceAnswers,
        SubmitEditor,
        SubmittedAnswer,
        Toggle,
    )
    from pi_ask.state.dismissal import DISMISS_NOTICE
    from pi_ask.state.flow import apply, new_state
    from pi_ask.state.model import (
        CUSTOM_LABEL,
        CUSTOM_VALUE,
        FREEFORM_LABEL,
        REVIEW_ACTIONS,
        Answer,
        AskState,
        Behaviour,
        EditAnswer,
        EditNote,
        Navigate,
        Review,
        Selection,
        View,
    )
    from pi_ask.state.question_types import TYPE_CHANGE_CONFIRM_NOTICE, type_changed_notice
    from pi_ask.state.results import build_result, non_interactive_result, serialize_answer
    from pi_ask.state.review_entries import ReviewChoice, ReviewEntry
    from pi_ask.state.selectors import (
        REVIEW_IDLE_HINT,
        Row,
        TabState,
        answer_for,
        current_question,
        current_row,
        editor_draft,
        footer_notice,
        has_any_notes,
        is_answered,
        is_dirty,
        is_review_tab,
        is_row_selected,
        question_by_id,
        question_rows,
        review_hint,
        tab_states,
    )
    from pi_ask.state.summary import (
        CANCELLED_TEXT,
        PRESENTATION_NOTE,
        TranscriptLine,
        TranscriptRole,
        summary_text,
        transcript_lines,
    )

__all__ = [
    "CANCELLED_TEXT",
    "CUSTOM_LABEL",
    "CUSTOM_VALUE",
    "DISMISS_NOTICE",
    "FREEFORM_LABEL",
    "PRESENTATION_NOTE",
    "REVIEW_ACTIONS",
    "REVIEW_IDLE_HINT",
    "TYPE_CHANGE_CONFIRM_NOTICE",
    "Abort",
    "Answer",
    "AskState",
    "Behaviour",
    "BehaviourChanged",
    "Cancel",
    "ChangeQuestionType",
    "CloseEditor",
    "Command",
    "Confirm",
    "Digit",
    "Dismiss",
    "EditAnswer",
    "EditNote",
    "EditorNavigate",
    "MoveOption",
    "MoveTab",
    "Navigate",
    "OpenOptionNote",
    "OpenQuestionNote",
    "ReplaceAnswers",
    "Review",
    "ReviewChoice",
    "ReviewEntry",
    "Row",
    "Selection",
    "SubmitEditor",
    "SubmittedAnswer",
    "TabState",
    "Toggle",
    "TranscriptLine",
    "TranscriptRole",
    "View",
    "answer_for",
    "apply",
    "build_result",
    "current_question",
    "current_row",
    "editor_draft",
    "footer_notice",
    "has_any_notes",
    "is_answered",
    "is_dirty",
    "is_review_tab",
    "is_row_selected",
    "new_state",
    "non_interactive_result",
    "question_by_id",
    "question_rows",
    "review_entries",
    "review_hint",
    "serialize_answer",
    "summary_text",
    "tab_states",
    "transcript_lines",
    "type_changed_notice",
]

_HOMES = {
    "Abort": "pi_ask.state.commands",
    "BehaviourChanged": "pi_ask.state.commands",
    "Cancel": "pi_ask.state.commands",
    "ChangeQuestionType": "pi_ask.state.commands",
    "CloseEditor": "pi_ask.state.commands",
    "Command": "pi_ask.state.commands",
    "Confirm": "pi_ask.state.commands",
    "Digit": "pi_ask.state.commands",
    "Dismiss": "pi_ask.state.commands",
    "EditorNavigate": "pi_ask.state.commands",
    "MoveOption": "pi_ask.state.commands",
    "MoveTab": "pi_ask.state.commands",
    "OpenOptionNote": "pi_ask.state.commands",
    "OpenQuestionNote": "pi_ask.state.commands",
    "ReplaceAnswers": "pi_ask.state.commands",
    "SubmitEditor": "pi_ask.state.commands",
    "SubmittedAnswer": "pi_ask.state.commands",
    "Toggle": "pi_ask.state.commands",
    "DISMISS_NOTICE": "pi_ask.state.dismissal",
    "apply": "pi_ask.state.flow",
    "new_state": "pi_ask.state.flow",
    "CUSTOM_LABEL": "pi_ask.state.model",
    "CUSTOM_VALUE": "pi_ask.state.model",
    "FREEFORM_LABEL": "pi_ask.state.model",
    "REVIEW_ACTIONS": "pi_ask.state.model",
    "Answer": "pi_ask.state.model",
    "AskState": "pi_ask.state.model",
    "Behaviour": "pi_ask.state.model",
    "EditAnswer": "pi_ask.state.model",
    "EditNote": "pi_ask.state.model",
    "Navigate": "pi_ask.state.model",
    "Review": "pi_ask.state.model",
    "Selection": "pi_ask.state.model",
    "View": "pi_ask.state.model",
    "TYPE_CHANGE_CONFIRM_NOTICE": "pi_ask.state.question_types",
    "type_changed_notice": "pi_ask.state.question_types",
    "build_result": "pi_ask.state.results",
    "non_interactive_result": "pi_ask.state.results",
    "serialize_answer": "pi_ask.state.results",
    "ReviewChoice": "pi_ask.state.review_entries",
    "ReviewEntry": "pi_ask.state.review_entries",
    "review_entries": "pi_ask.state.review_entries",
    "REVIEW_IDLE_HINT": "pi_ask.state.selectors",
    "Row": "pi_ask.state.selectors",
    "TabState": "pi_ask.state.selectors",
    "answer_for": "pi_ask.state.selectors",
    "current_question": "pi_ask.state.selectors",
    "current_row": "pi_ask.state.selectors",
    "editor_draft": "pi_ask.state.selectors",
    "footer_notice": "pi_ask.state.selectors",
    "has_any_notes": "pi_ask.state.selectors",
    "is_answered": "pi_ask.state.selectors",
    "is_dirty": "pi_ask.state.selectors",
    "is_review_tab": "pi_ask.state.selectors",
    "is_row_selected": "pi_ask.state.selectors",
    "question_by_id": "pi_ask.state.selectors",
    "question_rows": "pi_ask.state.selectors",
    "review_hint": "pi_ask.state.selectors",
    "tab_states": "pi_ask.state.selectors",
    "CANCELLED_TEXT": "pi_ask.state.summary",
    "PRESENTATION_NOTE": "pi_ask.state.summary",
    "TranscriptLine": "pi_ask.state.summary",
    "TranscriptRole": "pi_ask.state.summary",
    "summary_text": "pi_ask.state.summary",
    "transcript_lines": "pi_ask.state.summary",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pi_ask.state' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)
