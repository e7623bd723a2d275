"""Strict JSON Lines framing (protocols.md §1.2)."""

from __future__ import annotations

import io
import json
import os

from pi_ask.dialogs.jsonl import encode_line, read_lines, write_line


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
