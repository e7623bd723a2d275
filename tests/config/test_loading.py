"""Loading: per-key checks, aliases, unknown keys, keymap fallback, channels, environment."""

from __future__ import annotations

import pytest

from pi_ask.config.channel_entries import CommandEntry, TableEntry
from pi_ask.config.loading import evaluate, parse_text
from pi_ask.config.settings import ModelEntry, Settings
from tests.child_processes import python_output


def load(text: str, environ: dict[str, str] | None = None, *, thorough: bool = False):
    content = parse_text(text.encode())
    assert content.status == "parsed", content.detail
    return evaluate(content.document, environ or {}, thorough=thorough)


def messages(text: str, environ: dict[str, str] | None = None) -> list[str]:
    return [str(problem) for problem in load(text, environ).problems]


def test_an_empty_file_is_all_defaults_through_the_fast_path() -> None:
    result = load("")
    assert result.settings == Settings()
    assert result.problems == ()
    assert not result.thorough


def test_a_clean_file_is_read_by_the_fast_path() -> None:
    result = load(
        "schema_version = 1\n"
        "[behaviour]\nshow_footer_hints = false\n"
        "[notifications]\ntimeout_s = 2.5\nchannels = ['osc9', {type = 'command', command = 'x'}]\n"
        "[answer]\nextractor = 'offline'\nextraction_retries = 3\n"
        "extraction_models = [{provider = 'ollama', id = 'llama', base_url = 'http://h'}]\n"
    )
    assert not result.thorough
    assert result.problems == ()
    settings = result.settings
    assert settings.behaviour.show_footer_hints is False
    assert settings.notifications.timeout_s == 2.5
    assert settings.notifications.channels == ("osc9", CommandEntry("x"))
    assert settings.answer.extractor == "offline"
    assert settings.answer.extraction_retries == 3
    assert settings.answer.extraction_models == (ModelEntry("ollama", "llama", "http://h"),)


def test_camel_case_spellings_are_read() -> None:
    result = load(
        "schemaVersion = 1\n[behaviour]\npresentSingleAsMulti = true\n"
        "[answer]\nextractionRetries = 0\n[keymaps.noteEditor]\nsave = 'ctrl+s'\n"
        "[keymaps.main]\nchangeQuestionType = 'ctrl+t'\n"
    )
    assert result.problems == ()
    assert result.settings.behaviour.present_single_as_multi is True
    assert result.settings.answer.extraction_retries == 0
    assert result.settings.keymaps.keys("note_editor", "save") == ("ctrl+s",)
    assert result.settings.keymaps.keys("main", "change_question_type") == ("ctrl+t",)


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        (
            '[behaviour]\nshow_footer_hints = "no"',
            "behaviour.show_footer_hints",
            '"no" is not true or false; using the default (true)',
        ),
        (
            "[answer]\nextraction_retries = 99",
            "answer.extraction_retries",
            "99 is not a whole number from 0 to 3; using the default (1)",
        ),
        (
            "[answer]\nextraction_timeout_ms = 1.5",
            "answer.extraction_timeout_ms",
            "1.5 is not a whole number of milliseconds above 0; using the default (30000)",
        ),
        (
            "[notifications]\ntimeout_s = 0",
            "notifications.timeout_s",
            "0 is not a number of seconds above 0 and at most 600; using the default (5)",
        ),
        (
            "[answer]\nextractor = 'gpt'",
            "answer.extractor",
            '"gpt" is not "auto", "offline" or "model"; using the default ("auto")',
        ),
        (
            "schema_version = 7",
            "schema_version",
            "7 is not the whole number 1; using the default (1)",
        ),
        ("[notifications]\nenabled = 1", "notifications.enabled", "1 is not true or false"),
    ],
)
def test_a_bad_value_is_an_error_for_that_key_only(text: str, key: str, message: str) -> None:
    result = load(text + "\n[keymaps.main]\ncancel = 'q'\n")
    assert result.thorough
    assert [problem.key for problem in result.problems] == [key]
    assert result.problems[0].severity == "error"
    assert result.problems[0].message.startswith(message)
    # The key takes its default and the rest of the file still loads.
    assert result.settings.keymaps.keys("main", "cancel") == ("q",)
    assert result.settings == Settings(keymaps=result.settings.keymaps)


def test_a_section_that_is_not_a_table_takes_its_defaults() -> None:
    result = load("behaviour = 5\n[answer]\nextractor = 'offline'\n")
    assert [str(problem) for problem in result.problems] == [
        "behaviour: must be a table; using the defaults for [behaviour]"
    ]
    assert result.settings.answer.extractor == "offline"


def test_unknown_keys_are_warnings_with_a_suggestion() -> None:
    assert messages("colour = 1\n[behaviour]\nshow_footer_hint = false\n") == [
        "colour: unknown setting; ignored and left in the file",
        'behaviour.show_footer_hint: unknown setting (did you mean "show_footer_hints"?); '
        "ignored and left in the file",
    ]


def test_both_spellings_of_one_key_warn_and_snake_case_wins() -> None:
    result = load("[behaviour]\nshowFooterHints = true\nshow_footer_hints = false\n")
    assert result.settings.behaviour.show_footer_hints is False
    assert [problem.severity for problem in result.problems] == ["warning"]


def test_invalid_channel_entries_are_skipped_with_a_warning() -> None:
    result = load(
        "[notifications]\nchannels = ['beep', 'osc777', {type = 'command', command = ' '}, 3]\n"
    )
    assert result.settings.notifications.channels == ("osc777",)
    assert [problem.key for problem in result.problems] == [
        "notifications.channels[0]",
        "notifications.channels[2]",
        "notifications.channels[3]",
    ]
    assert {problem.severity for problem in result.problems} == {"warning"}


def test_no_valid_channel_means_the_default_channels() -> None:
    result = load("[notifications]\nchannels = ['beep']\n")
    assert result.settings.notifications.channels == ("terminal", "desktop")
    assert str(result.problems[-1]).startswith(
        'notifications.channels: no valid channel; using ["terminal", "desktop"]'
    )


def test_bad_model_entries_are_skipped_and_an_empty_list_stays_empty() -> None:
    result = load("[answer]\nextraction_models = [{provider = 'x'}, {provider = 'o', id = 'm'}]\n")
    assert result.settings.answer.extraction_models == (ModelEntry("o", "m"),)
    assert str(result.problems[0]).startswith("answer.extraction_models[0]:")
    assert load("[answer]\nextraction_models = []\n").settings.answer.extraction_models == ()


def test_a_keymap_error_drops_only_its_own_binding_and_keeps_other_settings() -> None:
    """The last good settings stay: a broken binding falls back to its default alone."""
    result = load(
        "[behaviour]\nshow_footer_hints = false\n[keymaps.main]\nconfirm = 'space'\ncancel = 'q'\n"
    )
    assert result.settings.keymaps.keys("main", "cancel") == ("q",)
    assert result.settings.keymaps.keys("main", "confirm") == ("enter",)
    assert result.settings.behaviour.show_footer_hints is False
    error = next(problem for problem in result.problems if problem.severity == "error")
    assert error.key == "keymaps.main.confirm"
    assert error.message.endswith('; using its default "enter" for this session')


def test_partial_keymap_tables_merge_with_the_defaults() -> None:
    settings = load("[keymaps.main]\ncancel = ['q', 'esc']\n").settings
    assert settings.keymaps.keys("main", "cancel") == ("q", "esc")
    assert settings.keymaps.keys("main", "confirm") == ("enter",)


def test_environment_overrides_win_over_the_file() -> None:
    result = load(
        "[behaviour]\nshow_footer_hints = true\n",
        {
            "PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS": "false",
            "PI_ASK_NOTIFICATIONS__CHANNELS": '["osc9"]',
            "PI_ASK_KEYMAPS__MAIN__CONFIRM": "ctrl+k",
            "PI_ASK_CONFIG": "/elsewhere.toml",
        },
    )
    assert result.thorough
    assert result.problems == ()
    assert result.settings.behaviour.show_footer_hints is False
    assert result.settings.notifications.channels == ("osc9",)
    assert result.settings.keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert result.sources["behaviour.show_footer_hints"] == (
        "environment (PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS)"
    )


def test_an_environment_keymap_replaces_the_camel_case_spelling_in_the_file() -> None:
    result = load(
        "[keymaps.noteEditor]\nsave = 'ctrl+s'\n", {"PI_ASK_KEYMAPS__NOTE_EDITOR__SAVE": "ctrl+d"}
    )
    assert result.problems == ()
    assert result.settings.keymaps.keys("note_editor", "save") == ("ctrl+d",)


def test_a_bad_environment_value_is_ignored_and_the_file_value_kept() -> None:
    result = load(
        "[answer]\nextraction_retries = 2\n",
        {
            "PI_ASK_ANSWER__EXTRACTION_RETRIES": "many",
            "PI_ASK_NOTIFICATIONS__CHANNELS": "[oops",
            "PI_ASK_BEHAVIOUR__NO_SUCH": "1",
        },
    )
    assert result.settings.answer.extraction_retries == 2
    lines = sorted(str(problem) for problem in result.problems)
    assert lines == [
        'PI_ASK_ANSWER__EXTRACTION_RETRIES: "many" is not a whole number from 0 to 3; ignored',
        "PI_ASK_BEHAVIOUR__NO_SUCH: names no setting; ignored",
        "PI_ASK_NOTIFICATIONS__CHANNELS: not valid JSON (Expecting value at position 1); ignored",
    ]


def test_the_fast_path_imports_no_pydantic_and_no_tomlkit(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[behaviour]\nshow_footer_hints = false\n")
    code = (
        "import sys\n"
        "from pi_ask.config.store import open_store\n"
        "store = open_store()\n"
        "assert store.snapshot().behaviour.show_footer_hints is False\n"
        "heavy = [m for m in ('pydantic', 'pydantic_settings', 'tomlkit', 'filelock',"
        " 'platformdirs', 'asyncio', 'apprise') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    env = {"PI_ASK_CONFIG": str(config), "PATH": "/usr/bin:/bin"}
    assert python_output(code, env=env).strip() == "[]"


def test_channel_tables_load_through_the_fast_path() -> None:
    result = load(
        "[notifications]\nchannels = [\n"
        "  { type = 'apprise', config = '~/apprise.yml', tags = ['phone'] },\n"
        "  { type = 'desktop', when = 'unfocused' },\n"
        "  { type = 'command', command = 'x', when = 'unfocused' },\n"
        "  'osc99',\n]\n"
    )
    assert not result.thorough
    assert result.problems == ()
    assert result.settings.notifications.channels == (
        TableEntry.of({"type": "apprise", "config": "~/apprise.yml", "tags": ["phone"]}),
        TableEntry.of({"type": "desktop", "when": "unfocused"}),
        TableEntry.of({"type": "command", "command": "x", "when": "unfocused"}),
        "osc99",
    )


def test_a_bad_channel_table_is_skipped_with_its_reason() -> None:
    result = load(
        "[notifications]\nchannels = [{ type = 'desktop', when = 'later' },"
        " { type = 'apprise', url = 'json://h/', tags = ['x'] }, 'bell']\n"
    )
    assert result.settings.notifications.channels == ("bell",)
    reasons = [str(problem) for problem in result.problems]
    assert "when: input should be 'always' or 'unfocused'" in reasons[0]
    assert "tags apply to an apprise config file only" in reasons[1]


def test_the_default_file_s_table_is_what_tomllib_reads_from_it() -> None:
    import tomllib

    from pi_ask.config.toml_text import default_document, default_text

    assert default_document() == tomllib.loads(default_text())
    result = load(default_text())
    assert result.settings == Settings()
    assert result.problems == ()


def test_the_untouched_default_file_is_read_without_a_toml_parser_and_an_edit_is_not() -> None:
    # The file pi-ask writes on first use is what most starts read (issue 17's first frame).
    child = """
import sys
from pi_ask.config.loading import evaluate, parse_text
from pi_ask.config.toml_text import default_text
text = default_text()
untouched = evaluate(parse_text(text.encode()).document, {}).settings
print("tomllib" in sys.modules)
edited = text.replace("show_footer_hints = true", "show_footer_hints = false")
assert edited != text
settings = evaluate(parse_text(edited.encode()).document, {}).settings
print("tomllib" in sys.modules, untouched.behaviour.show_footer_hints,
      settings.behaviour.show_footer_hints)
"""
    assert python_output(child).split() == ["False", "True", "True", "False"]


def test_an_editor_s_bom_is_dropped_and_a_bad_byte_is_named_by_its_offset_in_the_file() -> None:
    from pi_ask.config.toml_text import default_text

    bom = b"\xef\xbb\xbf"
    assert parse_text(bom + default_text().encode()).text == default_text()
    assert load("\ufeff[behaviour]\nshow_footer_hints = false\n").settings.behaviour == (
        load("[behaviour]\nshow_footer_hints = false\n").settings.behaviour
    )
    broken = parse_text(bom + b"schema_version = 1\n\xff")
    assert (broken.status, broken.detail) == ("not_toml", "not UTF-8 text (byte 22)")
