"""The asker's side: one pending ask served on a private unix socket until it is answered.

``PendingAsk`` binds ``<runtime>/<hash>.ask`` (0600), accepts same-user peers only, and
answers their messages on one thread each:

- ``hello`` → the ``ask`` message: id, title, folder, age, the payload's params and the
  current draft (so a second terminal resumes where a first one stopped);
- ``draft`` → the asker keeps it (and hands it to ``on_draft``: the session log); no reply;
- ``answer`` → the first valid one wins: the asker builds the result from its own payload and
  replies ``done``; every other terminal gets ``closed`` ("answered elsewhere").

Anything else (garbage, a line over the limit, a wrong ask id, a malformed form) gets an
``error`` and the connection is closed; the ask is unchanged. A peer of another user is
refused before anything is read.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.loading import LoadedPayload
from pi_ask.contract.results import ToolResult
from pi_ask.relay import forms, wire
from pi_ask.relay.paths import ASK_SUFFIX, listen_at, socket_name
from pi_ask.state.model import AskState

MAX_PEERS = 16
ANSWERED_ELSEWHERE = "answered elsewhere"

OnDraft = Callable[[AskState], None]


@dataclass
class _Outcome:
    result: ToolResult | None = None
    done: threading.Event = field(default_factory=threading.Event)


class PendingAsk:
    """One ask waiting for a terminal; ``publish``, then ``wait``, then ``close``.

    Args:
        loaded: The valid payload.
        ask_id: Its id (the session log's).
        folder: The private runtime folder (``paths.runtime_dir()``).
        state: The state to start from (resumed answers, presented types).
        on_draft: Called with the state of every draft a terminal sends.
        deadline_ms: When the ask times out (epoch ms), shown to terminals for a countdown.
    """

    def __init__(
        self,
        loaded: LoadedPayload,
        ask_id: str,
        *,
        folder: Path,
        state: AskState,
        on_draft: OnDraft | None = None,
        deadline_ms: int | None = None,
    ) -> None:
        self.loaded = loaded
        self.ask_id = ask_id
        self.path = folder / socket_name(ask_id, ASK_SUFFIX)
        self.created_ms = time.time_ns() // 1_000_000
        try:
            self.cwd = os.getcwd()
        except OSError:  # the folder was removed under us
            self.cwd = ""
        self.deadline_ms = deadline_ms
        self._state = state
        self._on_draft = on_draft
        self._lock = threading.Lock()
        self._outcome = _Outcome()
        self._peers: set[wire.Connection] = set()
        self._attached = 0
        self._server: socket.socket | None = None
        self._closing = threading.Event()

    # --- the asker's thread -------------------------------------------------------------

    def publish(self) -> None:
        """Listen on the ask's socket (replacing a dead asker's leftover file)."""
        self._server = listen_at(self.path, MAX_PEERS)
        threading.Thread(target=self._accept, name="pi-ask pending", daemon=True).start()

    @property
    def state(self) -> AskState:
        """The latest draft state (the starting state until a terminal sends one)."""
        with self._lock:
            return self._state

    @property
    def attached(self) -> int:
        """How many terminals are showing the ask now."""
        with self._lock:
            return self._attached

    def wait(self, timeout_s: float | None) -> ToolResult | None:
        """The winning result, or ``None`` if none came within ``timeout_s``."""
        self._outcome.done.wait(timeout_s)
        return self._outcome.result

    def end(self, result: ToolResult, why: str) -> ToolResult:
        """End the ask without a terminal's answer (timeout, abort); the result that stands.

        If an answer won meanwhile, that answer stands and is returned instead.
        """
        with self._lock:
            if self._outcome.result is None:
                self._outcome.result = result
                self._outcome.done.set()
                self._close_peers(why)
            return self._outcome.result

    def close(self) -> None:
        """Stop listening and remove the socket file; tell open terminals it is over."""
        self._closing.set()
        with self._lock:
            self._close_peers("closed")
        if self._server is not None:
            with contextlib.suppress(OSError):
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None
        with contextlib.suppress(OSError):
            os.unlink(self.path)

    # --- the server threads -------------------------------------------------------------

    def _accept(self) -> None:
        server = self._server
        while server is not None and not self._closing.is_set():
            try:
                sock, _ = server.accept()
            except OSError:
                return
            if not wire.is_same_user(sock):
                # Refused before a byte is read: another user's process learns nothing.
                sock.close()
                continue
            with self._lock:
                crowded = len(self._peers) >= MAX_PEERS
            if crowded:
                sock.close()
                continue
            connection = wire.Connection(sock)
            with self._lock:
                self._peers.add(connection)
            threading.Thread(
                target=self._serve, args=(connection,), name="pi-ask peer", daemon=True
            ).start()

    def _serve(self, connection: wire.Connection) -> None:
        greeted = False
        try:
            while not connection.closed:
                try:
                    message = connection.receive()
                except wire.ProtocolError as err:
                    connection.send({"type": "error", "message": str(err)})
                    return
                except OSError:
                    return
                if message is None:
                    return
                reply = self._handle(message, greeted, connection)
                if reply is None:  # a draft taken: no reply, so the terminal never waits
                    continue
                if message.get("type") == "hello" and reply.get("type") == "ask":
                    greeted = True
                    with self._lock:
                        self._attached += 1
                if not connection.send(reply) or reply.get("type") in ("error", "done"):
                    return
                if reply.get("type") == "closed":
                    return
        finally:
            with self._lock:
                self._peers.discard(connection)
                if greeted:
                    self._attached -= 1
            connection.close()

    def _handle(
        self, message: wire.Message, greeted: bool, connection: wire.Connection
    ) -> JsonObject | None:
        kind = message["type"]
        if self._outcome.done.is_set():
            return {"type": "closed", "why": ANSWERED_ELSEWHERE}
        if kind == "hello":
            return self._ask_message()
        if kind == "ping":
            return {"type": "pong"}
        if kind not in ("draft", "answer"):
            return _error(f"unknown message type {str(kind)[:40]!r}")
        if message.get("id") != self.ask_id:
            return _error("the message is for another ask")
        if not greeted:
            return _error("say hello first")
        try:
            state = forms.state_from_form(self.loaded, message)
        except forms.FormError as err:
            return _error(str(err))
        if kind == "draft":
            return self._take_draft(state)
        outcome = message.get("outcome")
        if outcome not in forms.OUTCOMES:
            return _error('"outcome" must be "submit", "elaborate" or "cancel"')
        return self._take_answer(state, outcome, connection)

    def _take_draft(self, state: AskState) -> JsonObject | None:
        with self._lock:
            if self._outcome.done.is_set():
                return {"type": "closed", "why": ANSWERED_ELSEWHERE}
            self._state = state
        if self._on_draft is not None:
            with contextlib.suppress(Exception):
                self._on_draft(state)
        return None

    def _take_answer(
        self, state: AskState, outcome: forms.Outcome, winner: wire.Connection
    ) -> JsonObject:
        result = forms.finish(state, outcome)
        with self._lock:
            if self._outcome.done.is_set():
                return {"type": "closed", "why": ANSWERED_ELSEWHERE}
            self._state = state
            self._outcome.result = result
            self._outcome.done.set()
            self._close_peers(ANSWERED_ELSEWHERE, winner=winner)
        return {"type": "done"}

    def _close_peers(self, why: str, *, winner: wire.Connection | None = None) -> None:
        """Tell every terminal showing the ask that it is over (called under the lock).

        The ``winner`` is left alone: its ``done`` reply is still to be sent.
        """
        for peer in list(self._peers):
            if peer is not winner:
                peer.send({"type": "closed", "why": why})
                peer.close()

    def _ask_message(self) -> JsonObject:
        payload = self.loaded.payload
        out: JsonObject = {
            "type": "ask",
            "id": self.ask_id,
            "cwd": self.cwd,
            "pid": os.getpid(),
            "createdAt": self.created_ms,
            "questions": len(payload.questions),
            "params": self.loaded.params,
            "draft": forms.form_to_json(self.state),
        }
        if payload.title is not None:
            out["title"] = payload.title
        if self.deadline_ms is not None:
            out["deadline"] = self.deadline_ms
        return out


def _error(message: str) -> JsonObject:
    return {"type": "error", "message": message}
