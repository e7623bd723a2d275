"""Strict JSON Lines framing, as pi's RPC mode speaks it (protocols.md §1.2).

One compact JSON object per record, terminated by a single LF. Readers cut at LF only and drop
one trailing CR, so CRLF input works and U+2028 inside a string never splits a record (which
``str.splitlines`` and universal-newline text reading would do).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TextIO

_CHUNK = 65536
MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest record a reader takes; a response is small, a typed answer at most a few MiB."""


@dataclass(frozen=True, slots=True)
class OverlongLine:
    """Stands for a record longer than the limit, which was dropped unread.

    Attributes:
        size: The record's length in bytes (without its LF).
    """

    size: int


def encode_line(message: Mapping[str, object]) -> bytes:
    """``message`` as one UTF-8 record: compact JSON plus LF, non-ASCII written raw.

    A string holding a lone surrogate cannot be UTF-8; that record is written with ASCII
    escapes instead, which is still the same JSON.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


def write_line(stream: TextIO, message: Mapping[str, object]) -> None:
    """Write one record and flush it, through the byte layer when the stream has one."""
    data = encode_line(message)
    binary = getattr(stream, "buffer", None)
    if binary is None:
        stream.write(data.decode("utf-8"))
        stream.flush()
        return
    stream.flush()  # text written earlier must come out first
    binary.write(data)
    binary.flush()


def read_lines(
    stream: TextIO, *, max_bytes: int = MAX_LINE_BYTES
) -> Iterator[bytes | OverlongLine]:
    """The records of ``stream`` as bytes, without their LF (and one CR), until end of input.

    A stream backed by a file descriptor is read with ``os.read``: a reader thread then holds
    no lock of ``sys.stdin``, so the interpreter can exit while it still waits. A final record
    without LF is still produced. Every byte is looked at once, so time is linear in the
    input; a record longer than ``max_bytes`` is not kept but dropped as it streams in, and
    an ``OverlongLine`` stands in its place, so memory stays bounded too.
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    chunks = _fd_chunks(fd) if fd >= 0 else _text_chunks(stream)
    pending = bytearray()
    dropped = 0  # bytes of the current record already thrown away for being too long
    for chunk in chunks:
        searched = len(pending)  # what is pending holds no LF: search only the new bytes
        pending += chunk
        start = 0
        while (end := pending.find(b"\n", searched)) >= 0:
            yield _record(pending, start, end, dropped, max_bytes)
            dropped = 0
            start = searched = end + 1
        del pending[:start]
        if dropped + len(pending) > max_bytes:
            dropped += len(pending)
            pending.clear()
    if pending or dropped:
        yield _record(pending, 0, len(pending), dropped, max_bytes)


def _record(
    pending: bytearray, start: int, end: int, dropped: int, max_bytes: int
) -> bytes | OverlongLine:
    size = dropped + end - start
    if size > max_bytes:
        return OverlongLine(size)
    return _strip_cr(bytes(pending[start:end]))


def _strip_cr(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\r") else line


def _fd_chunks(fd: int) -> Iterator[bytes]:
    while True:
        try:
            chunk = os.read(fd, _CHUNK)
        except OSError:  # closed under us: the same as end of input
            return
        if not chunk:
            return
        yield chunk


def _text_chunks(stream: TextIO) -> Iterator[bytes]:
    # In-memory text streams (tests, embedders) have no descriptor; their lines are already
    # split on LF only when created with newline="\n", io.StringIO's default.
    while line := stream.readline():
        yield line.encode("utf-8", "surrogatepass")
