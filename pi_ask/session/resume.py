"""``pi-ask resume``: asks that were opened and never finished, with their latest drafts.

An ask is resumable while nothing closed it: no ``ask:pending-dismissed`` entry for its id and,
in a pi session, no tool result for its tool call. Our own logs offer every such
``ask:payload``; a pi session offers its interrupted ``ask_user`` tool calls (contract.md
"Replay and resume"). Dismissals and drafts for a pi session live in our log, so all
files are read together.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.payload import Question, QuestionType
from pi_ask.i18n import N_, gettext
from pi_ask.session.drafts import AnswerMap, Draft, read_draft
from pi_ask.session.entries import (
    PayloadRecord,
    now_ms,
    read_dismissed,
    read_payload,
    read_unreached,
)
from pi_ask.session.log import Entry, SessionFile
from pi_ask.session.replay import revalidate
from pi_ask.state.model import Answer, Selection
from pi_ask.words import question_count

NO_RESUME = N_("No unanswered ask_user form found.")


def reopening_notice(count: int) -> str:
    """The info line shown when an unanswered form reopens."""
    text = gettext("Reopening unanswered ask_user form: {questions}.")
    return text.format(questions=question_count(count))


RESUME_CANCELLED = N_("Unanswered ask_user form dismissed; use pi-ask replay to reopen it.")


def unknown_id_message(ask_id: str) -> str:
    """The line shown when ``pi-ask resume ID`` names no resumable ask."""
    text = gettext("No unanswered ask with id {ask_id}; run pi-ask resume --list to see them.")
    return text.format(ask_id=repr(ask_id))


@dataclass(frozen=True, slots=True)
class Resumable:
    """An unfinished ask: its id, its payload (valid today) and its latest draft."""

    ask_id: str
    loaded: LoadedPayload
    source: str
    timestamp_ms: int
    path: Path
    draft: Draft | None = None
    unreached: bool = False  # it ended ``no_terminal``: no terminal ever showed it

    def is_stale(self, now: int | None = None) -> bool:
        """True for an ask that reached no terminal, has no draft, and was asked over
        ``STALE_AFTER_MS`` ago: ``resume --list`` leaves it out unless ``--stale``."""
        now = now_ms() if now is None else now
        return self.unreached and self.draft is None and now - self.timestamp_ms > STALE_AFTER_MS


STALE_AFTER_MS = 24 * 60 * 60 * 1000


def find_resumables(
    files: Iterable[SessionFile], *, present_single_as_multi: bool = False
) -> tuple[Resumable, ...]:
    """Every resumable ask on the current branches of ``files``, newest first.

    Args:
        files: the session files to read together (a pi session and our log).
        present_single_as_multi: the current setting, applied when revalidating.
    """
    sessions = tuple(files)
    branches = [session.branch() for session in sessions]
    closed = {ask_id for branch in branches for ask_id in _closed_ids(branch)}
    drafts = _latest_drafts(entry for branch in branches for entry in branch)
    unreached = {i for branch in branches for e in branch if (i := read_unreached(e)) is not None}
    found: dict[str, Resumable] = {}
    for session, branch in zip(sessions, branches, strict=True):
        skip = closed | found.keys()
        for item in _candidates(session, branch, skip, present_single_as_multi):
            if item.ask_id in found:
                continue
            draft = drafts.get(item.ask_id)
            found[item.ask_id] = replace(item, draft=draft, unreached=item.ask_id in unreached)
    return tuple(sorted(found.values(), key=lambda r: r.timestamp_ms, reverse=True))


def listed(resumables: tuple[Resumable, ...], *, stale: bool = False) -> tuple[Resumable, ...]:
    """The asks ``resume --list`` shows, newest first: every one with ``stale``, else all
    but the stale ones (``Resumable.is_stale``)."""
    return resumables if stale else tuple(r for r in resumables if not r.is_stale())


def pick(
    resumables: tuple[Resumable, ...], wanted: str | None, *, stale: bool = False
) -> Resumable | None:
    """The newest ask ``resume --list`` (``--stale``) shows, or the resumable ask whose id
    is (or uniquely starts with) ``wanted``, stale or not."""
    if wanted is None:
        shown = listed(resumables, stale=stale)
        return shown[0] if shown else None
    exact = [r for r in resumables if r.ask_id == wanted]
    if exact:
        return exact[0]
    prefixed = [r for r in resumables if r.ask_id.startswith(wanted)]
    return prefixed[0] if len(prefixed) == 1 else None


def _closed_ids(branch: tuple[Entry, ...]) -> Iterator[str]:
    for entry in branch:
        dismissed = read_dismissed(entry)
        if dismissed is not None:
            yield dismissed
        message = _message(entry)
        if message is not None and message.get("role") == "toolResult":
            tool_call_id = message.get("toolCallId")
            if isinstance(tool_call_id, str):
                yield tool_call_id


def _latest_drafts(entries: Iterable[Entry]) -> dict[str, Draft]:
    latest: dict[str, Draft] = {}
    for entry in entries:
        draft = read_draft(entry)
        if draft is None:
            continue
        known = latest.get(draft.ask_id)
        if known is None or draft.timestamp_ms >= known.timestamp_ms:
            latest[draft.ask_id] = draft
    return latest


def _candidates(
    session: SessionFile,
    branch: tuple[Entry, ...],
    skip: set[str],
    present_single_as_multi: bool,
) -> Iterator[Resumable]:
    """Payload entries (newest first), then pi ``ask_user`` tool calls with no payload entry.

    Asks in ``skip`` (closed, or already found) are passed over before any validation.
    """
    payloads: dict[str, PayloadRecord] = {}
    for entry in reversed(branch):
        record = read_payload(entry)
        if record is None or record.ask_id is None or record.ask_id in skip:
            continue
        loaded = revalidate(record, present_single_as_multi=present_single_as_multi)
        if loaded is None or record.ask_id in payloads:
            continue
        payloads[record.ask_id] = record
        if record.source == "tool" or not _is_pi_session(session):
            yield Resumable(
                record.ask_id, loaded, str(record.source), record.timestamp_ms, session.path
            )
    yield from _interrupted_tool_calls(session, branch, skip, present_single_as_multi)


def _interrupted_tool_calls(
    session: SessionFile,
    branch: tuple[Entry, ...],
    skip: set[str],
    present_single_as_multi: bool,
) -> Iterator[Resumable]:
    for entry in reversed(branch):
        message = _message(entry)
        if message is None or message.get("role") != "assistant":
            continue
        if message.get("stopReason") != "toolUse":
            continue
        content = message.get("content")
        calls = [
            block
            for block in (content if isinstance(content, list) else [])
            if isinstance(block, dict)
            and block.get("type") == "toolCall"
            and block.get("name") == "ask_user"
            and isinstance(block.get("id"), str)
            and block["id"] not in skip
        ]
        stamp = message.get("timestamp")
        for call in reversed(calls):
            loaded = load_payload(
                call.get("arguments"), present_single_as_multi=present_single_as_multi
            )
            if isinstance(loaded, LoadedPayload):
                yield Resumable(
                    str(call["id"]),
                    loaded,
                    "tool",
                    stamp if type(stamp) is int else 0,
                    session.path,
                )


def _is_pi_session(session: SessionFile) -> bool:
    return any(entry.type == "message" for entry in session.entries)


def _message(entry: Entry) -> dict[str, object] | None:
    if entry.type != "message":
        return None
    message = entry.raw.get("message")
    return message if isinstance(message, dict) else None


def restore(loaded: LoadedPayload, draft: Draft | None) -> tuple[LoadedPayload, AnswerMap]:
    """The payload as the draft presented it, and the draft's answers fitted to it.

    Question types changed in the flow come back; answers for questions or options that no
    longer exist are dropped, and labels and row numbers are taken from today's payload.
    """
    if draft is None:
        return loaded, ()
    types = dict(draft.presented_types)
    questions = tuple(_presented(q, types.get(q.id)) for q in loaded.payload.questions)
    payload = loaded.payload._replace(questions=questions)
    answers: list[tuple[str, Answer]] = []
    for question in questions:
        answer = dict(draft.answers).get(question.id)
        fitted = _fit(question, answer) if answer is not None else None
        if fitted is not None:
            answers.append((question.id, fitted))
    return LoadedPayload(payload, loaded.params), tuple(answers)


def _presented(question: Question, wanted: QuestionType | None) -> Question:
    kind = wanted or question.requested_type
    legal = ("preview", "multi") if question.requested_type == "preview" else ("single", "multi")
    return question._replace(type=kind) if kind in legal else question


def _fit(question: Question, answer: Answer) -> Answer | None:
    """The draft's answer as the engine could have made it: a hand-edited or damaged draft
    never gives a result the flow itself could not (trimmed text, no repeats, one choice on
    a single or preview question)."""
    rows = {option.value: (n, option) for n, option in enumerate(question.options, start=1)}
    values = dict.fromkeys(s.value for s in answer.selected if s.value in rows)
    selected = tuple(Selection(v, rows[v][1].label, rows[v][0]) for v in values)
    custom_text = _text(answer.custom_text)
    custom_selected = answer.custom_selected and custom_text is not None
    if question.type != "multi" and selected:
        # One choice on a single question: the option wins over selected custom text, whose
        # text stays (a type change can leave it there, unselected).
        selected, custom_selected = selected[:1], False
    notes: dict[str, str] = {}
    for value, note in answer.option_notes:
        text = _text(note)
        if value in rows and text is not None:
            notes.setdefault(value, text)
    fitted = Answer(
        selected=selected,
        custom_text=custom_text,
        custom_selected=custom_selected,
        note=_text(answer.note),
        option_notes=tuple(notes.items()),
        attachments=_attachments(answer),
    )
    return None if fitted.is_empty else fitted


def _attachments(answer: Answer) -> tuple[Attachment, ...]:
    """The draft's attached files whose copies are still there, each once (a pending ask's
    reader checks them further: ``relay.attached_files``)."""
    kept: dict[str, Attachment] = {}
    for item in answer.attachments:
        if item.path not in kept and os.path.isfile(item.path):
            kept[item.path] = item
    return tuple(kept.values())


def _text(text: str | None) -> str | None:
    """Saved text as every editor save path leaves it: trimmed, and blank means none."""
    stripped = text.strip() if text is not None else ""
    return stripped or None
