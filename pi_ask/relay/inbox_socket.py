"""The socket a running inbox listens on (``<runtime>/<hash>.inbox``): ``pi-ask inbox``, and
``pi-ask web`` while a paired page is connected. Askers find it (``relay.inboxes``) and route
``--ui auto`` to it; their pokes need no answer.

Apart from ``relay.inboxes`` so an asker that only looks for inboxes loads none of this.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

from pi_ask.relay import wire
from pi_ask.relay.paths import INBOX_SUFFIX, fresh_socket_name, listen_at


class InboxListener:
    """The inbox's socket: any same-user ``poke`` sets ``woken``."""

    def __init__(self, folder: Path) -> None:
        name = fresh_socket_name(INBOX_SUFFIX)
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
