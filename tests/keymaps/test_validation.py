"""``resolve_keymaps``: every rule and its message (python-port.md §4, §10)."""

from __future__ import annotations

import re

import pytest

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
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


def test_absent_and_empty_documents_are_the_defaults() -> None:
    documents: tuple[object, ...] = (None, {}, {"main": {}}, {"main": None})
    for document in documents:
        result = resolve_keymaps(document)
        assert result.keymaps == DEFAULT_KEYMAPS
        assert result.problems == ()


def test_a_partial_table_merges_with_the_defaults() -> None:
    result = resolve_keymaps({"main": {"confirm": ["ctrl+k"]}})
    assert result.problems == ()
    assert result.keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert result.keymaps.keys("main", "cancel") == ("esc",)
    assert result.keymaps.keys("editor", "submit") == ("enter",)


def test_a_string_binding_and_normalized_duplicates() -> None:
    result = resolve_keymaps({"main": {"confirm": "Return", "toggle": ["x", "X", " x "]}})
    assert result.keymaps.keys("main", "confirm") == ("enter",)
    assert result.keymaps.keys("main", "toggle") == ("x",)
    assert [p.severity for p in result.problems] == ["warning"]


@pytest.mark.parametrize(
    ("context", "action"),
    [
        (spec, action)
        for spec in CONTEXTS
        for action in spec.actions
        if (spec.alias, action.alias) != (spec.name, action.name)
    ],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_every_camel_case_alias_is_read(context: object, action: object) -> None:
    from pi_ask.keymaps.contexts import ActionSpec, ContextSpec

    assert isinstance(context, ContextSpec)
    assert isinstance(action, ActionSpec)
    result = resolve_keymaps({context.alias: {action.alias: "ctrl+y"}})
    assert result.problems == ()
    assert result.keymaps.keys(context.name, action.name) == ("ctrl+y",)


def test_snake_case_wins_over_an_alias_given_too() -> None:
    result = resolve_keymaps(
        {
            "noteEditor": {"save": "ctrl+s"},
            "note_editor": {"save": "ctrl+w"},
            "main": {"changeQuestionType": "y", "change_question_type": "z"},
        }
    )
    assert result.keymaps.keys("note_editor", "save") == ("ctrl+w",)
    assert result.keymaps.keys("main", "change_question_type") == ("z",)
    assert lines(result) == [
        (
            "warning",
            "keymaps.noteEditor: repeats keymaps.note_editor under another name; "
            "keymaps.note_editor is used",
        ),
        (
            "warning",
            "keymaps.main.changeQuestionType: repeats keymaps.main.change_question_type under "
            "another name; keymaps.main.change_question_type is used",
        ),
    ]


def test_not_a_table() -> None:
    result = resolve_keymaps(42)
    assert result.keymaps == DEFAULT_KEYMAPS
    assert lines(result) == [
        (
            "error",
            "keymaps: must be a table of keymap contexts (global, main, editor, note_editor, "
            "settings_modal), got 42",
        )
    ]
    assert str(resolve_keymaps(["main"]).problems[0]).endswith('got ["main"]')


def test_a_context_that_is_not_a_table() -> None:
    result = resolve_keymaps({"main": "enter"})
    assert lines(result) == [("error", 'keymaps.main: must be a table of actions, got "enter"')]


def test_unknown_contexts_and_actions_are_warnings() -> None:
    result = resolve_keymaps(
        {"noteeditor": {}, "zzz": {}, "main": {"confrim": "x", "nextTabWhenEmpty": "y"}}
    )
    assert not result.has_errors
    assert lines(result) == [
        (
            "warning",
            'keymaps.noteeditor: unknown keymap context (did you mean "note_editor"?); '
            "expected one of global, main, editor, note_editor, settings_modal",
        ),
        (
            "warning",
            "keymaps.zzz: unknown keymap context; expected one of global, main, editor, "
            "note_editor, settings_modal",
        ),
        (
            "warning",
            'keymaps.main.confrim: unknown action for main (did you mean "confirm"?); expected '
            "one of confirm, cancel, change_question_type, toggle, next_tab, previous_tab, "
            "next_option, previous_option, option_note, question_note, attach, detach",
        ),
        (
            "warning",
            "keymaps.main.nextTabWhenEmpty: unknown action for main (it belongs to editor, "
            "note_editor); expected one of confirm, cancel, change_question_type, toggle, "
            "next_tab, previous_tab, next_option, previous_option, option_note, question_note, "
            "attach, detach",
        ),
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (42, "binding must be a string or array of strings, got 42"),
        (True, "binding must be a string or array of strings, got true"),
        ({"a": 1}, 'binding must be a string or array of strings, got {"a": 1}'),
        (
            [],
            "empty binding list; give at least one key id, or leave the action out to keep "
            "its default",
        ),
        (["x", 3], "binding list must contain only strings, got 3 at position 2"),
        ("", '"" is not a key id: empty binding'),
        ("  +  ", '"  +  " is not a key id: empty binding'),
        ("hyper+x", '"hyper+x" is not a key id: unsupported modifier hyper'),
        ("f13", '"f13" is not a key id: unsupported key f13'),
        (
            "ctrl+tabb",
            '"ctrl+tabb" is not a key id: unsupported key tabb (did you mean "ctrl+tab"?)',
        ),
        (
            "ctrl+",
            '"ctrl+" is not a key id: unsupported key ctrl; "+" separates modifiers, so a "+" '
            "key cannot be bound",
        ),
    ],
)
def test_binding_errors(value: object, message: str) -> None:
    result = resolve_keymaps({"main": {"toggle": value}})
    assert lines(result) == [("error", f"keymaps.main.toggle: {message}")]
    assert result.keymaps.keys("main", "toggle") == ("space",)
    assert result.session_keymaps.keys("main", "toggle") == ("space",)


def test_the_problem_key_is_as_written_when_it_does_not_parse() -> None:
    (problem,) = resolve_keymaps({"main": {"toggle": ["x", "Ctrl+Tabb"]}}).problems
    assert problem.key == "Ctrl+Tabb"
    assert problem.path == "keymaps.main.toggle"
    assert problem.message.startswith('"Ctrl+Tabb" is not a key id')


def test_every_problem_is_reported_not_just_the_first() -> None:
    result = resolve_keymaps(
        {
            "main": {"toggle": ["foo", 7, "bar+x"], "confirm": []},
            "editor": {"submit": 1},
            "global": {"dismiss": "1"},
        }
    )
    # Values first, context by context; clashes and reserved keys once all are read.
    assert [(p.path, p.key) for p in result.errors] == [
        ("keymaps.main.confirm", None),
        ("keymaps.main.toggle", "foo"),
        ("keymaps.main.toggle", None),
        ("keymaps.main.toggle", "bar+x"),
        ("keymaps.editor.submit", None),
        ("keymaps.global.dismiss", "1"),
    ]


def test_a_capital_letter_is_read_as_lower_case_with_a_warning() -> None:
    result = resolve_keymaps({"main": {"option_note": "N"}})
    assert result.keymaps.keys("main", "option_note") == ("n",)
    assert lines(result) == [
        (
            "warning",
            'keymaps.main.option_note: "N" is read as "n" (key ids ignore case); write '
            '"shift+n" for a capital N',
        )
    ]


def test_unavailable_ids_are_kept_reported_and_not_bound() -> None:
    result = resolve_keymaps({"main": {"confirm": ["super+k", "ctrl+shift+p", "ctrl+k"]}})
    assert not result.has_errors
    assert result.keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert result.keymaps.binding("main", "confirm").unavailable == ("super+k", "ctrl+shift+p")
    assert lines(result) == [
        (
            "unavailable",
            'keymaps.main.confirm: "super+k" cannot be received in a terminal: super '
            "(cmd/win) needs the Kitty keyboard protocol, which prompt_toolkit cannot read; it "
            "stays in the file but is not bound",
        ),
        (
            "unavailable",
            'keymaps.main.confirm: "ctrl+shift+p" cannot be received in a terminal: terminals '
            "send ctrl+shift+p as the same byte as ctrl+p; it stays in the file but is not bound",
        ),
    ]
    assert result.session_keymaps is result.keymaps


def test_an_action_with_no_usable_key_keeps_its_default() -> None:
    result = resolve_keymaps({"settings_modal": {"close": ["super+w", "shift+enter"]}})
    assert result.keymaps.keys("settings_modal", "close") == ("esc", "ctrl+c", "?")
    assert result.keymaps.configured("settings_modal", "close") == (
        "esc",
        "ctrl+c",
        "?",
        "super+w",
        "shift+enter",
    )
    assert [p.severity for p in result.problems] == ["unavailable", "unavailable", "warning"]
    assert str(result.problems[-1]) == (
        "keymaps.settings_modal.close: none of its keys can be received in a terminal; using "
        'the default "esc", "ctrl+c", "?" for this session'
    )
    assert not result.has_errors


def test_paths_follow_the_given_prefix() -> None:
    result = resolve_keymaps({"main": {"toggle": "enter"}}, path="config.toml: keymaps")
    assert str(result.problems[0]) == (
        'config.toml: keymaps.main.toggle: "enter" is also bound to '
        'config.toml: keymaps.main.confirm (its default); using its default "space" for this '
        "session"
    )


def test_quoted_values_are_escaped_and_shortened() -> None:
    result = resolve_keymaps({"main": {"toggle": "\x1b[31m\u202e" + "x" * 60}})
    message = result.problems[0].message
    assert "\x1b" not in message
    assert "\u202e" not in message
    assert "<U+202E>" in message
    assert "…" in message


def test_errors_and_session_keymaps() -> None:
    good = resolve_keymaps({"main": {"confirm": "ctrl+k"}})
    assert not good.has_errors
    assert good.errors == ()
    assert good.session_keymaps == good.keymaps
    bad = resolve_keymaps({"main": {"confirm": "ctrl+k", "toggle": "nope"}})
    assert bad.has_errors
    assert bad.keymaps.keys("main", "confirm") == ("ctrl+k",)
    # Every valid binding stays for the session; the broken one takes its default alone.
    assert bad.session_keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert bad.session_keymaps.keys("main", "toggle") == ("space",)


def test_unknown_names_are_escaped_in_paths() -> None:
    result = resolve_keymaps({"ma\x1bin": {}, "main": {"con\u202efirm": "x"}})
    assert [p.path for p in result.problems] == [
        "keymaps.ma\\u001bin",
        "keymaps.main.con<U+202E>firm",
    ]
