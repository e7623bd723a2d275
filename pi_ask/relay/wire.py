"""The pending-ask protocol: JSON objects, one per line, over a same-user unix socket.

Every message is an object with ``"v": 1`` and a ``"type"``; a line longer than
``MAX_LINE`` bytes, one that is not UTF-8 JSON, or an object of the wrong shape is refused.
Peers are checked with the kernel's credentials of the socket (``SO_PEERCRED`` on Linux,
``LOCAL_PEERCRED`` on macOS, ``relay.accepting.is_same_user``): another user's process is
refused before it can say anything.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
from collections.abc import Mapping
from typing import Final

from pi_ask.relay.accepting import is_same_user

VERSION: Final = 1
# A payload is at most 1 MiB of JSON; its params may be escaped further, plus the envelope.
MAX_LINE: Final = 4 * 1024 * 1024
_CHUNK = 65536

Message = dict[str, object]


class ProtocolError(Exception):
    """The peer sent something that is not a message of this protocol."""


class Connection:
    """One end of a connection: whole messages in, whole messages out, thread-safe sends."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = bytearray()
        self._send_lock = threading.Lock()
        self.closed = False

    def send(self, message: Mapping[str, object]) -> bool:
        """Send one message; ``False`` when the peer is gone."""
        data = json.dumps({"v": VERSION, **message}, ensure_ascii=False).encode() + b"\n"
        with self._send_lock:
            try:
                self.sock.sendall(data)
            except OSError:
                return False
        return True

    def receive(self) -> Message | None:
        """The next message; ``None`` at end of input.

        Raises:
            ProtocolError: The line is too long, not JSON, or not a version 1 message.
            OSError: The socket failed (a timeout included).
        """
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if line.strip():
                    return parse_line(line)
                continue
            if len(self._buffer) > MAX_LINE:
                raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
            chunk = self.sock.recv(_CHUNK)
            if not chunk:
                if self._buffer.strip():
                    raise ProtocolError("the connection ended inside a message")
                return None
            self._buffer += chunk

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def parse_line(line: bytes) -> Message:
    """One message from one line, checked for the envelope only."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ProtocolError(f"not a JSON line ({type(err).__name__})") from None
    if not isinstance(value, dict):
        raise ProtocolError("a message must be a JSON object")
    if value.get("v") != VERSION:
        raise ProtocolError(f'"v" must be {VERSION}')
    if not isinstance(value.get("type"), str):
        raise ProtocolError('"type" must be a string')
    return value


def connect(path: str, *, timeout_s: float = 5.0) -> Connection:
    """Connect to the socket at ``path`` and check that its owner is this user.

    Raises:
        ConnectionRefusedError / FileNotFoundError: Nobody listens there (a dead asker).
        BlockingIOError: Its backlog stayed full for ``timeout_s`` (a stopped listener).
        PermissionError: The listener runs as another user.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        # A full backlog (a burst of peers) is waited out, up to the timeout, by a blocking
        # connect with a send timeout: with Python's own timeout the connect would fail at
        # once (EAGAIN), taking a busy listener for one that cannot be reached.
        _send_timeout(sock, timeout_s)
        sock.connect(path)
        _send_timeout(sock, 0)
        sock.settimeout(timeout_s)
    except OSError:
        sock.close()
        raise
    if not is_same_user(sock):
        sock.close()
        raise PermissionError(f"{path} is served by another user")
    return Connection(sock)


def _send_timeout(sock: socket.socket, seconds: float) -> None:
    """``SO_SNDTIMEO``, which bounds a blocking unix connect's wait for room (0: none)."""
    whole = int(seconds)
    timeval = struct.pack("ll", whole, int((seconds - whole) * 1_000_000))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeval)
