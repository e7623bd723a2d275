"""What a terminal delivers for each key id (protocols.md §2.6), without prompt_toolkit."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.terminal_keys import is_available, terminal_keys, unavailable_reason


@pytest.mark.parametrize(
    ("key_id", "keys"),
    [
        ("esc", ("escape",)),
        ("enter", ("c-m",)),
        ("tab", ("c-i",)),
        ("space", (" ",)),
        ("backspace", ("c-h",)),
        ("delete", ("delete",)),
        ("pageUp", ("pageup",)),
        ("up", ("up",)),
        ("f1", ("f1",)),
        ("n", ("n",)),
        ("?", ("?",)),
        ("@", ("@",)),
        ("shift+tab", ("s-tab",)),
        ("shift+up", ("s-up",)),
        ("shift+pageDown", ("s-pagedown",)),
        ("shift+n", ("N",)),
        ("shift+f1", ("f13",)),
        ("shift+f12", ("f24",)),
        ("ctrl+c", ("c-c",)),
        ("ctrl+k", ("c-k",)),
        ("ctrl+space", ("c-@",)),
        ("ctrl+[", ("escape",)),
        ("ctrl+\\", ("c-\\",)),
        ("ctrl+]", ("c-]",)),
        ("ctrl+-", ("c-_",)),
        ("ctrl+_", ("c-_",)),
        ("ctrl+^", ("c-^",)),
        ("ctrl+@", ("c-@",)),
        ("ctrl+0", ("c-0",)),
        ("ctrl+backspace", ("c-h",)),
        ("ctrl+up", ("c-up",)),
        ("ctrl+delete", ("c-delete",)),
        ("ctrl+f1", ("c-f1",)),
        ("alt+x", ("escape", "x")),
        ("alt+?", ("escape", "?")),
        ("alt+enter", ("escape", "c-m")),
        ("alt+space", ("escape", " ")),
        ("alt+backspace", ("escape", "c-h")),
        ("alt+esc", ("escape", "escape")),
        ("alt+up", ("escape", "up")),
        ("alt+insert", ("escape", "insert")),
        ("alt+pageDown", ("escape", "pagedown")),
        ("shift+alt+x", ("escape", "X")),
        ("shift+alt+up", ("escape", "s-up")),
        ("ctrl+alt+x", ("escape", "c-x")),
        ("ctrl+alt+[", ("escape", "escape")),
        ("ctrl+alt+1", ("escape", "c-1")),
        ("ctrl+alt+up", ("escape", "c-up")),
        ("ctrl+alt+insert", ("escape", "c-insert")),
        ("ctrl+shift+1", ("c-s-1",)),
        ("ctrl+shift+left", ("c-s-left",)),
        ("ctrl+shift+up", ("c-s-up",)),
        ("ctrl+shift+pageUp", ("c-s-pageup",)),
        ("ctrl+shift+alt+up", ("escape", "c-s-up")),
        ("ctrl+shift+alt+home", ("escape", "c-s-home")),
    ],
)
def test_available_keys(key_id: str, keys: tuple[str, ...]) -> None:
    assert terminal_keys(key_id) == keys
    assert is_available(key_id)
    assert unavailable_reason(key_id) is None


@pytest.mark.parametrize(
    ("key_id", "reason_part"),
    [
        ("super+k", "Kitty keyboard protocol"),
        ("super+up", "Kitty keyboard protocol"),
        ("ctrl+super+c", "Kitty keyboard protocol"),
        ("ctrl+shift+p", "same byte as ctrl+p"),
        ("ctrl+shift+alt+p", "same byte as ctrl+p"),
        ("shift+enter", "as plain Enter"),
        ("ctrl+enter", "as plain Enter"),
        ("shift+space", "as plain Space"),
        ("ctrl+tab", "as plain Tab"),
        ("shift+esc", "as plain Esc"),
        ("ctrl+esc", "as plain Esc"),
        ("shift+backspace", "as plain Backspace"),
        ("ctrl+shift+enter", "as plain Enter"),
        ("clear", "ignores the clear key"),
        ("ctrl+clear", "ignores the clear key"),
        ("shift+1", 'bind that character instead (e.g. "?"'),
        ("shift+/", 'bind that character instead (e.g. "?"'),
        ("ctrl+/", "no control code for ctrl+/"),
        ("ctrl+.", "no control code for ctrl+."),
        ("alt+f1", "no key sequence for alt+f1"),
        ("shift+insert", "no key sequence for shift+insert"),
        ("ctrl+insert", "no key sequence for ctrl+insert"),
        ("ctrl+shift+insert", "no key sequence"),
        ("ctrl+alt+delete", "no key sequence"),
        ("shift+f3", "cursor-position report"),
        ("ctrl+f3", "cursor-position report"),
        ("ctrl+alt+pageUp", "as one key"),
        ("ctrl+shift+alt+pageDown", "as one key"),
        ("ctrl+shift+f1", "no key sequence"),
        ("ctrl+shift+/", "no key sequence"),
        ("alt+tab", "(Esc Tab) as shift+tab"),
        ("ctrl+alt+i", "(Esc Tab) as shift+tab"),
    ],
)
def test_unavailable_keys(key_id: str, reason_part: str) -> None:
    assert terminal_keys(key_id) is None
    assert not is_available(key_id)
    reason = unavailable_reason(key_id)
    assert reason is not None
    assert reason_part in reason


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("tab", "ctrl+i"),
        ("enter", "ctrl+m"),
        ("backspace", "ctrl+h"),
        ("backspace", "ctrl+backspace"),
        ("esc", "ctrl+["),
        ("ctrl+-", "ctrl+_"),
        ("ctrl+space", "ctrl+@"),
        ("alt+esc", "ctrl+alt+["),
        ("alt+backspace", "ctrl+alt+h"),
        ("alt+enter", "ctrl+alt+m"),
    ],
)
def test_ids_that_collapse_onto_one_terminal_key(first: str, second: str) -> None:
    assert terminal_keys(first) == terminal_keys(second)


def test_single_characters_keep_their_case() -> None:
    assert terminal_keys("n") != terminal_keys("shift+n")
