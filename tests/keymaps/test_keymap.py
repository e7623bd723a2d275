"""The ``Keymaps`` value and ``DEFAULT_KEYMAPS``."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, ActionBinding, Keymaps
from pi_ask.keymaps.validation import resolve_keymaps


def test_defaults_cover_every_action() -> None:
    for spec in CONTEXTS:
        for action in spec.actions:
            assert DEFAULT_KEYMAPS.keys(spec.name, action.name) == action.default_keys


def test_labels_of_the_defaults() -> None:
    assert DEFAULT_KEYMAPS.label("settings_modal", "close") == "Esc / Ctrl+C / ?"
    assert DEFAULT_KEYMAPS.label("main", "next_tab") == "Tab / →"
    assert DEFAULT_KEYMAPS.label("main", "question_note") == "Shift+N"
    assert DEFAULT_KEYMAPS.label("main", "option_note") == "n"
    assert DEFAULT_KEYMAPS.label("settings_modal", "toggle") == "Enter / Space"


def test_ids_label_keeps_raw_ids() -> None:
    assert DEFAULT_KEYMAPS.ids_label("main", "change_question_type") == "t"
    keymaps = resolve_keymaps({"main": {"change_question_type": ["ctrl+t", "T"]}}).keymaps
    assert keymaps.ids_label("main", "change_question_type") == "ctrl+t / t"
    assert keymaps.label("main", "change_question_type") == "Ctrl+T / t"


def test_unavailable_ids_are_configured_but_not_bound() -> None:
    keymaps = resolve_keymaps({"main": {"confirm": ["super+k", "enter"]}}).keymaps
    assert keymaps.keys("main", "confirm") == ("enter",)
    assert keymaps.configured("main", "confirm") == ("enter", "super+k")
    assert keymaps.binding("main", "confirm").unavailable == ("super+k",)
    assert keymaps.label("main", "confirm") == "Enter"


def test_binding_path_and_context_slice() -> None:
    binding = DEFAULT_KEYMAPS.binding("note_editor", "save")
    assert binding.path == "keymaps.note_editor.save"
    assert [b.action for b in DEFAULT_KEYMAPS.in_context("global")] == ["dismiss", "settings"]


def test_unknown_action_of_a_context_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="'editor' has no action 'confirm'"):
        DEFAULT_KEYMAPS.keys("editor", "confirm")


def test_a_keymaps_value_must_cover_every_action_in_order() -> None:
    with pytest.raises(ValueError, match="one binding per action"):
        Keymaps.of(DEFAULT_KEYMAPS.bindings[1:])
    with pytest.raises(ValueError, match="one binding per action"):
        Keymaps.of(tuple(reversed(DEFAULT_KEYMAPS.bindings)))


def test_values_compare_equal_and_are_frozen() -> None:
    again = resolve_keymaps({}).keymaps
    assert again == DEFAULT_KEYMAPS
    assert hash(again) == hash(DEFAULT_KEYMAPS)
    changed = resolve_keymaps({"main": {"confirm": "ctrl+k"}}).keymaps
    assert changed != DEFAULT_KEYMAPS
    with pytest.raises(AttributeError):
        DEFAULT_KEYMAPS.bindings = ()  # type: ignore[misc]
    assert isinstance(DEFAULT_KEYMAPS.bindings[0], ActionBinding)


def test_as_document_round_trips() -> None:
    document = DEFAULT_KEYMAPS.as_document()
    assert document["settings_modal"]["close"] == ["esc", "ctrl+c", "?"]
    assert list(document) == [spec.name for spec in CONTEXTS]
    assert resolve_keymaps(document).keymaps == DEFAULT_KEYMAPS
    keymaps = resolve_keymaps({"main": {"confirm": ["super+k", "ctrl+k"]}}).keymaps
    assert keymaps.as_document()["main"]["confirm"] == ["ctrl+k", "super+k"]
    assert resolve_keymaps(keymaps.as_document()).keymaps == keymaps


def test_the_default_table_resolves_to_the_defaults_with_no_problem() -> None:
    # config.loading takes DEFAULT_DOCUMENT for the defaults without validating it.
    from pi_ask.keymaps.keymap import DEFAULT_DOCUMENT
    from pi_ask.keymaps.validation import resolve_keymaps

    resolution = resolve_keymaps(DEFAULT_DOCUMENT)
    assert resolution.problems == ()
    assert resolution.session_keymaps == DEFAULT_KEYMAPS
    assert resolve_keymaps(None).session_keymaps == DEFAULT_KEYMAPS


def test_the_default_config_file_holds_the_default_table() -> None:
    import tomllib

    from pi_ask.config.document import canonical_values
    from pi_ask.config.migrations import migrate
    from pi_ask.config.toml_text import default_text
    from pi_ask.keymaps.keymap import DEFAULT_DOCUMENT

    document = canonical_values(migrate(tomllib.loads(default_text())))
    assert document.keymaps == DEFAULT_DOCUMENT
