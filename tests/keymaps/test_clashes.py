"""Clashes: reserved digits, one key on two actions, global keys reused elsewhere."""

from __future__ import annotations

import re

import pytest

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.validation import KeymapResolution, resolve_keymaps

CONSEQUENCE = re.compile(r"; using its default [^;]* for this session$")


def lines(result: KeymapResolution) -> list[tuple[str, str]]:
    """The problems, without the fallback each error now ends with (tested on its own in
    tests/keymaps/test_fallback.py) and the line that says it for a clash's second side."""
    return [
        (problem.severity, CONSEQUENCE.sub("", str(problem)))
        for problem in result.problems
        if "(see above)" not in problem.message
    ]


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
    """The line names the key the file wrote, never a default the user did not write."""
    result = resolve_keymaps({"main": {"toggle": "enter"}})
    assert lines(result) == [
        (
            "error",
            'keymaps.main.toggle: "enter" is also bound to keymaps.main.confirm (its default)',
        )
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
            'keymaps.noteEditor.close: "enter" is also bound to keymaps.note_editor.save '
            "(its default)",
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
    # Both sides of the clash take their defaults; the other valid bindings stay.
    assert result.session_keymaps.keys("main", "cancel") == ("q",)
    assert result.session_keymaps.keys("main", "toggle") == ("space",)


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
    assert str(result.errors[0]) == (
        'keymaps.main.confirm: "super+k" is also bound to keymaps.main.toggle; using its '
        'default "enter" for this session'
    )


@pytest.mark.parametrize("context", ["main", "editor", "note_editor"])
def test_global_keys_may_not_be_reused_where_global_is_active(context: str) -> None:
    action = {"main": "toggle", "editor": "submit", "note_editor": "save"}[context]
    result = resolve_keymaps({context: {action: ["?"]}})
    assert lines(result) == [
        (
            "error",
            f'keymaps.{context}.{action}: "?" is also bound to keymaps.global.settings (its '
            "default); global keys also work in main, editor and note_editor",
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
            'keymaps.settings_modal.toggle: "ctrl+c" is also bound to '
            "keymaps.settings_modal.close (its default)",
        )
    ]
