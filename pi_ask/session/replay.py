"""``pi-ask replay`` and ``pi-ask answer --again``: the latest valid form on the current branch.

Only the current branch of each file is scanned (siblings and abandoned branches are
ignored), newest first; a stored payload is revalidated before it may open (behaviour.md
§14.2). When both a pi session and our log are read, the newest valid payload wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.i18n import N_, gettext
from pi_ask.session.entries import (
    RECENT_ASKS,
    RECENT_BYTES,
    PayloadRecord,
    PayloadSource,
    is_payload_line,
    read_payload,
)
from pi_ask.session.locations import is_own_file
from pi_ask.session.log import SessionFile, read_session, read_tail
from pi_ask.words import question_count

NO_REPLAY = N_("No previous ask_user form found.")
NO_AGAIN = N_("No previous pi-ask answer form found; use pi-ask answer first.")
INCOMPATIBLE = N_("A previous form was found but is no longer valid.")


def replaying_notice(source: PayloadSource, count: int, path: Path) -> str:
    """The info line shown when a previous form reopens, naming the log it came from."""
    from pi_ask.config.paths import display_path

    where = display_path(path)
    if source == "answer-extraction":
        text = gettext("Reopening the previous pi-ask answer form from {where}: {questions}.")
    else:
        text = gettext("Replaying the previous ask_user form from {where}: {questions}.")
    return text.format(where=where, questions=question_count(count))


@dataclass(frozen=True, slots=True)
class Replay:
    """A stored form that is still valid: what to open, and where it was found."""

    loaded: LoadedPayload
    record: PayloadRecord
    path: Path


@dataclass(frozen=True, slots=True)
class NothingToReplay:
    """No valid form: ``message`` is the line to show."""

    message: str


def read_files(paths: Iterable[Path]) -> tuple[SessionFile, ...]:
    """Read each session file; one that cannot be read counts as empty.

    Our own logs are read from the end, back to their newest ``RECENT_ASKS`` asks (the
    retention window); pi's session files are read whole.
    """
    files: list[SessionFile] = []
    for path in paths:
        try:
            files.append(read_recent(path) if is_own_file(path) else read_session(path))
        except OSError:
            files.append(SessionFile(path))
    return tuple(files)


def read_recent(path: Path) -> SessionFile:
    """The retention window of one of our logs: its newest asks (``entries.RECENT_ASKS``)."""
    return read_tail(path, starts=is_payload_line, count=RECENT_ASKS, max_bytes=RECENT_BYTES)


def find_replay(
    files: Iterable[SessionFile],
    source: PayloadSource,
    *,
    present_single_as_multi: bool = False,
) -> Replay | NothingToReplay:
    """The newest valid ``ask:payload`` of ``source`` on the current branches of ``files``.

    Args:
        files: the session files to read (``read_files``).
        source: ``"tool"`` for ``pi-ask replay``, ``"answer-extraction"`` for ``--again``.
        present_single_as_multi: the current setting, applied when revalidating.

    Returns:
        The form to open, or the message saying why there is none.
    """
    best: Replay | None = None
    saw_invalid = False
    for session in files:
        found, invalid = _newest_valid(session, source, present_single_as_multi)
        saw_invalid = saw_invalid or invalid
        if found is not None and (
            best is None or found.record.timestamp_ms > best.record.timestamp_ms
        ):
            best = found
    if best is not None:
        return best
    if saw_invalid:
        return NothingToReplay(INCOMPATIBLE)
    return NothingToReplay(NO_AGAIN if source == "answer-extraction" else NO_REPLAY)


def _newest_valid(
    session: SessionFile, source: PayloadSource, present_single_as_multi: bool
) -> tuple[Replay | None, bool]:
    saw_invalid = False
    for entry in reversed(session.branch()):
        record = read_payload(entry)
        if record is None or record.source != source:
            continue
        loaded = revalidate(record, present_single_as_multi=present_single_as_multi)
        if loaded is None:
            saw_invalid = True
            continue
        return Replay(loaded, record, session.path), saw_invalid
    return None, saw_invalid


def revalidate(
    record: PayloadRecord, *, present_single_as_multi: bool = False
) -> LoadedPayload | None:
    """Load a stored payload again; ``None`` when it is no longer a valid form.

    Freeform options are allowed only in ``answer-extraction`` payloads.
    """
    # A string would be parsed as JSON text by load_payload; stored params are objects.
    if not record.is_current or not isinstance(record.params, dict):
        return None
    loaded = load_payload(
        record.params,
        present_single_as_multi=present_single_as_multi,
        allow_freeform=record.source == "answer-extraction",
    )
    return loaded if isinstance(loaded, LoadedPayload) else None
