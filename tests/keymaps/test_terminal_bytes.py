"""The bytes a terminal sends for key ids (checked against prompt_toolkit in
test_ptk_bindings)."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.terminal_bytes import terminal_bytes


@pytest.mark.parametrize(
    ("key_id", "data"),
    [
        ("up", "\x1b[A"),
        ("down", "\x1b[B"),
        ("right", "\x1b[C"),
        ("left", "\x1b[D"),
        ("tab", "\t"),
        ("shift+tab", "\x1b[Z"),
        ("enter", "\r"),
        ("esc", "\x1b"),
        ("ctrl+c", "\x03"),
        ("ctrl+k", "\x0b"),
        ("ctrl+t", "\x14"),
        ("shift+n", "N"),
        ("shift+x", "X"),
        ("space", " "),
        ("backspace", "\x7f"),
        ("?", "?"),
        ("alt+x", "\x1bx"),
        ("ctrl+shift+up", "\x1b[1;6A"),
        ("pageUp", "\x1b[5~"),
        ("ctrl+pageDown", "\x1b[6;5~"),
        ("f1", "\x1bOP"),
        ("f5", "\x1b[15~"),
        ("shift+f1", "\x1b[1;2P"),
        ("ctrl+f5", "\x1b[15;5~"),
        ("ctrl+space", "\x00"),
        ("ctrl+]", "\x1d"),
        ("ctrl+1", "\x1b[1;5q"),
    ],
)
def test_bytes_of_the_reference_tests_and_more(key_id: str, data: str) -> None:
    assert terminal_bytes(key_id) == data


@pytest.mark.parametrize("key_id", ["super+k", "ctrl+shift+p", "shift+enter", "clear"])
def test_no_bytes_for_unavailable_ids(key_id: str) -> None:
    assert terminal_bytes(key_id) is None
