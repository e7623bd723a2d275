"""The accept loop of the asker's and the inbox's sockets.

One failed ``accept`` (``EMFILE``: out of file descriptors, and its kin) must not end the
loop: the socket would stay where askers and terminals find it, and never be served again.
A failure is said in one stderr line (at most once a minute, never a traceback) and the
accept is tried again after a pause. A peer of another user is closed before a byte is
read; every other peer is handed to the caller, which bounds how many it holds.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pi_ask.relay import wire

if TYPE_CHECKING:
    import socket

BACKOFF_S = 0.5
SAY_EVERY_S = 60.0


def accept_peers(
    server: socket.socket,
    closing: threading.Event,
    take: Callable[[socket.socket], None],
    *,
    who: str,
) -> None:
    """Accept same-user peers on ``server`` and ``take`` each, until ``closing`` is set.

    Args:
        server: The listening socket; the caller sets ``closing`` before it closes it.
        closing: Set when the socket is being closed: a failed accept then ends the loop.
        take: Given every same-user peer (it owns the socket from then on).
        who: The peer, as the failure line names it ("a terminal", "an asker").
    """
    said_at: float | None = None
    while not closing.is_set():
        try:
            sock, _ = server.accept()
        except OSError as err:
            if closing.is_set():
                return
            now = time.monotonic()
            if said_at is None or now - said_at >= SAY_EVERY_S:
                said_at = now
                with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing to say
                    print(f"pi-ask: accepting {who} failed ({err}); retrying", file=sys.stderr)
            closing.wait(BACKOFF_S)
            continue
        if not wire.is_same_user(sock):
            # Refused before a byte is read: another user's process learns nothing.
            sock.close()
            continue
        take(sock)
