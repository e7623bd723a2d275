"""``AskRecorder``: what every face calls so an ask survives a dead terminal.

The host calls ``start`` before the face opens, the face ``draft`` on every committed change,
and the host ``settle`` with the result: a form submitted or cancelled is finished. A write
that fails turns drafts off for the rest of the ask and sets ``notice``; the flow itself
never sees an exception.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.contract.kinds import JsonObject
from pi_ask.i18n import gettext
from pi_ask.session.entries import (
    COMPACT_ABOVE,
    DISMISSED_TYPE,
    DRAFT_TYPE,
    PAYLOAD_TYPE,
    RECENT_ASKS,
    RECENT_BYTES,
    UNREACHED_TYPE,
    PayloadSource,
    dismissed_data,
    draft_data,
    is_payload_line,
    payload_data,
    unreached_data,
)
from pi_ask.session.locations import write_path
from pi_ask.session.log import SessionLog, random_uuid

if TYPE_CHECKING:
    from pi_ask.contract.results import ToolResult
    from pi_ask.state.model import AskState


def payload_source_for(flow_source: str) -> PayloadSource:
    """The ``ask:payload`` source of a flow started by ``flow_source``.

    ``answer`` and ``answer:again`` forms are ``answer-extraction`` (so ``pi-ask answer
    --again`` finds them, and their freeform options stay legal); everything else is ``tool``.
    """
    return "answer-extraction" if flow_source.startswith("answer") else "tool"


class AskRecorder:
    """The journal of one ask in a session log.

    Example:
        >>> recorder = AskRecorder.open()
        >>> ask_id = recorder.start(params, "tool")
        >>> recorder.sync()                # once the UI is up
        >>> recorder.draft(state)          # after each committed change
        >>> recorder.settle(result)        # finished when submitted or cancelled
    """

    def __init__(self, log: SessionLog | None, *, notice: str | None = None) -> None:
        """Record into ``log``; ``None`` records nothing (``notice`` then says why)."""
        self._log = log
        self.notice = notice
        # Why the log stopped being written (the notice's reason), for faces without a notice line.
        self.write_error: str | None = None
        self.ask_id: str | None = None
        self._last_draft: JsonObject | None = None
        self._finished = False

    @classmethod
    def open(cls, session: Path | None = None, *, cwd: Path | None = None) -> AskRecorder:
        """A recorder for the log of ``session`` (when it is ours) or of ``cwd``.

        Args:
            session: the ``--session`` file, if any; pi's files are never written.
            cwd: the working directory naming the default log (the current one by default).
        """
        where = cwd or Path.cwd()
        return cls(SessionLog(write_path(session, where), cwd=where))

    @property
    def drafts_enabled(self) -> bool:
        """False once the log could not be written (or was never available)."""
        return self._log is not None

    @property
    def path(self) -> Path | None:
        """The log file written to, while drafts are on."""
        return self._log.path if self._log is not None else None

    def start(self, params: object, source: PayloadSource, *, ask_id: str | None = None) -> str:
        """Begin recording an ask and return its id.

        Args:
            params: the payload as received after label preparation, not normalized.
            source: ``"tool"`` for ``ask_user`` payloads, ``"answer-extraction"`` for
                ``pi-ask answer`` forms.
            ask_id: the id of an ask being resumed: no new payload entry is written and its
                drafts and dismissal continue under that id.

        Returns:
            The ask id (a new UUID unless ``ask_id`` was given).
        """
        self._finished = False
        self._last_draft = None
        if ask_id is not None:
            self.ask_id = ask_id
            return ask_id
        self.ask_id = random_uuid()
        # Written now (a killed ask stays resumable), synced by ``sync`` once the UI is up.
        self._append(PAYLOAD_TYPE, payload_data(params, source, self.ask_id), sync=False)
        return self.ask_id

    def sync(self) -> None:
        """fsync what ``start`` wrote (drafts and the dismissal are synced as they go).

        A face calls it once its first frame is on the screen, so the payload's fsync never
        delays it; a failure turns drafts off, as a failed write does.
        """
        if self._log is None:
            return
        try:
            self._log.sync()
        except OSError as err:
            self._stop(err)

    def draft(self, state: AskState) -> None:
        """Record the answers of ``state`` unless they equal the last recorded ones."""
        if self.ask_id is None or self._finished:
            return
        data = draft_data(self.ask_id, state)
        comparable = {k: v for k, v in data.items() if k != "timestamp"}
        if comparable == self._last_draft:
            return
        self._last_draft = comparable
        self._append(DRAFT_TYPE, data)

    def settle(self, result: ToolResult) -> None:
        """The host's one end of an ask: finish it when ``result`` ends it.

        Submitted and cancelled asks are finished; ``no_terminal``, ``timeout`` and
        ``aborted`` ones stay resumable (python-port.md §11), a ``no_terminal`` one marked so
        that ``resume --list`` can leave it out once it is old.
        """
        if result.details.ends_ask:
            self.finish()
        elif result.details.reason == "no_terminal" and self.ask_id is not None:
            self._append(UNREACHED_TYPE, unreached_data(self.ask_id))

    def finish(self) -> None:
        """Mark the ask dismissed, so it is no longer offered for resume (idempotent).

        A log grown past ``COMPACT_ABOVE`` is then cut down to its retention window.
        """
        if self.ask_id is None or self._finished:
            return
        self._finished = True
        self._append(DISMISSED_TYPE, dismissed_data(self.ask_id))
        if self._log is not None:
            # Nothing is lost that a reader still sees; a failure leaves the log as it was.
            with contextlib.suppress(OSError):
                self._log.compact(
                    starts=is_payload_line,
                    count=RECENT_ASKS,
                    max_bytes=RECENT_BYTES,
                    above=COMPACT_ABOVE,
                )

    def _append(self, custom_type: str, data: JsonObject, *, sync: bool = True) -> None:
        if self._log is None:
            return
        try:
            self._log.append_custom(custom_type, data, sync=sync)
        except OSError as err:
            self._stop(err)

    def _stop(self, err: OSError) -> None:
        self._log = None
        self.write_error = str(err)
        self.notice = gettext("Drafts are off: {error}").format(error=err)
