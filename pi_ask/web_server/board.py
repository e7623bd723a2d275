"""The list of pending asks, live: the asks folder watched (``relay.watch``), each change
listed once and handed to every connected page's event stream.

While at least one paired page is connected, the server also listens on an inbox socket
(``relay.inbox_socket``), so ``--ui auto`` routes an ask with no terminal here (§11, §12);
with no page connected nobody would see it, so it does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import select
import threading
from collections.abc import Callable
from pathlib import Path

from pi_ask.relay.asks import AskSummary
from pi_ask.relay.client import list_pending
from pi_ask.relay.inbox_socket import InboxListener
from pi_ask.relay.watch import FolderWatch, Waker, nudge

_QUEUE_SIZE = 16


class Board:
    """Every change of the pending asks, as JSON text, for the subscribed pages."""

    def __init__(
        self,
        asks: Path,
        runtime: Path | None,
        on_listing: Callable[[set[str]], object],
        on_new: Callable[[list[AskSummary]], None] | None = None,
    ) -> None:
        self._asks = asks
        self._runtime = runtime
        self._on_listing = on_listing
        self._on_new = on_new
        self._seen: set[str] | None = None
        self._lock = threading.Lock()
        self._subscribers: set[asyncio.Queue[str]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listing = "[]"
        self._inbox: InboxListener | None = None
        self._stop = Waker()
        self._thread: threading.Thread | None = None

    @property
    def listing(self) -> str:
        """The latest listing, as a JSON array of ask summaries, oldest first."""
        return self._listing

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._listing = self._list()
        self._thread = threading.Thread(target=self._follow, name="pi-ask web board", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._stop.close()
        with self._lock:
            if self._inbox is not None:
                self._inbox.close()
                self._inbox = None

    def subscribe(self) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(_QUEUE_SIZE)
        with self._lock:
            self._subscribers.add(queue)
            if self._inbox is None and self._runtime is not None:
                with contextlib.suppress(OSError):
                    self._inbox = InboxListener(self._runtime)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        with self._lock:
            self._subscribers.discard(queue)
            if not self._subscribers and self._inbox is not None:
                self._inbox.close()
                self._inbox = None

    @property
    def connected(self) -> int:
        """How many pages are connected now."""
        with self._lock:
            return len(self._subscribers)

    def list_now(self) -> str:
        """The pending asks as they are now (JSON), read from the folder."""
        found = list_pending(self._asks)
        return json.dumps([info.to_json() for info in found], ensure_ascii=False)

    def _list(self) -> str:
        found = list_pending(self._asks)
        ids = {info.ask_id for info in found}
        self._on_listing(ids)
        # Asks pending when the server started were announced before; new ones ring.
        new = [info for info in found if self._seen is not None and info.ask_id not in self._seen]
        self._seen = ids if self._seen is None else self._seen | ids
        if new and self._on_new is not None:
            with contextlib.suppress(Exception):
                self._on_new(new)
        return json.dumps([info.to_json() for info in found], ensure_ascii=False)

    def _follow(self) -> None:
        try:
            watch = FolderWatch(self._asks)
        except OSError:
            return
        try:
            descriptors = [self._stop.fileno()]
            if watch.fileno() >= 0:
                descriptors.append(watch.fileno())
            while True:
                try:
                    readable, _, _ = select.select(
                        descriptors, [], [], 1.0 if watch.polls else None
                    )
                except (OSError, ValueError):
                    return
                if self._stop.fileno() in readable:
                    return
                if not watch.drain():
                    continue
                try:
                    listing = self._list()
                except Exception:  # an ask folder half gone: the next change lists again
                    continue
                if listing != self._listing:
                    self._listing = listing
                    loop = self._loop
                    if loop is not None:
                        with contextlib.suppress(RuntimeError):
                            loop.call_soon_threadsafe(self._publish, listing)
        finally:
            watch.close()

    def _publish(self, listing: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for queue in subscribers:
            if queue.full():
                # A page that reads nothing gets the newest listing, not a backlog.
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(listing)

    def poke(self) -> None:
        """Look at the folder again now (an ask this server answered was claimed)."""
        nudge(self._asks)
