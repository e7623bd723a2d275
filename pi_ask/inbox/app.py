"""``pi-ask inbox``: a terminal that waits for pending asks and answers them one by one.

The inbox listens on its own socket (``<runtime>/<hash>.inbox``) only to be woken: an asker
pokes every inbox when it publishes an ask. Between asks it shows a waiting screen (idle:
how to quit; several asks: a numbered list, oldest first). One ask waiting while idle opens
at once; while a flow is open, new arrivals only show as "N more waiting" in its footer, and
Ctrl+D (defer) puts the open ask back: it stays pending and is listed, never reopened by
itself. Every running inbox sees every ask; the first answer wins.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.inbox.client import PendingInfo, list_pending
from pi_ask.inbox.listing import lobby_lines
from pi_ask.relay import wire
from pi_ask.relay.paths import INBOX_SUFFIX, listen_at, runtime_dir, socket_name

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.face_table import TerminalFace

DEFER_HINT = "Ctrl+D puts this one back"
RESCAN_S = 1.0
_QUIT = "quit"
_RESCAN = "rescan"


class InboxListener:
    """The inbox's socket: any same-user ``poke`` sets ``woken``."""

    def __init__(self, folder: Path) -> None:
        name = socket_name(f"{os.getpid()}:{secrets.token_hex(8)}", INBOX_SUFFIX)
        self.path = folder / name
        self.woken = threading.Event()
        self._server = listen_at(self.path, 8)
        threading.Thread(target=self._accept, name="pi-ask inbox", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(sock,), daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        connection = wire.Connection(sock)
        try:
            if not wire.is_same_user(sock):
                return
            sock.settimeout(5)
            with contextlib.suppress(OSError, wire.ProtocolError):
                message = connection.receive()
                if message is not None and message["type"] == "poke":
                    self.woken.set()
        finally:
            connection.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


def run_inbox(*, store: SettingsStore, face: TerminalFace = "tui") -> int:
    """Wait for asks and answer them until the user quits; the exit status (0)."""
    from pi_ask.ask.face import load_face

    load_face(face)  # a face that cannot load fails before anything opens
    try:
        folder = runtime_dir()
    except OSError as err:
        print(f"pi-ask: {err}", file=sys.stderr)
        return 2
    listener = InboxListener(folder)
    seen: set[str] = set()
    deferred: set[str] = set()
    try:
        while True:
            found = list_pending(folder)
            _ring_for_new(found, seen, store)
            choice = _lobby(found, listener, deferred)
            if choice == _QUIT:
                return 0
            if isinstance(choice, PendingInfo):
                deferred.discard(choice.ask_id)
                if _answer(choice, folder, store, face):
                    deferred.add(choice.ask_id)
    finally:
        listener.close()


def _ring_for_new(found: list[PendingInfo], seen: set[str], store: SettingsStore) -> None:
    """One "question waiting" notification per ask the inbox has not seen before."""
    new = [info for info in found if info.ask_id not in seen]
    seen.update(info.ask_id for info in found)
    if not new:
        return
    from pi_ask.notifications.message import waiting_message
    from pi_ask.notifications.waiting import notify_waiting

    subject = new[0].title or "a question from your agent"
    notifications = store.snapshot().notifications
    notify_waiting(notifications, waiting_message(subject), write_terminal=_write_tty).close()


def _write_tty(text: str) -> None:
    with contextlib.suppress(OSError), open("/dev/tty", "w", encoding="utf-8") as tty:
        tty.write(text)


def _answer(info: PendingInfo, folder: Path, store: SettingsStore, face: TerminalFace) -> bool:
    """Answer one ask in ``face``; True when the user put it back (deferred) instead."""
    from pi_ask.ask.face import FlowInterrupted
    from pi_ask.inbox.attach import answer_one

    def more_waiting() -> str | None:
        others = [p for p in _cached_listing(folder) if p.ask_id != info.ask_id]
        if not others:
            return None
        hint = f" ({DEFER_HINT})" if face == "tui" else ""
        return f"{len(others)} more waiting in the inbox.{hint}"

    deferred = threading.Event()
    try:
        answer_one(info, store=store, face=face, live_notice=more_waiting, deferred=deferred)
    except FlowInterrupted as stop:
        raise SystemExit(128 + stop.signal_number) from None
    return deferred.is_set()


_listing_cache: dict[str, tuple[float, list[PendingInfo]]] = {}


def _cached_listing(folder: Path) -> list[PendingInfo]:
    """The pending asks, listed at most once a second (the footer asks ten times a second)."""
    import time

    now = time.monotonic()
    key = os.fspath(folder)
    cached = _listing_cache.get(key)
    if cached is None or now - cached[0] >= RESCAN_S:
        cached = (now, list_pending(folder))
        _listing_cache[key] = cached
    return cached[1]


def _lobby(
    found: list[PendingInfo], listener: InboxListener, deferred: set[str]
) -> PendingInfo | str:
    """Show the waiting screen until the user picks an ask, quits, or something changes.

    One ask waiting opens at once, unless the user put it back: then it is listed.
    """
    if len(found) == 1 and found[0].ask_id not in deferred:
        return found[0]
    from pi_ask.faces.tui.inbox_screen import run_inbox_screen

    def changed() -> bool:
        # A poke, or (checked every second) an ask that came or went without one.
        if listener.woken.wait(RESCAN_S) or _changed(found, listener):
            listener.woken.clear()
            return True
        return False

    choice = run_inbox_screen(lobby_lines(found), len(found), changed)
    if isinstance(choice, int):
        return found[choice]
    return choice


def _changed(found: list[PendingInfo], listener: InboxListener) -> bool:
    """True when the pending asks differ from the ones shown (one went away or came)."""
    folder = listener.path.parent
    try:
        names = {n for n in os.listdir(folder) if not n.endswith(INBOX_SUFFIX)}
    except OSError:
        return False
    return names != {info.path.name for info in found}
