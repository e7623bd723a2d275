"""Clashes: reserved digits, one key on two actions, global keys reused elsewhere."""

from __future__ import annotations

import pytest

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.validation import KeymapResolution, resolve_keymaps


def lines(result: KeymapResolution) -> list[tuple[str, str]]:
    return [(problem.severity, str(problem)) for problem in result.problems]


@pytest.mark.parametrize("context", ["global", "main", "editor", "note_editor", "settings_modal"])
def test_digits_one_to_nine_are_reserved_everywhere(context: str) -> None:
    action = next(spec for spec in CONTEXTS if spec.name == context).actions[0].name
    result = resolve_keymaps({context: {action: ["ctrl+y", "5"]}})
    assert lines(result) == [
        (
            "error",
            f'keymaps.{context}.{action}: "5" is reserved: 1-9 are the fixed number shortcuts '
            "(quick-select an option or a submit action)",
        )
    ]


def test_zero_and_modified_digits_are_not_reserved() -> None:
    assert resolve_keymaps({"main": {"toggle": ["0", "alt+1", "ctrl+5"]}}).problems == ()


def test_duplicate_in_a_context_names_both_actions() -> None:
    result = resolve_keymaps({"main": {"confirm": "enter", "toggle": "enter"}})
    assert lines(result) == [
        ("error", 'keymaps.main.confirm: "enter" is also bound to keymaps.main.toggle')
    ]


def test_duplicate_with_a_default_says_so() -> None:
    result = resolve_keymaps({"main": {"toggle": "enter"}})
    assert lines(result) == [
        ("error", 'keymaps.main.confirm: "enter" is also bound to keymaps.main.toggle')
    ]
    result = resolve_keymaps({"main": {"confirm": "space"}})
    assert lines(result) == [
        (
            "error",
            'keymaps.main.confirm: "space" is also bound to keymaps.main.toggle (its default)',
        )
    ]


def test_duplicates_use_the_path_as_written() -> None:
    result = resolve_keymaps({"noteEditor": {"close": "enter"}})
    assert lines(result) == [
        (
            "error",
            'keymaps.note_editor.save: "enter" is also bound to keymaps.noteEditor.close',
        )
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [("tab", "ctrl+i"), ("enter", "ctrl+m"), ("backspace", "ctrl+h"), ("esc", "ctrl+[")],
)
def test_ids_that_are_one_terminal_key_are_duplicates(first: str, second: str) -> None:
    result = resolve_keymaps(
        {"main": {"confirm": first, "toggle": second, "cancel": "q", "next_tab": "right"}}
    )
    assert lines(result) == [
        (
            "error",
            f'keymaps.main.confirm: "{first}" is also bound to keymaps.main.toggle as '
            f'"{second}" (a terminal sends the same key for both)',
        )
    ]
    assert result.session_keymaps is DEFAULT_KEYMAPS


def test_one_terminal_key_twice_in_one_action_is_a_warning() -> None:
    result = resolve_keymaps({"main": {"next_tab": ["tab", "ctrl+i", "right"]}})
    assert lines(result) == [
        (
            "warning",
            'keymaps.main.next_tab: "ctrl+i" is the same terminal key as "tab"; one of them '
            "is enough",
        )
    ]
    assert result.keymaps.keys("main", "next_tab") == ("tab", "ctrl+i", "right")


def test_unavailable_ids_still_clash_with_each_other() -> None:
    result = resolve_keymaps({"main": {"confirm": ["enter", "super+k"], "toggle": ["super+k"]}})
    assert [p.severity for p in result.problems].count("error") == 1
    assert str(result.errors[0]) == (
        'keymaps.main.confirm: "super+k" is also bound to keymaps.main.toggle'
    )


@pytest.mark.parametrize("context", ["main", "editor", "note_editor"])
def test_global_keys_may_not_be_reused_where_global_is_active(context: str) -> None:
    action = {"main": "toggle", "editor": "submit", "note_editor": "save"}[context]
    result = resolve_keymaps({context: {action: ["?"]}})
    assert lines(result) == [
        (
            "error",
            f'keymaps.global.settings: "?" is also bound to keymaps.{context}.{action}; global '
            "keys also work in main, editor and note_editor",
        )
    ]


def test_global_reuse_counts_terminal_twins() -> None:
    result = resolve_keymaps({"global": {"dismiss": "ctrl+c", "settings": "ctrl+i"}})
    assert lines(result)[0] == (
        "error",
        'keymaps.global.settings: "ctrl+i" is also bound to keymaps.main.next_tab (its '
        'default) as "tab" (a terminal sends the same key for both); global keys also work in '
        "main, editor and note_editor",
    )
    assert len(result.errors) == 3


def test_the_settings_modal_may_reuse_global_keys() -> None:
    result = resolve_keymaps({"settings_modal": {"close": "esc", "toggle": ["ctrl+c", "?"]}})
    assert result.problems == ()
    # ... but two of its own actions still may not share a key.
    result = resolve_keymaps({"settings_modal": {"toggle": ["ctrl+c"]}})
    assert lines(result) == [
        (
            "error",
            'keymaps.settings_modal.close: "ctrl+c" is also bound to keymaps.settings_modal.toggle',
        )
    ]
