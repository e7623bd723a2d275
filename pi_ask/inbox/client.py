"""The answering side: find the pending asks, and talk to one of them.

``list_pending`` connects to every ask socket of the runtime folder and asks it to introduce
itself; a socket nobody listens on any more (its asker died, even by SIGKILL) is removed
when seen. ``Session`` is one terminal's connection to one ask: it sends drafts and the
answer, and a reader thread notices when the ask ends elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from dataclasses import dataclass
from pathlib import Path

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.relay import forms, wire
from pi_ask.relay.paths import ASK_SUFFIX, is_own_socket
from pi_ask.state.model import AskState
from pi_ask.state.opening import new_state

CONNECT_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class PendingInfo:
    """A pending ask as it introduced itself."""

    ask_id: str
    path: Path
    title: str | None
    cwd: str
    pid: int
    created_ms: int
    questions: int
    deadline_ms: int | None
    message: wire.Message

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "id": self.ask_id,
            "cwd": self.cwd,
            "pid": self.pid,
            "createdAt": self.created_ms,
            "questions": self.questions,
        }
        if self.title is not None:
            out["title"] = self.title
        if self.deadline_ms is not None:
            out["deadline"] = self.deadline_ms
        return out


class AskGone(Exception):
    """The ask is no longer pending (answered, timed out, or its asker is gone)."""


def list_pending(folder: Path) -> list[PendingInfo]:
    """Every pending ask in ``folder``, oldest first; dead askers' sockets are removed."""
    found: list[PendingInfo] = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        if not name.endswith(ASK_SUFFIX):
            continue
        info = introduce(folder / name)
        if info is not None:
            found.append(info)
    found.sort(key=lambda info: (info.created_ms, info.ask_id))
    return found


def introduce(path: Path) -> PendingInfo | None:
    """Ask the socket at ``path`` who it is; ``None`` (and the file removed if dead) if nobody."""
    if not is_own_socket(path):
        return None
    try:
        connection = wire.connect(os.fspath(path), timeout_s=CONNECT_TIMEOUT_S)
    except (ConnectionRefusedError, FileNotFoundError):
        with contextlib.suppress(OSError):
            os.unlink(path)  # its asker died: clean up when seen
        return None
    except OSError:
        return None
    try:
        connection.send({"type": "hello"})
        message = connection.receive()
    except (OSError, wire.ProtocolError):
        return None
    finally:
        connection.close()
    return _info(path, message)


def _info(path: Path, message: wire.Message | None) -> PendingInfo | None:
    if message is None or message.get("type") != "ask":
        return None
    ask_id, cwd, pid = message.get("id"), message.get("cwd", ""), message.get("pid", 0)
    created, count = message.get("createdAt", 0), message.get("questions", 0)
    title, deadline = message.get("title"), message.get("deadline")
    if not (isinstance(ask_id, str) and isinstance(cwd, str)):
        return None
    if not all(type(n) is int for n in (pid, created, count)):
        return None
    return PendingInfo(
        ask_id=ask_id,
        path=path,
        title=title if isinstance(title, str) else None,
        cwd=cwd,
        pid=pid,  # type: ignore[arg-type]
        created_ms=created,  # type: ignore[arg-type]
        questions=count,  # type: ignore[arg-type]
        deadline_ms=deadline if type(deadline) is int else None,
        message=message,
    )


class Session:
    """One terminal attached to one pending ask.

    ``open`` connects and greets; ``loaded`` and ``state`` are then the ask and its current
    draft. ``ended`` is set (and ``why`` says why) when the asker closes the ask elsewhere.
    """

    def __init__(self, info: PendingInfo) -> None:
        self.info = info
        self.ended = threading.Event()
        self.why: str | None = None
        self._replies: queue.Queue[wire.Message | None] = queue.Queue()
        self._connection: wire.Connection | None = None
        self.loaded: LoadedPayload | None = None
        self.state: AskState | None = None

    def open(self) -> None:
        """Connect, greet, and read the ask.

        Raises:
            AskGone: Nobody answers there any more, or the ask is already closed.
        """
        try:
            connection = wire.connect(os.fspath(self.info.path), timeout_s=CONNECT_TIMEOUT_S)
            connection.send({"type": "hello"})
            message = connection.receive()
        except (OSError, wire.ProtocolError) as err:
            raise AskGone(f"the ask is no longer pending ({err})") from None
        if message is None or message.get("type") != "ask":
            why = message.get("why") if message is not None else None
            connection.close()
            raise AskGone(str(why) if isinstance(why, str) else "the ask is no longer pending")
        loaded = load_payload(message.get("params"))
        if isinstance(loaded, InvalidPayload):
            connection.close()
            raise AskGone("the ask's payload is not valid")
        draft = message.get("draft", {})
        try:
            state = forms.state_from_form(loaded, draft if isinstance(draft, dict) else {})
        except forms.FormError:
            state = new_state(loaded.payload)
        connection.sock.settimeout(None)
        self._connection, self.loaded, self.state = connection, loaded, state
        threading.Thread(target=self._read, name="pi-ask attach", daemon=True).start()

    def send_draft(self, state: AskState) -> None:
        """Send a committed change; no reply comes (best effort: a closed ask ignores it)."""
        self._send({"type": "draft", "id": self.info.ask_id, **forms.form_to_json(state)})

    def send_answer(self, state: AskState, outcome: forms.Outcome) -> bool:
        """Send the answer; ``True`` when it won, ``False`` when the ask ended elsewhere."""
        if self.ended.is_set():
            return False
        message = {"type": "answer", "id": self.info.ask_id, "outcome": outcome}
        self._send({**message, **forms.form_to_json(state)})
        reply = self._next_reply(timeout_s=30)
        return reply is not None and reply.get("type") == "done"

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()

    def _send(self, message: JsonObject) -> None:
        if self._connection is not None and not self.ended.is_set():
            self._connection.send(message)

    def _next_reply(self, timeout_s: float = 10) -> wire.Message | None:
        if self.ended.is_set() and self._replies.empty():
            return None
        try:
            return self._replies.get(timeout=timeout_s)
        except queue.Empty:
            return None

    def _read(self) -> None:
        connection = self._connection
        assert connection is not None
        while True:
            try:
                message = connection.receive()
            except (OSError, wire.ProtocolError):
                message = None
            if message is not None and message.get("type") != "closed":
                self._replies.put(message)
                if message.get("type") == "done":
                    return
                continue
            why = message.get("why") if message is not None else None
            self._end(why if isinstance(why, str) else "the asker is gone")
            return

    def _end(self, why: str) -> None:
        if self.ended.is_set():
            return
        self.why = why
        self.ended.set()
        self._replies.put(None)
