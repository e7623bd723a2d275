"""Result text: the summary handed to the agent (§4.6) and the transcript lines (§4.7).

Both read only the result details, so every face (TUI, RPC dialogs, remote) shares them.
The summary is for the agent and stays English whatever the user's language; the transcript
is for the user, and a face hands ``transcript_lines`` its ``gettext`` to word it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal

from pi_ask.contract.attachments import Attachment, size_text
from pi_ask.contract.payload import Question
from pi_ask.contract.results import AnswerRecord, ElaborationItem, ResultDetails, ToolResult

CANCELLED_TEXT = "User cancelled the ask flow"
ABORTED_TEXT = (
    "The ask flow was aborted before the user finished: the host or a signal ended it. "
    "Do not assume any answer; ask again if the decision still matters."
)
# The reference's non-interactive lines (behaviour.md §3.1), word for word, around the list.
PENDING_HEADING = (
    "Needs user input: ask_user requires interactive TUI mode.",
    "Run same tool call in interactive TUI mode, or ask user these questions manually:",
)
PENDING_FOOTER = (
    "details.questions contains normalized pending questions. "
    "details.answers stays empty until user responds."
)
# The one line python-port.md §11 adds after them, per reason.
REASON_LINES = {
    "no_terminal": (
        "No terminal could reach the user (reason: no_terminal). Do not assume any answer; "
        "ask the user these questions in plain text, or call ask_user again when they can "
        "answer."
    ),
    "timeout": (
        "The user did not answer before the ask's deadline (reason: timeout). Do not assume "
        "any answer; ask the user these questions in plain text, or call ask_user again."
    ),
}
PRESENTATION_NOTE = "Note: Some questions were presented as multi-select by user preference."

TranscriptRole = Literal["text", "success", "warning", "muted"]
TranscriptLine = tuple[TranscriptRole, str]


def summary_text(details: ResultDetails) -> str:
    """The ``content[0].text`` of a flow result (§4.6).

    Args:
        details: The result details.

    Returns:
        ``User cancelled the ask flow``, the per-question submit summary, or the
        elaboration requests.
    """
    if details.cancelled:
        return _cancelled_text(details)
    if details.mode == "elaborate":
        return "\n".join(_elaborate_lines(details))
    return "\n".join(_submit_lines(details)) or "User submitted the ask flow"


def _english(message: str) -> str:
    return message


def transcript_lines(
    result: ToolResult, gettext: Callable[[str], str] = _english
) -> tuple[TranscriptLine, ...]:
    """How a result is shown in a transcript, as (style role, text) lines (§4.7).

    ``gettext`` words the fixed text in the user's language (the face passes
    ``pi_ask.i18n.gettext``; the engine itself reads no catalogue). The elaboration lines
    are the agent's summary lines and stay English.
    """
    details = result.details
    if details.error_issues is not None:
        return (("warning", gettext("Invalid tool payload")),)
    if details.cancelled:
        reasons = {
            "timeout": gettext("Timed out"),
            "aborted": gettext("Aborted"),
            "no_terminal": gettext("Not asked"),
        }
        return (("warning", reasons.get(details.reason or "", gettext("Cancelled"))),)
    if details.mode == "elaborate":
        lines: list[TranscriptLine] = [("text", line) for line in _elaborate_lines(details)]
        return tuple(lines) or (("text", gettext("Elaboration requested")),)
    return _submit_transcript(details, gettext) or (("text", gettext("Submitted")),)


def _cancelled_text(details: ResultDetails) -> str:
    """The text of a cancelled result, by its reason (python-port.md §11)."""
    if details.reason == "aborted":
        return ABORTED_TEXT
    reason_line = REASON_LINES.get(details.reason or "")
    if reason_line is None:
        return CANCELLED_TEXT
    lines = list(PENDING_HEADING)
    for number, question in enumerate(details.questions, start=1):
        lines.append(f"{number}. {question.label}: {question.prompt}")
        lines.extend(f"   - {o.label} [{o.value}]" for o in question.options if not o.freeform)
        lines.append("   - Type your own [custom]")
    lines.extend((PENDING_FOOTER, reason_line))
    return "\n".join(lines)


def _submit_lines(details: ResultDetails) -> list[str]:
    lines: list[str] = []
    for question in details.questions:
        record = details.answer(question.id)
        answer_text = ", ".join(record.labels) if record else ""
        lines.append(f"{question.label}: {answer_text or '(no answer)'}")
        if record is None:
            continue
        if record.note is not None:
            lines.append(f"{question.label} note: {record.note}")
        lines.extend(
            f"{question.label} / {label} note: {note}"
            for label, note in _selected_option_notes(question, record)
        )
        lines.extend(_attached_lines(record))
    if _has_presentation_override(details):
        lines.append(PRESENTATION_NOTE)
    return lines


def _attached_lines(record: AnswerRecord) -> list[str]:
    """``  attached: name (size)`` per file, so a model that reads only text knows of them
    (python-port.md §12); the path is in the details."""
    return [f"  attached: {_attached_file(item)}" for item in record.attachments]


def _attached_file(item: Attachment) -> str:
    return f"{item.name} ({size_text(item.size)})"


def _submit_transcript(
    details: ResultDetails, gettext: Callable[[str], str]
) -> tuple[TranscriptLine, ...]:
    lines: list[TranscriptLine] = []
    for question in details.questions:
        record = details.answer(question.id)
        if record is not None and record.labels:
            wrote = gettext("(wrote)") + " " if not record.indices and record.custom_text else ""
            lines.append(("success", f"✓ {question.label}: {wrote}{', '.join(record.labels)}"))
        else:
            lines.append(("muted", f"? {question.label}: " + gettext("(no answer)")))
        if record is None:
            continue
        if record.note is not None:
            lines.append(("muted", "  " + gettext("note: {note}").format(note=record.note)))
        lines.extend(
            ("muted", "  " + gettext("{option} note: {note}").format(option=label, note=note))
            for label, note in _selected_option_notes(question, record)
        )
        lines.extend(
            ("muted", "  " + gettext("attached: {file}").format(file=_attached_file(item)))
            for item in record.attachments
        )
    if _has_presentation_override(details):
        # PRESENTATION_NOTE's words, for the user (the agent's summary keeps them English).
        note = gettext("Note: Some questions were presented as multi-select by user preference.")
        lines.append(("muted", f"  {note}"))
    return tuple(lines)


def _selected_option_notes(question: Question, record: AnswerRecord) -> list[tuple[str, str]]:
    """(option label, note) for each selected option with a note, in selection order."""
    notes = dict(record.option_notes)
    labels = {o.value: o.label for o in question.options}
    # The option values come first in ``values``; a custom text after them is not an option.
    chosen = record.values[: len(record.indices)]
    return [(labels.get(v, v), notes[v]) for v in chosen if v in notes]


def _has_presentation_override(details: ResultDetails) -> bool:
    """True when a question that has an answer entry was presented differently."""
    answered = set(details.answers)
    return any(q.presented_type is not None and q.id in answered for q in details.questions)


def _elaborate_lines(details: ResultDetails) -> list[str]:
    items = details.elaboration.items if details.elaboration is not None else ()
    if items:
        return [_item_line(item) for item in items]
    lines = [
        f"User asked to elaborate on question {_quote(q.prompt)} "
        f"after current answer {_quote(', '.join(record.labels))}"
        for q in details.questions
        if (record := details.answer(q.id)) is not None and record.is_committed
    ]
    return lines or ["User asked for elaboration based on notes"]


def _item_line(item: ElaborationItem) -> str:
    target = f"question {_quote(item.question.prompt)}"
    if item.option is not None:
        target += f" option {_quote(item.option.label)}"
    labels = item.answer.labels if item.answer is not None else ()
    context = f" after current answer {_quote(', '.join(labels))}" if labels else ""
    return f"User asked to elaborate on {target}{context} with note {_quote(item.note)}"


def _quote(text: str) -> str:
    """JSON string quoting, as the reference's summaries use (non-ASCII kept)."""
    return json.dumps(text, ensure_ascii=False)
