"""Saving one value changes that value's text and nothing else."""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.config.catalogue import KEYS, SettingKey
from pi_ask.config.toml_edit import reset_values, set_value
from pi_ask.config.toml_text import default_text, literal

COMMENTED = """\
# My pi-ask settings — hand written.   Odd   spacing kept.
schema_version = 1 # keep me

[behaviour] # the flags
# Auto submit?
auto_submit_when_answered_without_notes = false   # trailing
  showFooterHints   =   true  # camelCase, indented
confirm_dismiss_when_dirty=true
my_own_key = "kept"    # unknown, stays

[notifications]
enabled = true # on
channels = [
  "bell",  # first
  "osc9",
]

[keymaps.main]
cancel = ['q', "esc"] # literal strings

[answer]
extraction_models = [ { provider = "openai", id = "x" } ]
"""


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    assert len(before.splitlines()) == len(after.splitlines())
    return [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]


def test_ten_toggles_change_only_the_toggled_values() -> None:
    text = COMMENTED
    toggles = [
        ("behaviour.show_footer_hints", False),
        ("behaviour.auto_submit_when_answered_without_notes", True),
        ("notifications.enabled", False),
        ("behaviour.confirm_dismiss_when_dirty", False),
        ("behaviour.show_footer_hints", True),
        ("notifications.enabled", True),
        ("behaviour.auto_submit_when_answered_without_notes", False),
        ("behaviour.show_footer_hints", False),
        ("behaviour.confirm_dismiss_when_dirty", True),
        ("notifications.enabled", False),
    ]
    for key, value in toggles:
        text = set_value(text, key, value)
    assert changed_lines(COMMENTED, text) == [
        (
            "  showFooterHints   =   true  # camelCase, indented",
            "  showFooterHints   =   false  # camelCase, indented",
        ),
        ("enabled = true # on", "enabled = false # on"),
    ]


def test_setting_a_value_to_what_it_is_changes_nothing() -> None:
    assert set_value(COMMENTED, "behaviour.confirm_dismiss_when_dirty", True) == COMMENTED


def test_a_missing_key_is_appended_to_its_table() -> None:
    text = set_value(COMMENTED, "behaviour.present_single_as_multi", True)
    assert tomllib.loads(text)["behaviour"]["present_single_as_multi"] is True
    assert text.replace("present_single_as_multi = true\n", "", 1) == COMMENTED


def test_a_missing_table_is_added() -> None:
    text = set_value("# only a comment\n", "answer.extraction_retries", 2)
    assert text == "# only a comment\n\n[answer]\nextraction_retries = 2\n"


def test_dotted_and_inline_tables_are_edited_in_place() -> None:
    assert (
        set_value("behaviour.show_footer_hints = true # c\n", "behaviour.show_footer_hints", False)
        == "behaviour.show_footer_hints = false # c\n"
    )
    assert (
        set_value(
            "behaviour = { show_footer_hints = true }\n", "behaviour.show_footer_hints", False
        )
        == "behaviour = { show_footer_hints = false }\n"
    )


def test_reset_puts_values_back_and_keeps_comments_and_unknown_keys() -> None:
    edited = set_value(COMMENTED, "behaviour.show_footer_hints", False)
    edited = set_value(edited, "notifications.enabled", False)
    reset = reset_values(edited)
    # Values that differ from their defaults are rewritten; everything else is as written.
    assert reset == (
        COMMENTED.replace(
            'channels = [\n  "bell",  # first\n  "osc9",\n]', 'channels = ["terminal", "desktop"]'
        )
        .replace("cancel = ['q', \"esc\"]", 'cancel = ["esc"]')
        .replace(
            'extraction_models = [ { provider = "openai", id = "x" } ]',
            'extraction_models = [{ provider = "openai", id = "gpt-5.4-mini" }]',
        )
    )
    assert "my_own_key" in tomllib.loads(reset)["behaviour"]


def test_the_default_file_holds_every_key_with_its_default_and_a_comment() -> None:
    text = default_text()
    document = tomllib.loads(text)
    lines = text.splitlines()
    for spec in KEYS:
        table = document if not spec.section else document[spec.section]
        assert table[spec.name] == spec.default
        line = lines.index(f"{spec.name} = {literal(spec.default)}")
        assert lines[line - 1].startswith("# ")
    assert document["keymaps"]["main"]["next_tab"] == ["tab", "right"]
    assert document["keymaps"]["note_editor"]["save"] == ["enter"]


_SETTABLE = [spec for spec in KEYS if spec.kind in ("bool", "retries", "milliseconds", "extractor")]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_SETTABLE),
            st.one_of(st.booleans(), st.integers(0, 3), st.sampled_from(["auto", "model"])),
        ),
        max_size=8,
    )
)
def test_any_sequence_of_saves_changes_exactly_those_values(
    saves: list[tuple[SettingKey, object]],
) -> None:
    text = COMMENTED
    expected = tomllib.loads(COMMENTED)
    for spec, value in saves:
        text = set_value(text, spec.key, value)  # type: ignore[arg-type]
        table = expected.setdefault(spec.section, {}) if spec.section else expected
        name = spec.alias if spec.alias in table else spec.name
        table[name] = value
    assert tomllib.loads(text) == expected
    # Every comment of the original survives, in order.
    comments = [line for line in COMMENTED.splitlines() if "#" in line]
    kept = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    assert [line.split("#", 1)[1] for line in comments] == kept
