"""What a typed line means, before any state is seen."""

from __future__ import annotations

import pytest

from pi_ask.faces.plain.lines import Empty, Numbers, Slash, Text, Unknown, parse_line, split_number


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2", Numbers((2,))),
        (" 1,3 ", Numbers((1, 3))),
        ("1, 3", Numbers((1, 3))),
        ("3 1", Numbers((3, 1))),
        ("1,1,2", Numbers((1, 2))),
        ("", Empty()),
        ("   ", Empty()),
        ("Go, but later", Text("Go, but later")),
        ("2 please", Text("2 please")),
        ("1,,3", Text("1,,3")),
        ("/note 2 too slow", Slash("note", "2 too slow")),
        ("/NOTE  2  x", Slash("note", "2  x")),
        ("/back", Slash("back")),
        ("/qnote", Slash("qnote")),
        ("/usr/bin", Unknown("/usr/bin")),
        ("\\/usr/bin", Text("/usr/bin")),
        ("\\42", Text("42")),
    ],
)
def test_a_line_is_numbers_text_a_command_or_empty(line: str, expected: object) -> None:
    assert parse_line(line) == expected


def test_split_number() -> None:
    assert split_number("2 too slow") == (2, "too slow")
    assert split_number("2") == (2, "")
    assert split_number("two") == (None, "two")
