"""The context and action tables of behaviour.md §8.1."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.contexts import (
    CONTEXTS,
    FIXED_SHORTCUTS,
    GLOBAL_SHARERS,
    RESERVED_KEYS,
    context_spec,
)

EXPECTED = {
    "global": [("dismiss", ("ctrl+c",)), ("settings", ("?",))],
    "main": [
        ("confirm", ("enter",)),
        ("cancel", ("esc",)),
        ("change_question_type", ("t",)),
        ("toggle", ("space",)),
        ("next_tab", ("tab", "right")),
        ("previous_tab", ("shift+tab", "left")),
        ("next_option", ("down",)),
        ("previous_option", ("up",)),
        ("option_note", ("n",)),
        ("question_note", ("shift+n",)),
        ("attach", ("a",)),
        ("detach", ("shift+a",)),
    ],
    "editor": [
        ("submit", ("enter",)),
        ("close", ("esc",)),
        ("next_tab_when_empty", ("tab", "right")),
        ("previous_tab_when_empty", ("shift+tab", "left")),
        ("next_option_when_empty", ("down",)),
        ("previous_option_when_empty", ("up",)),
    ],
    "note_editor": [
        ("save", ("enter",)),
        ("close", ("esc",)),
        ("next_tab_when_empty", ("tab", "right")),
        ("previous_tab_when_empty", ("shift+tab", "left")),
        ("next_option_when_empty", ("down",)),
        ("previous_option_when_empty", ("up",)),
    ],
    "settings_modal": [
        ("close", ("esc", "ctrl+c", "?")),
        ("next_option", ("down",)),
        ("previous_option", ("up",)),
        ("toggle", ("enter", "space")),
    ],
}


def test_contexts_actions_and_defaults_in_canonical_order() -> None:
    actual = {
        spec.name: [(action.name, action.default_keys) for action in spec.actions]
        for spec in CONTEXTS
    }
    assert actual == EXPECTED
    assert list(actual) == list(EXPECTED)


def test_labels_and_camel_case_aliases() -> None:
    assert [(spec.name, spec.alias, spec.label) for spec in CONTEXTS] == [
        ("global", "global", "Global"),
        ("main", "main", "Main flow"),
        ("editor", "editor", "Answer editor"),
        ("note_editor", "noteEditor", "Note editor"),
        ("settings_modal", "settingsModal", "Settings modal"),
    ]
    aliases = {action.name: action.alias for spec in CONTEXTS for action in spec.actions}
    assert aliases["change_question_type"] == "changeQuestionType"
    assert aliases["next_tab_when_empty"] == "nextTabWhenEmpty"
    assert aliases["previous_option_when_empty"] == "previousOptionWhenEmpty"
    assert aliases["option_note"] == "optionNote"
    assert aliases["question_note"] == "questionNote"
    assert aliases["confirm"] == "confirm"


def test_every_alias_is_the_camel_case_of_its_name() -> None:
    for spec in CONTEXTS:
        names = [(spec.name, spec.alias)] + [(a.name, a.alias) for a in spec.actions]
        for name, alias in names:
            head, *rest = name.split("_")
            assert alias == head + "".join(part.capitalize() for part in rest)


def test_descriptions() -> None:
    main = context_spec("main")
    assert main.action("confirm").description == "Confirm selection, continue, or submit"
    assert context_spec("global").action("dismiss").description == (
        "Dismiss the active ask surface"
    )
    assert context_spec("settings_modal").action("toggle").description == (
        "Toggle selected setting"
    )
    assert all(action.description for spec in CONTEXTS for action in spec.actions)


def test_when_empty_actions() -> None:
    flagged = {
        (spec.name, action.name)
        for spec in CONTEXTS
        for action in spec.actions
        if action.when_empty
    }
    assert flagged == {
        (context, f"{move}_when_empty")
        for context in ("editor", "note_editor")
        for move in ("next_tab", "previous_tab", "next_option", "previous_option")
    }


def test_lookups_fail_loudly_on_a_typo() -> None:
    with pytest.raises(KeyError, match="no keymap context 'noteEditor'"):
        context_spec("noteEditor")
    with pytest.raises(KeyError, match="has no action 'confirm'"):
        context_spec("editor").action("confirm")


def test_fixed_keys() -> None:
    assert tuple("123456789") == RESERVED_KEYS
    assert GLOBAL_SHARERS == ("main", "editor", "note_editor")
    assert [shortcut.keys for shortcut in FIXED_SHORTCUTS] == ["1..9", "@"]
