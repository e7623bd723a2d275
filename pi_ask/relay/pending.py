"""The asker's side: one ask published as a pending ask, until someone answers it.

``PendingAsk.publish`` writes the ask's folder (``relay.asks``) and, for an asker that waits
itself, listens on ``<runtime>/<hash>.ask`` (0600, same-user peers only). ``wait`` blocks on
the folder's watch, the socket and the cancel event together — no polling, no periodic
wake-up — and returns the result once an answer has claimed the ask: the asker rebuilds it
from its own payload and the claimed answer, so a terminal can only ever choose among the
answers the flow itself could give. Drafts an answering terminal writes are fitted the same
way and handed to ``on_draft`` (the session log). Files a terminal attached are taken only
from the ask's own folder, within the asker's limits (``attached_files``); the asker moves
them out (``keep_files_in``) before its folder goes.

The socket says the asker is alive (a listing removes the folder of an asker that died, even
by SIGKILL) and counts the terminals showing the ask. A peer greets with ``hello`` and the
ask's id, is answered ``attached``, may send ``poke`` after writing into the folder, and is
told ``closed`` with why when the ask ends. Anything else (garbage, a line over the limit, a
wrong id) gets an ``error`` and the connection is closed; the ask is unchanged. A peer of
another user is refused before anything is read. At most ``MAX_PEERS`` are held: a newcomer
beyond that replaces the peer that has waited longest without saying hello (idle peers
cannot hide the ask from a terminal) and is refused only when all are terminals showing the
ask. An accept that fails (EMFILE) waits and tries again, said in one line (``relay.accepting``).
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.relay import wire
from pi_ask.relay.accepting import HELLO_TIMEOUT_S, MAX_PEERS, accept_peers, room_for_newcomer
from pi_ask.relay.asks import DRAFT, AskFolder, now_ms
from pi_ask.relay.paths import ASK_SUFFIX, fresh_socket_name, listen_at
from pi_ask.relay.watch import POLL_S, FolderWatch, Waker

if TYPE_CHECKING:
    from pi_ask.contract.attachments import FileLimits
    from pi_ask.contract.loading import LoadedPayload
    from pi_ask.contract.results import JsonObject, ToolResult
    from pi_ask.relay.attached_files import AskFiles
    from pi_ask.state.model import AskState


ANSWERED_ELSEWHERE = "answered elsewhere"
ENDED_WHY = {"timeout": "the ask timed out", "aborted": "the asker gave up"}

OnDraft = Callable[["AskState"], None]


class PendingAsk:
    """One ask waiting for a terminal; ``publish``, then ``wait``, then ``close``.

    Args:
        loaded: The valid payload.
        ask_id: Its id (the session log's).
        asks: The private folder of pending asks (``paths.asks_dir()``).
        runtime: The private runtime folder for the asker's socket (``paths.runtime_dir()``);
            ``None`` for a detached ask, which has no asker waiting.
        state: The state to start from (resumed answers, presented types); ``None``: the
            payload's own, made when first needed (an asker publishes without the engine).
        on_draft: Called with the state of every draft a terminal writes.
        deadline_ms: When the ask times out (epoch ms), shown to terminals for a countdown.
        wake: Woken by whoever wants ``wait`` to look again (a cancel, a signal).
        log: A detached ask's session log, for whoever fetches its result to settle.
        limits: ``[attachments]``: what the answers may carry (written in the summary, so
            whoever reads a claim counts the same).
        keep_files_in: Where the files of the answer that won go before the ask's folder is
            removed (the asker's own attachments folder); ``None``: they go with it.
    """

    def __init__(
        self,
        loaded: LoadedPayload,
        ask_id: str,
        *,
        asks: Path,
        runtime: Path | None,
        state: AskState | None = None,
        on_draft: OnDraft | None = None,
        deadline_ms: int | None = None,
        wake: Waker | None = None,
        log: Path | None = None,
        limits: FileLimits | None = None,
        keep_files_in: Path | None = None,
    ) -> None:
        self.loaded = loaded
        self.ask_id = ask_id
        self.asks = asks
        self.path = runtime / fresh_socket_name(ASK_SUFFIX) if runtime is not None else None
        self.created_ms = now_ms()
        try:
            self.cwd = os.getcwd()
        except OSError:  # the folder was removed under us
            self.cwd = ""
        self.deadline_ms = deadline_ms
        self.folder: AskFolder | None = None
        self._state = state
        self._on_draft = on_draft
        self._wake = wake
        self._log = log
        self._limits = limits
        self._keep_files_in = keep_files_in
        self._lock = threading.Lock()
        self._peers: set[wire.Connection] = set()
        # Peers that have not said hello yet, oldest first: a newcomer may replace one.
        self._unhello: dict[wire.Connection, None] = {}
        self._attached = 0
        self._server: socket.socket | None = None
        self._closing = threading.Event()
        self._changed = Waker()
        self._watch: FolderWatch | None = None
        self._draft_seen: tuple[int, int] | None = None
        self._result: ToolResult | None = None

    # --- the asker's thread -------------------------------------------------------------

    @classmethod
    def adopt(
        cls,
        loaded: LoadedPayload,
        ask_id: str,
        *,
        asks: Path,
        path: Path,
        descriptors: tuple[int, int],
        state: AskState,
        on_draft: OnDraft | None = None,
        deadline_ms: int | None = None,
        wake: Waker | None = None,
        limits: FileLimits | None = None,
        keep_files_in: Path | None = None,
    ) -> PendingAsk:
        """The ask this process published before it replaced its image (``os.execv``),
        taken over from the ``descriptors`` it kept (``descriptors()``): its folder,
        socket and watch as they are. Call ``serve`` next.

        Raises:
            OSError: A descriptor is not what it was.
        """
        ask = cls(
            loaded,
            ask_id,
            asks=asks,
            runtime=None,
            state=state,
            on_draft=on_draft,
            deadline_ms=deadline_ms,
            wake=wake,
            limits=limits,
            keep_files_in=keep_files_in,
        )
        ask.path = path  # the socket it listens on already, not a new name
        ask.folder = AskFolder(asks / ask_id)
        server, watch = descriptors
        ask._server = socket.socket(fileno=server)
        ask._server.set_inheritable(False)
        ask._watch = FolderWatch.adopt(ask.folder.path, watch)
        return ask

    def publish(self, *, serve: bool = True) -> None:
        """Write the ask's folder (and, when the asker waits, listen on its socket).

        ``serve=False`` listens without answering yet: terminals wait in the socket's
        backlog until ``serve`` (the command line does so after it replaced its image with
        the small waiting process, ``cli/waiting.py``).

        Raises:
            OSError: The folder or the socket cannot be made.
        """
        if self.path is not None:
            self._server = listen_at(self.path, MAX_PEERS)
            if serve:
                self.serve()
        try:
            self.folder = AskFolder.create(
                self.asks, self.ask_id, self.loaded.params, self._summary()
            )
            answered = self._state is not None and self._state.answers
            if answered or any(q.type != q.requested_type for q in self.loaded.payload.questions):
                from pi_ask.relay import forms

                self.folder.write_draft(forms.form_to_json(self.state))
            if self.path is not None:  # only an asker that waits watches for its answer
                self._watch = FolderWatch(self.folder.path)
        except BaseException:
            self.close()
            raise

    def serve(self, peers: Iterable[socket.socket] = ()) -> None:
        """Answer the terminals from now on, and ``peers`` already accepted (by the waiting
        process, before it adopted the ask: older than any accepted from now on)."""
        for sock in peers:
            self._take(sock)
        threading.Thread(target=self._accept, name="pi-ask pending", daemon=True).start()

    def descriptors(self) -> tuple[int, int]:
        """The listening socket's and the folder watch's descriptors (-1: none)."""
        server = self._server.fileno() if self._server is not None else -1
        return server, self._watch.fileno() if self._watch is not None else -1

    def _summary(self) -> JsonObject:
        payload = self.loaded.payload
        out: JsonObject = {
            "cwd": self.cwd,
            "createdAt": self.created_ms,
            "questions": len(payload.questions),
        }
        if payload.title is not None:
            out["title"] = payload.title
        if self.deadline_ms is not None:
            out["deadline"] = self.deadline_ms
        if self.path is not None:
            out["socket"] = os.fspath(self.path)
            out["pid"] = os.getpid()
        else:
            out["detached"] = True
        if self._log is not None:
            out["log"] = os.fspath(self._log)
        if self._limits is not None:
            out["attachments"] = {
                "maxFiles": self._limits.max_files,
                "maxBytes": self._limits.max_bytes,
            }
        return out

    def _files(self) -> AskFiles | None:
        """Where the answers' files must be, within which limits (``None`` before publish)."""
        if self.folder is None:
            return None
        # Loaded with the first draft or answer: it brings the engine's state, which an asker
        # publishes without.
        from pi_ask.relay.attached_files import ask_files

        if self._limits is None:
            return ask_files(self.folder.attachments)
        return ask_files(self.folder.attachments, self._limits.max_files, self._limits.max_bytes)

    @property
    def state(self) -> AskState:
        """The latest draft state (the starting state until a terminal writes one)."""
        with self._lock:
            if self._state is None:
                from pi_ask.state.opening import new_state

                self._state = new_state(self.loaded.payload)
            return self._state

    @property
    def attached(self) -> int:
        """How many terminals are showing the ask now."""
        with self._lock:
            return self._attached

    def wait(self, timeout_s: float | None) -> ToolResult | None:
        """The winning result, or ``None`` when none came within ``timeout_s`` (or something
        else woke the wait: a cancel, a terminal coming or going)."""
        if self._result is not None:
            return self._result
        watch = self._watch
        if watch is None:
            return None
        descriptors = [self._changed.fileno()]
        if watch.fileno() >= 0:
            descriptors.append(watch.fileno())
        if self._wake is not None:
            descriptors.append(self._wake.fileno())
        if watch.polls:
            timeout_s = POLL_S if timeout_s is None else min(timeout_s, POLL_S)
        with contextlib.suppress(OSError):
            select.select(descriptors, [], [], timeout_s)
        self._changed.drain()
        watch.drain()
        return self._look()

    def _look(self) -> ToolResult | None:
        """Read the folder: a claim ends the ask, a new draft goes to ``on_draft``."""
        folder = self.folder
        if folder is None:
            return None
        from pi_ask.relay import forms  # the engine: only once something happened

        if not folder.exists():
            # Removed under us (by hand, or a listing that took us for dead): nobody can
            # answer any more.
            return self.end(forms.ended(self.state, "aborted"), "aborted")
        if folder.is_claimed():
            claim = folder.claim()
            result = self._claimed(claim) if claim is not None else None
            if result is not None:
                return self._settle(result, ANSWERED_ELSEWHERE)
            # Not an answer the flow could give: it does not take the ask from anyone.
            folder.drop_claim()
        self._take_draft(folder)
        return None

    def _claimed(self, claim: dict[str, object]) -> ToolResult | None:
        from pi_ask.relay import forms

        outcome = claim.get("outcome")
        if outcome in ("timeout", "aborted"):
            return forms.ended(self.state, outcome)
        if outcome not in forms.OUTCOMES:
            return None
        try:
            state = forms.state_from_form(self.loaded, claim, self._files())
        except forms.FormError:
            return None
        if self._keep_files_in is not None and self.folder is not None:
            from pi_ask.relay.attached_files import moved

            state = moved(state, self.folder.attachments, self._keep_files_in)
        return forms.finish(state, outcome)

    def _take_draft(self, folder: AskFolder) -> None:
        try:
            info = os.lstat(folder.path / DRAFT)
        except OSError:
            return
        seen = (info.st_ino, info.st_mtime_ns)
        if seen == self._draft_seen:
            return
        self._draft_seen = seen
        draft = folder.draft()
        if draft is None:
            return
        from pi_ask.relay import forms

        try:
            state = forms.state_from_form(self.loaded, draft, self._files())
        except forms.FormError:
            return
        with self._lock:
            self._state = state
        # Text still being typed (a web page's debounce) is kept, not logged: the session
        # log gets one draft per commit.
        if self._on_draft is not None and draft.get("typing") is not True:
            with contextlib.suppress(Exception):
                self._on_draft(state)

    def end(self, result: ToolResult, why: str) -> ToolResult:
        """End the ask without a terminal's answer (timeout, abort); the result that stands.

        The end claims the ask like an answer would: if an answer won meanwhile, that answer
        stands and is returned instead.
        """
        folder = self.folder
        if folder is not None and folder.exists():
            reason = result.details.reason
            outcome = reason if reason in ("timeout", "aborted") else why
            if not folder.take({"outcome": outcome}, result.to_json()):
                claim = folder.claim()
                won = self._claimed(claim) if claim is not None else None
                if won is not None:
                    return self._settle(won, ANSWERED_ELSEWHERE)
        return self._settle(result, ENDED_WHY.get(why, why))

    def _settle(self, result: ToolResult, why: str) -> ToolResult:
        with self._lock:
            if self._result is None:
                self._result = result
                self._close_peers(why)
            return self._result

    def release(self) -> None:
        """Let go of a detached ask once published: its folder stays for whoever answers it."""
        self._changed.close()

    def close(self) -> None:
        """Stop listening, remove the socket and the folder; tell open terminals it is over."""
        self._closing.set()
        with self._lock:
            self._close_peers("closed")
        if self._server is not None:
            with contextlib.suppress(OSError):
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        if self.folder is not None:
            self.folder.remove()
        self._changed.close()

    # --- the server threads -------------------------------------------------------------

    def _accept(self) -> None:
        server = self._server
        if server is not None:
            accept_peers(server, self._closing, self._take, who="a terminal")

    def _take(self, sock: socket.socket) -> None:
        """Serve a new same-user peer; when ``MAX_PEERS`` are held, it replaces the peer that
        has waited longest without saying hello, or, when every one is a terminal showing
        the ask, it is refused (``accepting.room_for_newcomer``)."""
        with self._lock:
            taken, idle = room_for_newcomer(len(self._peers), self._unhello)
            if idle is not None:
                del self._unhello[idle]
                # Its own thread closes it: the socket is only shut down under it here.
                with contextlib.suppress(OSError):
                    idle.sock.shutdown(socket.SHUT_RDWR)
                self._peers.discard(idle)
            connection = wire.Connection(sock) if taken else None
            if connection is not None:
                self._peers.add(connection)
                self._unhello[connection] = None
        if connection is None:
            sock.close()
            return
        threading.Thread(
            target=self._serve, args=(connection,), name="pi-ask peer", daemon=True
        ).start()

    def _serve(self, connection: wire.Connection) -> None:
        greeted = False
        try:
            with contextlib.suppress(OSError):  # closed meanwhile: the loop below ends at once
                connection.sock.settimeout(HELLO_TIMEOUT_S)
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
                reply = self._handle(message, greeted)
                if reply is None:
                    continue
                if reply.get("type") == "attached":
                    with self._lock:
                        if connection in self._unhello:
                            del self._unhello[connection]
                            greeted = True
                            self._attached += 1
                    if not greeted:
                        return  # replaced by a newer peer meanwhile
                    # A terminal may show the ask for hours. (Closed meanwhile, by the ask's
                    # end: the send below fails and the loop ends.)
                    with contextlib.suppress(OSError):
                        connection.sock.settimeout(None)
                    self._changed.wake()
                if not connection.send(reply) or reply.get("type") in ("error", "closed"):
                    return
        finally:
            with self._lock:
                self._peers.discard(connection)
                self._unhello.pop(connection, None)
                if greeted:
                    self._attached -= 1
            if greeted:
                self._changed.wake()
            connection.close()

    def _handle(self, message: wire.Message, greeted: bool) -> JsonObject | None:
        kind = message["type"]
        if self._result is not None:
            return {"type": "closed", "why": ANSWERED_ELSEWHERE}
        if kind == "hello":
            if message.get("id") != self.ask_id:
                return _error("this socket serves another ask")
            return {"type": "attached", "id": self.ask_id}
        if not greeted:
            return _error('say "hello" first')
        if kind == "poke":
            self._changed.wake()
            return None
        return _error(f"unknown message type {str(kind)[:40]!r}")

    def _close_peers(self, why: str) -> None:
        """Tell every terminal showing the ask that it is over (called under the lock)."""
        for peer in list(self._peers):
            peer.send({"type": "closed", "why": why})
            peer.close()


def _error(message: str) -> JsonObject:
    return {"type": "error", "message": message}


def still_waiting(path: Path) -> bool:
    """True when an asker listens at ``path`` (a refused connection: it is gone).

    A connection is only tried, never waited on or talked over: a stopped (SIGSTOP) or busy
    asker costs a listing nothing, and one whose backlog is full (a stopped asker keeps every
    listing's connection there) is alive at once, not after a timeout.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        sock.connect(os.fspath(path))
    except (ConnectionRefusedError, FileNotFoundError):
        return False
    except OSError:  # BlockingIOError: the backlog is full; anything else: not ours to judge
        return True
    finally:
        sock.close()
    return True
