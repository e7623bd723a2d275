"""The answering side: find the pending asks, and answer one of them.

``list_pending`` reads the asks folder's summaries (never a payload), oldest first; the folder
of an asker that died (even by SIGKILL) and a detached ask past its keeping are removed when
seen, and a detached ask past its deadline is ended (``timeout``) and no longer listed.
``Session`` is one terminal's hold on one ask: it reads the payload and the current draft,
writes drafts, and claims the ask with the answer; it notices at once when the ask ends
elsewhere (a claim, the folder gone, the asker's ``closed``), through the folder's watch and
the asker's socket.
"""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.relay import forms, wire
from pi_ask.relay.asks import AskFolder, AskSummary, ask_folders, now_ms
from pi_ask.relay.elsewhere import sweep
from pi_ask.relay.paths import asks_dir
from pi_ask.relay.pending import ANSWERED_ELSEWHERE, ENDED_WHY
from pi_ask.relay.watch import FolderWatch, WakeEvent, Waker
from pi_ask.state.model import AskState
from pi_ask.state.opening import new_state

CONNECT_TIMEOUT_S = 5.0
GONE = "the ask is no longer pending"


class AskGone(Exception):
    """The ask is no longer pending (answered, timed out, or its asker is gone)."""


def list_pending(asks: Path | None = None) -> list[AskSummary]:
    """Every ask still waiting for an answer in ``asks`` (the default folder), oldest first."""
    asks = asks_dir() if asks is None else asks
    sweep(asks)
    found = [
        summary
        for folder in ask_folders(asks)
        if not folder.is_claimed() and (summary := folder.summary()) is not None
    ]
    found.sort(key=lambda info: (info.created_ms, info.ask_id))
    return found


class Session:
    """One terminal holding one pending ask.

    ``open`` reads the ask; ``loaded`` and ``state`` are then the ask and its current draft.
    ``ended`` is set (and ``why`` says why) when the ask ends elsewhere.
    """

    def __init__(self, info: AskSummary) -> None:
        self.info = info
        self.folder = AskFolder(info.folder)
        self.ended = WakeEvent()
        """Set when the ask ended elsewhere; its ``waker`` is readable from then on."""
        self.why: str | None = None
        self.loaded: LoadedPayload | None = None
        self.state: AskState | None = None
        self._connection: wire.Connection | None = None
        self._stop = Waker()
        self._watch: FolderWatch | None = None

    def open(self) -> None:
        """Read the ask and its draft; greet the asker when one waits.

        Raises:
            AskGone: It was answered, removed, or its asker no longer listens.
        """
        if self.folder.is_claimed():
            outcome = (self.folder.claim() or {}).get("outcome")
            raise AskGone(ENDED_WHY.get(str(outcome), ANSWERED_ELSEWHERE))
        deadline = self.info.deadline_ms
        if deadline is not None and now_ms() >= deadline:
            # A detached ask has no asker to end it: whoever reads it checks its deadline.
            raise AskGone(ENDED_WHY["timeout"])
        loaded = load_payload(self.folder.params())
        if isinstance(loaded, InvalidPayload):
            raise AskGone(GONE if not self.folder.exists() else "the ask's payload is not valid")
        draft = self.folder.draft() or {}
        try:
            state = forms.state_from_form(loaded, draft, self.info.files())
        except forms.FormError:
            state = new_state(loaded.payload)
        if self.info.socket is not None:
            self._connection = _greet(self.info)
        try:
            self._watch = FolderWatch(self.folder.path)
        except OSError:
            self.close()
            raise AskGone(GONE) from None
        self.loaded, self.state = loaded, state
        threading.Thread(target=self._follow, name="pi-ask attach", daemon=True).start()

    def send_draft(self, state: AskState, *, typing: bool = False) -> None:
        """Keep a committed change in the ask's folder (best effort: a closed ask ignores it).

        ``typing``: text still being typed (the web page's debounce), kept so a closed page
        loses nothing, but marked so the asker's session log still gets one draft per
        commit.
        """
        if self.ended.is_set():
            return
        form = forms.form_to_json(state)
        if typing:
            form["typing"] = True
        self.folder.write_draft(form)
        self._poke()

    def send_answer(self, state: AskState, outcome: forms.Outcome) -> bool:
        """Claim the ask with the answer; ``True`` when it won, ``False`` when the ask ended
        elsewhere first. The result is built from the ask's own payload first."""
        if self.ended.is_set() or self.loaded is None:
            return False
        answer: JsonObject = {"outcome": outcome, **forms.form_to_json(state)}
        try:
            state = forms.state_from_form(self.loaded, answer, self.info.files())
            result = forms.finish(state, outcome)
        except forms.FormError:
            return False
        if not self.folder.take(answer, result.to_json()):
            return False
        self._poke()
        return True

    def close(self) -> None:
        self._stop.wake()
        if self._connection is not None:
            self._connection.close()
        self.ended.waker.close()

    def wakeups(self) -> tuple[int, ...]:
        """What a face waits on to see the ask end (``FaceRequest.wakeups``)."""
        return (self.ended.waker.fileno(),)

    def _poke(self) -> None:
        if self._connection is not None:
            self._connection.send({"type": "poke"})

    def _follow(self) -> None:
        """Until closed: end the session when the ask is claimed, removed or closed."""
        watch = self._watch
        assert watch is not None
        descriptors = [self._stop.fileno()]
        if watch.fileno() >= 0:
            descriptors.append(watch.fileno())
        if self._connection is not None:
            descriptors.append(self._connection.sock.fileno())
        try:
            while not self.ended.is_set():
                why = self._ended_why()
                if why is not None:
                    self._end(self._last_word(why))
                    return
                try:
                    readable, _, _ = select.select(
                        descriptors, [], [], 1.0 if watch.polls else None
                    )
                except (OSError, ValueError):
                    return
                if self._stop.fileno() in readable:
                    return
                watch.drain()
                if self._connection is not None and self._connection.sock.fileno() in readable:
                    self._read_asker()
        finally:
            watch.close()
            self._stop.close()

    def _ended_why(self) -> str | None:
        if not self.folder.exists():
            return GONE
        if self.folder.is_claimed():
            return ANSWERED_ELSEWHERE
        return None

    def _last_word(self, why: str) -> str:
        """The asker's own reason when it has already said one: it tells its terminals why
        before it removes the folder, so a folder seen gone may be an ask answered elsewhere."""
        connection = self._connection
        if why != GONE or connection is None:
            return why
        try:
            message: wire.Message | None = {"type": "attached"}
            while message is not None and message.get("type") == "attached":  # hello's reply
                readable, _, _ = select.select([connection.sock], [], [], 0)
                if not readable:
                    return why
                connection.sock.settimeout(CONNECT_TIMEOUT_S)
                message = connection.receive()
        except (OSError, ValueError, wire.ProtocolError):
            return why
        if message is None or message.get("type") != "closed":
            return why
        said = message.get("why")
        return said if isinstance(said, str) else why

    def _read_asker(self) -> None:
        connection = self._connection
        assert connection is not None
        try:
            message = connection.receive()
        except (OSError, wire.ProtocolError):
            message = None
        kind = message.get("type") if message is not None else None
        if message is not None and kind not in ("closed", "error"):
            return  # "attached" (the reply to hello), or news this terminal has no use for
        why = message.get("why" if kind == "closed" else "message") if message else None
        self._end(why if isinstance(why, str) else "the asker is gone")

    def _end(self, why: str) -> None:
        if self.ended.is_set():
            return
        self.why = why
        self.ended.set()


def _greet(info: AskSummary) -> wire.Connection | None:
    """Connect to the asker and say hello; the connection, or ``None`` when it takes none now.

    The reply is read with everything the asker says later (``Session._read_asker``), so a
    terminal shows the ask without waiting for it: an asker that rests as the small waiting
    process (``cli/waiting.py``) answers once it has loaded the rest again, and a stopped
    (SIGSTOP) or busy one once it runs again. A full backlog that stays full is no
    connection; the ask is answered all the same (the answer waits in its folder until the
    asker runs again). Only a refused connection or a refusal means gone.
    """
    assert info.socket is not None
    try:
        connection = wire.connect(os.fspath(info.socket), timeout_s=CONNECT_TIMEOUT_S)
    except BlockingIOError:  # its backlog stayed full: it accepts nothing now
        return None
    except OSError as err:
        raise AskGone(f"{GONE} ({err})") from None
    try:
        connection.send({"type": "hello", "id": info.ask_id})
    except (OSError, wire.ProtocolError) as err:
        connection.close()
        raise AskGone(f"{GONE} ({err})") from None
    connection.sock.settimeout(None)
    return connection
