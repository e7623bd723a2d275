"""The view model of one ask: what the page draws, as JSON-ready values (python-port.md §12).

Everything comes from the engine's state and selectors, so the page holds no flow rule: the
tab shown, the rows and their marks, the open editor and its text, the review entries and the
notice are the state's own. Text is handed over unchanged; the page sets it as text, never
as markup. A prompt, description or preview with Markdown also goes as sanitized HTML
(``promptHtml``, ``descriptionHtml``, ``previewHtml``: ``pi_ask.markdown.html``, raw HTML
escaped), the only markup the page inserts.
"""

from __future__ import annotations

from functools import lru_cache

from pi_ask.contract.attachments import size_text
from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import Question
from pi_ask.i18n import gettext
from pi_ask.state.model import REVIEW_ACTIONS, Answer, AskState, Behaviour, EditAnswer, EditNote
from pi_ask.state.review_tab import review_entries
from pi_ask.state.selectors import (
    answer_for,
    current_question,
    editor_draft,
    footer_notice,
    is_answered,
    is_row_selected,
    question_rows,
    review_hint,
)
from pi_ask.words import NOT_SENT, REQUIRED, shown

PREVIEW_HTML_LINES = 2_000
"""A longer preview goes as text only: rendering it whole on every view would cost seconds."""


def _shown(text: str | None) -> str | None:
    """An engine notice or hint in the user's language (the page shows it as it comes)."""
    return shown(text) if text else text


def view_model(state: AskState, behaviour: Behaviour) -> JsonObject:
    """The page's view of ``state``: tabs, the active question or the review, the editor."""
    question = current_question(state)
    out: JsonObject = {
        "title": state.title,
        "tab": state.tab,
        "tabs": [{"label": q.label, "answered": is_answered(state, q.id)} for q in state.questions],
        "notice": _shown(footer_notice(state)),
        "completed": state.completed,
        "editor": _editor(state),
    }
    if question is None:
        out["review"] = _review(state, behaviour)
    else:
        out["question"] = _question(state, question)
    return out


def _question(state: AskState, question: Question) -> JsonObject:
    answer = answer_for(state, question.id)
    rows = []
    for position, row in enumerate(question_rows(question)):
        item: JsonObject = {
            "row": position,
            "number": row.number,
            "label": shown(row.label) if row.is_custom else row.label,
            "custom": row.is_custom,
            "selected": is_row_selected(state, question, row),
        }
        if row.option is not None:
            item["value"] = row.value
            if row.option.description:
                item["description"] = row.option.description
                _add_html(item, "descriptionHtml", row.option.description)
            if row.option.preview:
                item["preview"] = row.option.preview
                if row.option.preview.count("\n") < PREVIEW_HTML_LINES:
                    _add_html(item, "previewHtml", row.option.preview)
            if row.option.recommended:
                item["recommended"] = True
            note = answer.option_note(row.value) if answer is not None else None
            if note:
                item["note"] = note
        elif answer is not None and answer.custom_text:
            item["text"] = answer.custom_text
        rows.append(item)
    out: JsonObject = {
        "id": question.id,
        "label": question.label,
        "prompt": question.prompt,
        "type": question.type,
        "requestedType": question.requested_type,
        "required": question.required,
        "freeform": question.is_freeform,
        "cursor": state.row,
        "rows": rows,
        "note": answer.note if answer is not None else None,
        "files": _files(answer),
    }
    _add_html(out, "promptHtml", question.prompt)
    return out


def _files(answer: Answer | None) -> list[JsonObject]:
    """The answer's attached files as the page lists them (never their path here)."""
    items = answer.attachments if answer is not None else ()
    return [{"name": item.name, "size": size_text(item.size)} for item in items]


def _add_html(item: JsonObject, key: str, text: str) -> None:
    html = _markdown_html(text)
    if html is not None:
        item[key] = html


def _markdown_html(text: str) -> str | None:
    from pi_ask.markdown.scan import has_markdown
    from pi_ask.markdown.switch import markdown_enabled

    if not markdown_enabled() or not has_markdown(text):
        return None
    return _html(text)


@lru_cache(maxsize=256)
def _html(text: str) -> str:
    from pi_ask.markdown.html import to_html

    return to_html(text)


def _editor(state: AskState) -> JsonObject | None:
    view = state.view
    if isinstance(view, EditAnswer):
        return {"kind": "answer", "question": view.question_id, "text": editor_draft(state)}
    if isinstance(view, EditNote):
        return {
            "kind": "note",
            "question": view.question_id,
            "option": view.option_value,
            "text": editor_draft(state),
        }
    return None


def _review(state: AskState, behaviour: Behaviour) -> JsonObject:
    entries = []
    for question, entry in zip(state.questions, review_entries(state), strict=True):
        entries.append(
            {
                "label": entry.label,
                "choices": [{"label": c.label, "note": c.note} for c in entry.choices],
                "customOnly": entry.custom_only,
                "note": entry.note,
                "otherNotes": [{"label": label, "note": note} for label, note in entry.other_notes],
                # The review tab's own: notes on options not chosen, which Submit leaves out.
                "notSent": [{"label": label, "note": note} for label, note in entry.unsent_notes],
                "unanswered": entry.is_unanswered,
                "required": entry.required and entry.is_unanswered,
                "files": _files(answer_for(state, question.id)),
            }
        )
    return {
        "entries": entries,
        "actions": list(REVIEW_ACTIONS),
        "action": state.action,
        "hint": _shown(review_hint(state, behaviour)),
        "notSentMark": gettext(NOT_SENT),
        "requiredMark": shown(REQUIRED),
    }
