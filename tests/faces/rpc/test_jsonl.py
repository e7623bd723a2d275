"""Strict JSON Lines framing (protocols.md §1.2)."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from collections.abc import Callable
from typing import TextIO

from pi_ask.faces.rpc.jsonl import (
    MAX_LINE_BYTES,
    OverlongLine,
    encode_line,
    read_lines,
    write_line,
)


def test_records_are_compact_utf8_with_one_lf() -> None:
    line = encode_line({"title": "Type something…", "n": [1, 2], "s": "a\u2028b"})
    assert line == '{"title":"Type something…","n":[1,2],"s":"a\u2028b"}\n'.encode()
    assert line.count(b"\n") == 1


def test_a_lone_surrogate_falls_back_to_ascii_escapes() -> None:
    line = encode_line({"s": "x\ud800"})
    assert line == b'{"s":"x\\ud800"}\n'
    assert json.loads(line) == {"s": "x\ud800"}


def test_text_streams_without_a_byte_layer() -> None:
    stream = io.StringIO()
    write_line(stream, {"a": "é"})
    assert stream.getvalue() == '{"a":"é"}\n'


def test_text_written_before_comes_out_first() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    stream.write("first\n")
    write_line(stream, {"a": 1})
    assert raw.getvalue() == b'first\n{"a":1}\n'


def test_reading_a_pipe_cuts_at_lf_only() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b'{"a":"x\xe2\x80\xa8y"}\r\nsecond\x0bstill\n\nlast without lf')
    os.close(write_fd)
    with os.fdopen(read_fd, "r") as stream:
        lines = list(read_lines(stream))
    assert lines == [b'{"a":"x\xe2\x80\xa8y"}', b"second\x0bstill", b"", b"last without lf"]


def test_reading_a_pipe_in_small_pieces() -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "r") as stream:
        lines = read_lines(stream)
        os.write(write_fd, b"ab")
        os.write(write_fd, b"c\nd")
        assert next(lines) == b"abc"
        os.write(write_fd, b"e\r")
        os.close(write_fd)
        assert list(lines) == [b"de"]


def test_reading_an_in_memory_stream() -> None:
    assert list(read_lines(io.StringIO("one\r\ntwo\u2028half\nthree"))) == [
        b"one",
        "two\u2028half".encode(),
        b"three",
    ]


def _pipe_feeding(data: bytes) -> tuple[int, threading.Thread]:
    """A pipe's read end, and the thread writing ``data`` into it (then closing it)."""
    read_fd, write_fd = os.pipe()

    def feed() -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view[:65536]) :]
        os.close(write_fd)

    writer = threading.Thread(target=feed)
    writer.start()
    return read_fd, writer


def test_a_record_over_the_limit_is_dropped_and_named() -> None:
    data = b"x" * 300 + b"\r\nok\n" + b"y" * 250 + b"\nlast" + b"z" * 400
    read_fd, writer = _pipe_feeding(data)
    with os.fdopen(read_fd, "r") as stream:
        lines = list(read_lines(stream, max_bytes=200))
    writer.join()
    assert lines == [OverlongLine(301), b"ok", OverlongLine(250), OverlongLine(404)]
    assert list(read_lines(io.StringIO("a" * 201 + "\nb\n"), max_bytes=200)) == [
        OverlongLine(201),
        b"b",
    ]
    assert MAX_LINE_BYTES == 16 * 1024 * 1024


def _seconds_to_read(data: bytes, read: Callable[[TextIO], object]) -> float:
    read_fd, writer = _pipe_feeding(data)
    with os.fdopen(read_fd, "r") as stream:
        began = time.perf_counter()
        read(stream)
        took = time.perf_counter() - began
    writer.join()
    return took


def _drain(stream: TextIO) -> None:
    while os.read(stream.fileno(), 65536):
        pass


def test_a_long_line_is_read_in_linear_time_and_bounded_memory() -> None:
    """A 64 MiB record in 64 KiB pipe chunks, against a floor that only drains the pipe.

    Rescanning the pending record on every chunk (the old reader) looked at some 500 times
    more bytes than there are: about 440 floors here. One look per byte stays within a few.
    """
    size = 64 * 1024 * 1024
    data = b"a" * size + b"\nb\n"
    lines: list[object] = []
    floor = min(_seconds_to_read(data, _drain) for _ in range(3))
    took = min(_seconds_to_read(data, lambda s: lines.extend(read_lines(s))) for _ in range(3))
    assert lines[:2] == [OverlongLine(size), b"b"]
    assert took < 20 * floor + 0.05, (took, floor)
