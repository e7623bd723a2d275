"""Key-id grammar, aliases, canonical form and display labels (behaviour.md §8.3, §8.5)."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.key_ids import (
    BASE_ALIASES,
    FUNCTION_KEYS,
    MODIFIER_ALIASES,
    NAMED_KEYS,
    SYMBOLS,
    KeyIdError,
    key_label,
    keys_label,
    parse_key_id,
    split_key_id,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("escape", "esc"),
        ("return", "enter"),
        ("control+c", "ctrl+c"),
        ("Shift+N", "shift+n"),
        ("pageup", "pageUp"),
        ("PgUp", "pageUp"),
        ("Control+Shift+P", "ctrl+shift+p"),
        ("shift+ctrl+alt+x", "ctrl+shift+alt+x"),
        ("option+f7", "alt+f7"),
        ("cmd+k", "super+k"),
        ("N", "n"),
        ("  ctrl + c  ", "ctrl+c"),
        ("ctrl++c", "ctrl+c"),
        ("ctrl+ctrl+c", "ctrl+c"),
        ("super+alt+shift+ctrl+up", "ctrl+shift+alt+super+up"),
        ("?", "?"),
        ("F12", "f12"),
        ("ArrowLeft", "left"),
    ],
)
def test_normalizes_the_examples(text: str, canonical: str) -> None:
    assert parse_key_id(text) == canonical


@pytest.mark.parametrize(("alias", "canonical"), sorted(MODIFIER_ALIASES.items()))
def test_every_modifier_alias(alias: str, canonical: str) -> None:
    assert parse_key_id(f"{alias}+x") == f"{canonical}+x"
    assert parse_key_id(f"{alias.upper()}+x") == f"{canonical}+x"


@pytest.mark.parametrize(("alias", "canonical"), sorted(BASE_ALIASES.items()))
def test_every_base_alias(alias: str, canonical: str) -> None:
    assert parse_key_id(alias) == canonical
    assert parse_key_id(f"ctrl+{alias.upper()}") == f"ctrl+{canonical}"


@pytest.mark.parametrize(
    "base",
    [*NAMED_KEYS, *FUNCTION_KEYS, *"abcxyz0189", *SYMBOLS.replace("+", "")],
)
def test_every_base_key_is_canonical_already(base: str) -> None:
    assert parse_key_id(base) == base
    assert parse_key_id(f"alt+{base}") == f"alt+{base}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty binding"),
        ("   ", "empty binding"),
        ("+", "empty binding"),
        ("++", "empty binding"),
        ("f13", "unsupported key f13"),
        ("foo", "unsupported key foo"),
        ("ctrl+", "unsupported key ctrl"),
        ("hyper+x", "unsupported modifier hyper"),
        ("capslock+x", "unsupported modifier capslock"),
        ("ctrl+shift+é", "unsupported key é"),
        ("ctrl+tabb", "unsupported key tabb"),
    ],
)
def test_rejects_with_the_reference_reason(text: str, reason: str) -> None:
    with pytest.raises(KeyIdError) as caught:
        parse_key_id(text)
    assert caught.value.reason == reason
    assert str(caught.value) == reason


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("ctrl+tabb", "ctrl+tab"),
        ("escpae", "esc"),
        ("ctr+k", "ctrl+k"),
        ("shft+tab", "shift+tab"),
        ("pagedwn", "pageDown"),
        ("foo", None),
        ("x+y", None),
    ],
)
def test_suggests_a_close_key_id(text: str, suggestion: str | None) -> None:
    with pytest.raises(KeyIdError) as caught:
        parse_key_id(text)
    assert caught.value.suggestion == suggestion


def test_split_key_id() -> None:
    assert split_key_id("ctrl+shift+p") == (frozenset({"ctrl", "shift"}), "p")
    assert split_key_id("?") == (frozenset(), "?")


@pytest.mark.parametrize(
    ("key_id", "label"),
    [
        ("ctrl+c", "Ctrl+C"),
        ("shift+tab", "Shift+Tab"),
        ("space", "Space"),
        ("n", "n"),
        ("shift+n", "Shift+N"),
        ("?", "?"),
        ("alt+f7", "Alt+F7"),
        ("ctrl+pageDown", "Ctrl+pageDown"),
        ("pageUp", "pageUp"),
        ("esc", "Esc"),
        ("enter", "Enter"),
        ("up", "↑"),
        ("down", "↓"),
        ("left", "←"),
        ("right", "→"),
        ("shift+up", "Shift+Up"),
        ("t", "t"),
    ],
)
def test_labels(key_id: str, label: str) -> None:
    assert key_label(key_id) == label


def test_several_labels_join_with_a_slash() -> None:
    assert keys_label(("esc", "ctrl+c", "?")) == "Esc / Ctrl+C / ?"
    assert keys_label(()) == ""
