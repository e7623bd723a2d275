"""Flat legacy keymaps (behaviour.md §8.7)."""

from __future__ import annotations

from pi_ask.keymaps.contexts import Action, Context
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, Keymaps
from pi_ask.keymaps.legacy import convert_legacy_keymaps, is_legacy_keymaps
from pi_ask.keymaps.validation import resolve_keymaps


def test_conversion_of_the_spec_example() -> None:
    converted = convert_legacy_keymaps({"cancel": "q", "confirm": "ctrl+k", "dismiss": "ctrl+d"})
    assert converted == {
        "global": {"dismiss": "ctrl+d"},
        "main": {"cancel": "q", "confirm": "ctrl+k"},
        "editor": {"close": "q", "submit": "ctrl+k"},
        "note_editor": {"close": "q", "save": "ctrl+k"},
    }


def keys_of(keymaps: Keymaps, pairs: tuple[tuple[Context, Action], ...]) -> set[tuple[str, ...]]:
    return {keymaps.keys(context, action) for context, action in pairs}


def test_resolving_the_spec_example() -> None:
    result = resolve_keymaps({"cancel": "q", "confirm": "ctrl+k", "dismiss": "ctrl+d"})
    keymaps = result.keymaps
    cancels: tuple[tuple[Context, Action], ...] = (
        ("main", "cancel"),
        ("editor", "close"),
        ("note_editor", "close"),
    )
    assert keys_of(keymaps, cancels) == {("q",)}
    confirms: tuple[tuple[Context, Action], ...] = (
        ("main", "confirm"),
        ("editor", "submit"),
        ("note_editor", "save"),
    )
    assert keys_of(keymaps, confirms) == {("ctrl+k",)}
    assert keymaps.keys("global", "dismiss") == ("ctrl+d",)
    # Everything else keeps its default.
    untouched = [
        binding
        for binding in keymaps.bindings
        if (binding.context, binding.action) not in {*cancels, *confirms, ("global", "dismiss")}
    ]
    assert len(untouched) == len(DEFAULT_KEYMAPS.bindings) - 7
    for binding in untouched:
        assert binding == DEFAULT_KEYMAPS.binding(binding.context, binding.action)
    assert not result.has_errors
    assert [str(problem) for problem in result.problems] == [
        "keymaps: flat keymaps (reference config schema 3 and older) were read as "
        "per-context keymaps; write them as [keymaps.main] and so on"
    ]


def test_the_other_fields_and_their_aliases() -> None:
    keymaps = resolve_keymaps(
        {"toggle": "x", "optionNote": "o", "question_note": "shift+o"}
    ).keymaps
    assert keymaps.keys("main", "toggle") == ("x",)
    assert keymaps.keys("main", "option_note") == ("o",)
    assert keymaps.keys("main", "question_note") == ("shift+o",)


def test_non_strings_and_unknown_fields_keep_the_defaults() -> None:
    result = resolve_keymaps({"confirm": ["ctrl+k"], "toggle": 3, "bogus": "x", "cancel": "q"})
    assert result.keymaps.keys("main", "confirm") == ("enter",)
    assert result.keymaps.keys("main", "toggle") == ("space",)
    assert result.keymaps.keys("main", "cancel") == ("q",)
    assert [(p.path, p.severity, p.message) for p in result.problems[1:]] == [
        (
            "keymaps.confirm",
            "warning",
            'must be a key id string, got ["ctrl+k"]; the defaults are kept',
        ),
        ("keymaps.toggle", "warning", "must be a key id string, got 3; the defaults are kept"),
        ("keymaps.bogus", "warning", "unknown flat keymap field; it is ignored"),
    ]


def test_bad_key_ids_are_reported_once_at_the_flat_field() -> None:
    result = resolve_keymaps({"confirm": "ctrl+kk"})
    assert [str(p) for p in result.errors] == [
        'keymaps.confirm: "ctrl+kk" is not a key id: unsupported key kk'
    ]
    assert result.keymaps == DEFAULT_KEYMAPS


def test_converted_keys_are_still_checked_for_clashes() -> None:
    result = resolve_keymaps({"cancel": "enter"})
    assert (
        'keymaps.main.cancel: "enter" is also bound to keymaps.main.confirm (its default); '
        'using its default "esc" for this session'
    ) in [str(p) for p in result.errors]


def test_detection() -> None:
    assert is_legacy_keymaps({"confirm": "x"})
    assert is_legacy_keymaps({"optionNote": "x", "unknown": 1})
    assert not is_legacy_keymaps({})
    assert not is_legacy_keymaps({"main": {}, "confirm": "x"})
    assert not is_legacy_keymaps({"noteEditor": {}})
    assert not is_legacy_keymaps({"editor": {}})
    assert not is_legacy_keymaps({"bogus": 1})


def test_a_capital_letter_is_reported_once() -> None:
    result = resolve_keymaps({"toggle": "X"})
    assert result.keymaps.keys("main", "toggle") == ("x",)
    assert [(p.path, p.severity) for p in result.problems] == [
        ("keymaps", "warning"),
        ("keymaps.toggle", "warning"),
    ]
