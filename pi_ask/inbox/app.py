"""``pi-ask inbox``: a terminal that waits for pending asks and answers them one by one.

The inbox watches the asks folder (``relay.watch``): an ask that arrives, is answered or
goes away is seen at once, and nothing is listed again until one does. Its socket
(``<runtime>/<hash>.inbox``) tells askers that an inbox runs (``--ui auto`` routes to it);
their pokes need no answer. Between asks it shows a waiting screen (idle:
how to quit; several asks: a numbered list, oldest first). One ask waiting while idle opens
at once; while a flow is open, new arrivals only show as "N more waiting" in its footer, and
Ctrl+D (defer) puts the open ask back: it stays pending and is listed, never reopened by
itself. Every running inbox sees every ask; the first answer wins.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.i18n import N_, gettext, ngettext
from pi_ask.inbox.listing import lobby_lines
from pi_ask.relay.asks import AskSummary, ask_folders
from pi_ask.relay.client import list_pending
from pi_ask.relay.inbox_socket import InboxListener
from pi_ask.relay.paths import asks_dir, runtime_dir
from pi_ask.relay.watch import FolderWatch

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.face_table import TerminalFace

DEFER_HINT = N_("Ctrl+D puts this one back")
_QUIT = "quit"
_RESCAN = "rescan"


def run_inbox(*, store: SettingsStore, face: TerminalFace = "tui") -> int:
    """Wait for asks and answer them until the user quits; the exit status (0)."""
    from pi_ask.ask.face import load_face
    from pi_ask.inbox.attach import why_no_terminal

    missing = why_no_terminal("inbox")
    if missing is not None:
        print(f"pi-ask: {missing}", file=sys.stderr)
        return 2
    load_face(face)  # a face that cannot load fails before anything opens
    # And what an arrival needs before its face draws (the "question waiting" ring, the
    # hold on the ask): loaded now, while nothing waits, not between an ask and its screen.
    import pi_ask.inbox.attach
    import pi_ask.notifications.channel_list
    import pi_ask.notifications.dispatcher
    import pi_ask.notifications.waiting  # noqa: F401

    try:
        runtime = runtime_dir()
        asks = asks_dir()
    except OSError as err:
        print(f"pi-ask: {err}", file=sys.stderr)
        return 2
    listener = InboxListener(runtime)
    watch = FolderWatch(asks)
    restore = _exit_on_signals()
    seen: set[str] = set()
    deferred: set[str] = set()
    try:
        while True:
            found = list_pending(asks)
            _ring_for_new(found, seen, store)
            choice = _lobby(found, watch, deferred)
            if choice == _QUIT:
                return 0
            if isinstance(choice, AskSummary):
                deferred.discard(choice.ask_id)
                if _answer(choice, asks, store, face):
                    deferred.add(choice.ask_id)
    finally:
        restore()
        watch.close()
        listener.close()


def _exit_on_signals() -> Callable[[], None]:
    """SIGTERM and SIGHUP end the inbox through its ``finally`` (its socket removed); the
    open face takes them over for its own flow. Returns what puts the old handlers back."""

    def leave(number: int, _frame: object) -> None:
        raise SystemExit(128 + number)

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {number: signal.signal(number, leave) for number in (signal.SIGTERM, signal.SIGHUP)}

    def restore() -> None:
        for number, handler in previous.items():
            signal.signal(number, handler)

    return restore


def _ring_for_new(found: list[AskSummary], seen: set[str], store: SettingsStore) -> None:
    """One "question waiting" notification per ask the inbox has not seen before."""
    new = [info for info in found if info.ask_id not in seen]
    seen.update(info.ask_id for info in found)
    if not new:
        return
    from pi_ask.notifications.message import waiting_message
    from pi_ask.notifications.waiting import notify_waiting
    from pi_ask.relay.web_link import waiting_link

    subject = new[0].title or gettext("a question from your agent")
    settings = store.snapshot()
    # The page's link too, when pi-ask web serves the asks (its own, with inbox --web).
    link = waiting_link([info.ask_id for info in new], settings.web.public_url)
    notify_waiting(
        settings.notifications, waiting_message(subject), write_terminal=_write_tty, link=link
    ).close()


def _write_tty(text: str) -> None:
    with contextlib.suppress(OSError), open("/dev/tty", "w", encoding="utf-8") as tty:
        tty.write(text)


def _answer(info: AskSummary, asks: Path, store: SettingsStore, face: TerminalFace) -> bool:
    """Answer one ask in ``face``; True when the user put it back (deferred) instead."""
    from pi_ask.ask.face import FlowInterrupted
    from pi_ask.inbox.attach import answer_one

    others = _OthersWaiting(asks, info.ask_id)

    def more_waiting() -> str | None:
        count = others.count()
        if not count:
            return None
        text = ngettext(
            "{count} more waiting in the inbox.", "{count} more waiting in the inbox.", count
        ).format(count=count)
        return text + (f" ({gettext(DEFER_HINT)})" if face == "tui" else "")

    deferred = threading.Event()
    try:
        answer_one(
            info,
            store=store,
            face=face,
            live_notice=more_waiting,
            notice_wakeups=others.wakeups(),
            deferred=deferred,
        )
    except FlowInterrupted as stop:
        raise SystemExit(128 + stop.signal_number) from None
    finally:
        others.close()
    return deferred.is_set()


class _OthersWaiting:
    """How many other asks wait, counted again only when the asks folder changes."""

    def __init__(self, asks: Path, ask_id: str) -> None:
        self._asks = asks
        self._ask_id = ask_id
        self._watch = FolderWatch(asks)
        self._count = self._recount()

    def count(self) -> int:
        # Asked when the folder's watch is readable (or, where it polls, now and then): a
        # folder that did not change costs a read of the watch, no listing.
        if self._watch.drain():
            self._count = self._recount()
        return self._count

    def wakeups(self) -> tuple[int, ...] | None:
        """The watch's descriptor for the face to wait on; ``None`` where it polls."""
        return None if self._watch.polls else (self._watch.fileno(),)

    def _recount(self) -> int:
        return sum(
            1
            for folder in ask_folders(self._asks)
            if folder.ask_id != self._ask_id and not folder.is_claimed()
        )

    def close(self) -> None:
        self._watch.close()


def _lobby(found: list[AskSummary], watch: FolderWatch, deferred: set[str]) -> AskSummary | str:
    """Show the waiting screen until the user picks an ask, quits, or something changes.

    One ask waiting opens at once, unless the user put it back: then it is listed.
    """
    if len(found) == 1 and found[0].ask_id not in deferred:
        return found[0]
    from pi_ask.faces.tui.inbox_screen import run_inbox_screen

    # Until an ask comes, goes or is answered: the screen waits on the watch.
    choice = run_inbox_screen(lobby_lines(found), len(found), watch)
    if isinstance(choice, int):
        return found[choice]
    return choice
