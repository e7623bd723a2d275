"""The socket a running inbox listens on (``<runtime>/<hash>.inbox``): ``pi-ask inbox``, and
``pi-ask web`` while a paired page is connected. Askers find it (``relay.inboxes``) and route
``--ui auto`` to it; their pokes need no answer.

Peers are held by the rules of every acceptor (``relay.accepting``): at most ``MAX_PEERS``,
each let go after ``HELLO_TIMEOUT_S`` of silence, a newcomer beyond that replacing the one
held longest (``replaced_among_idle``; a peer here says one thing, its poke, and goes, so every
one held is idle), so idle connections cannot keep an asker's poke out. An accept that fails
(EMFILE) is said in one line and tried again.

Apart from ``relay.inboxes`` so an asker that only looks for inboxes loads none of this.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

from pi_ask.relay import wire
from pi_ask.relay.accepting import HELLO_TIMEOUT_S, MAX_PEERS, accept_peers, replaced_among_idle
from pi_ask.relay.paths import INBOX_SUFFIX, fresh_socket_name, listen_at


class InboxListener:
    """The inbox's socket: any same-user ``poke`` sets ``woken``."""

    def __init__(self, folder: Path) -> None:
        name = fresh_socket_name(INBOX_SUFFIX)
        self.path = folder / name
        self.woken = threading.Event()
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._peers: dict[socket.socket, None] = {}  # oldest first
        self._server = listen_at(self.path, MAX_PEERS)
        threading.Thread(target=self._accept, name="pi-ask inbox", daemon=True).start()

    def _accept(self) -> None:
        accept_peers(self._server, self._closing, self._take, who="an asker")

    def _take(self, sock: socket.socket) -> None:
        with self._lock:
            oldest = replaced_among_idle(self._peers)
            if oldest is not None:
                del self._peers[oldest]
                # Its own thread closes it: the socket is only shut down under it here.
                with contextlib.suppress(OSError):
                    oldest.shutdown(socket.SHUT_RDWR)
            self._peers[sock] = None
        threading.Thread(target=self._serve, args=(sock,), name="pi-ask poke", daemon=True).start()

    def _serve(self, sock: socket.socket) -> None:
        connection = wire.Connection(sock)
        try:
            sock.settimeout(HELLO_TIMEOUT_S)
            with contextlib.suppress(OSError, wire.ProtocolError):
                message = connection.receive()
                if message is not None and message["type"] == "poke":
                    self.woken.set()
        finally:
            with self._lock:
                self._peers.pop(sock, None)
            connection.close()

    def close(self) -> None:
        self._closing.set()
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
