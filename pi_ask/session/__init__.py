"""Session log, payload persistence, replay, resume and ``pi-ask answer`` extraction.

The public names are loaded on first use: ``pi_ask.session.commands`` is imported at every
start of ``pi-ask`` and must not pull in the log, the extractors or ``openai``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

__all__ = [
    "AskRecorder",
    "AssistantMessage",
    "Draft",
    "ExtractionError",
    "ExtractorUnavailable",
    "NothingToReplay",
    "Replay",
    "Resumable",
    "SessionFile",
    "SessionLog",
    "extract_form",
    "extract_offline",
    "find_message",
    "find_replay",
    "find_resumables",
    "payload_source_for",
    "read_files",
    "read_session",
    "restore",
]

if TYPE_CHECKING:
    from pi_ask.session.answer_form import extract_form
    from pi_ask.session.answer_source import AssistantMessage, find_message
    from pi_ask.session.entries import Draft
    from pi_ask.session.extraction import ExtractionError, ExtractorUnavailable
    from pi_ask.session.log import SessionFile, SessionLog, read_session
    from pi_ask.session.offline_extractor import extract_offline
    from pi_ask.session.recorder import AskRecorder, payload_source_for
    from pi_ask.session.replay import NothingToReplay, Replay, find_replay, read_files
    from pi_ask.session.resume import Resumable, find_resumables, restore

_HOMES = {
    "AskRecorder": "pi_ask.session.recorder",
    "payload_source_for": "pi_ask.session.recorder",
    "AssistantMessage": "pi_ask.session.answer_source",
    "find_message": "pi_ask.session.answer_source",
    "Draft": "pi_ask.session.entries",
    "ExtractionError": "pi_ask.session.extraction",
    "ExtractorUnavailable": "pi_ask.session.extraction",
    "extract_form": "pi_ask.session.answer_form",
    "extract_offline": "pi_ask.session.offline_extractor",
    "SessionFile": "pi_ask.session.log",
    "SessionLog": "pi_ask.session.log",
    "read_session": "pi_ask.session.log",
    "NothingToReplay": "pi_ask.session.replay",
    "Replay": "pi_ask.session.replay",
    "find_replay": "pi_ask.session.replay",
    "read_files": "pi_ask.session.replay",
    "Resumable": "pi_ask.session.resume",
    "find_resumables": "pi_ask.session.resume",
    "restore": "pi_ask.session.resume",
}


__getattr__ = lazy_names(__name__, _HOMES)
