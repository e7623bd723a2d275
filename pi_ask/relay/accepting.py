"""Accepting peers on the asker's and the inbox's sockets: the one loop, and the rules every
acceptor keeps.

One failed ``accept`` (``EMFILE``: out of file descriptors, and its kin) must not end the
loop: the socket would stay where askers and terminals find it, and never be served again.
A failure is said in one stderr line (at most once a minute, never a traceback,
``AcceptFailures``) and the accept is tried again after ``BACKOFF_S``. A peer of another user
is closed before a byte is read (``is_same_user``); every other peer is handed to the caller,
which bounds how many it holds.

An asker holds at most ``MAX_PEERS`` terminals, each to say hello within
``HELLO_TIMEOUT_S``; a newcomer beyond that replaces the peer that has waited longest
without saying hello (``room_for_newcomer``: idle peers cannot hide the ask from a terminal;
``replaced_among_idle`` where every peer held is idle).
The asker (``relay.pending``, a thread per peer), the small waiting process it may become
(``cli/waiting.py``, one ``select`` loop) and the inbox's socket (``relay.inbox_socket``,
whose peers say one poke and go) keep these rules alike. That process loads this
module and nothing of the relay besides, so it imports only what that process holds
anyway (``os``, ``socket``, ``sys``, ``time``): no JSON, no threads, no ``struct``, no
``typing``, no ``contextlib``.
"""

from __future__ import annotations

import os
import socket
import sys
import time

# Not ``typing.TYPE_CHECKING``: the small waiting process would load ``typing`` for it
# (see ``pi_ask/__init__.py``). Type checkers read any ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Collection, Iterable
    from typing import TypeVar

    Peer = TypeVar("Peer")

MAX_PEERS = 16
"""Peers an asker holds at once (the listening socket's backlog too)."""
HELLO_TIMEOUT_S = 5.0
"""How long a connected peer may stay silent before it is let go."""
BACKOFF_S = 0.5
"""The pause after a failed accept before the next."""
SAY_EVERY_S = 60.0
"""A failing accept is said at most this often."""


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of a unix socket, if the OS says."""
    so_peercred: int | None = getattr(socket, "SO_PEERCRED", None)
    if so_peercred is not None:  # Linux: struct ucred {pid_t pid; uid_t uid; gid_t gid;}
        creds = sock.getsockopt(socket.SOL_SOCKET, so_peercred, 12)
        return int.from_bytes(creds[4:8], sys.byteorder)
    local_peercred: int | None = getattr(socket, "LOCAL_PEERCRED", None)
    if local_peercred is None:
        return None
    # macOS and the BSDs: struct xucred {u_int cr_version; uid_t cr_uid; ...} at level 0.
    creds = sock.getsockopt(0, local_peercred, 8)
    return int.from_bytes(creds[4:8], sys.byteorder)


def is_same_user(sock: socket.socket) -> bool:
    """True when the peer runs as this user; unknown credentials count as another user."""
    try:
        return peer_uid(sock) == os.getuid()
    except OSError:
        return False


def room_for_newcomer(held: int, idle_oldest_first: Iterable[Peer]) -> tuple[bool, Peer | None]:
    """Whether a newcomer is taken while ``held`` peers are, and which idle peer (one that
    has not said hello, the one that has waited longest) it replaces, if any.

    Below ``MAX_PEERS`` it is taken beside them; at ``MAX_PEERS`` it replaces the oldest
    idle peer; when every one held is a terminal showing the ask, it is refused.
    """
    if held < MAX_PEERS:
        return True, None
    for idle in idle_oldest_first:
        return True, idle
    return False, None


def replaced_among_idle(held_oldest_first: Collection[Peer]) -> Peer | None:
    """``room_for_newcomer`` where every peer held is idle (a poke not yet read, a terminal
    that has not said hello): the newcomer is always taken, in place of the peer held
    longest once ``MAX_PEERS`` are; which one, or ``None`` below that."""
    return room_for_newcomer(len(held_oldest_first), held_oldest_first)[1]


class AcceptFailures:
    """Says a failing accept in one stderr line, at most once every ``SAY_EVERY_S``.

    Args:
        who: The peer, as the line names it ("a terminal", "an asker").
    """

    def __init__(self, who: str) -> None:
        self.who = who
        self._said_at: float | None = None

    def failed(self, error: OSError) -> None:
        """An accept failed with ``error``: say so, unless it was said within the minute."""
        now = time.monotonic()
        if self._said_at is not None and now - self._said_at < SAY_EVERY_S:
            return
        self._said_at = now
        # Not contextlib.suppress: the small waiting process would load contextlib for it.
        try:  # noqa: SIM105
            print(f"pi-ask: accepting {self.who} failed ({error}); retrying", file=sys.stderr)
        except (OSError, ValueError):  # stderr closed: nothing to say
            pass


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
    failures = AcceptFailures(who)
    while not closing.is_set():
        try:
            sock, _ = server.accept()
        except OSError as err:
            if closing.is_set():
                return
            failures.failed(err)
            closing.wait(BACKOFF_S)
            continue
        if not is_same_user(sock):
            # Refused before a byte is read: another user's process learns nothing.
            sock.close()
            continue
        take(sock)
