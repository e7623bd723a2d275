"""The settings file as an editor and a reader meet it: schema, literals, messages (issue 16)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_ask.config import catalogue
from pi_ask.config.catalogue import CHANNEL_NAMES, channel_pattern
from pi_ask.config.model import json_schema
from pi_ask.config.toml_text import SCHEMA_NAME, default_text, literal
from pi_ask.keymaps.key_ids import (
    MODIFIER_ALIASES,
    NAMED_KEYS,
    KeyIdError,
    key_id_pattern,
    parse_key_id,
)
from tests.cli.test_config import run

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("PI_ASK_CONFIG", str(path))
    return path


# literal() writes valid TOML for any text


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_every_string_literal_reads_back_as_the_same_text(text: str) -> None:
    assert tomllib.loads(f"x = {literal(text)}")["x"] == text


def test_del_is_escaped() -> None:
    assert literal("a\x7fb") == '"a\\u007fb"'


def test_importing_a_value_with_del_writes_a_file_that_loads(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "ref.json"
    command = "echo \x7f"
    channels = [{"type": "command", "command": command}]
    source.write_text(json.dumps({"schemaVersion": 5, "notifications": {"channels": channels}}))
    assert run(["config", "import", str(source)]) == 0
    data = tomllib.loads(config.read_text("utf-8"))
    assert data["notifications"]["channels"] == channels


# config show


@pytest.mark.parametrize(("written", "shown"), [("5", "5"), ("2.5", "2.5"), ("5.0", "5")])
def test_show_prints_seconds_as_a_person_writes_them(
    config: Path, capsys: pytest.CaptureFixture[str], written: str, shown: str
) -> None:
    config.parent.mkdir(parents=True)
    config.write_text(f"[notifications]\ntimeout_s = {written}\n", encoding="utf-8")
    assert run(["config", "show"]) == 0
    assert f"\ntimeout_s = {shown}  # file\n" in capsys.readouterr().out


# Messages name what to write, never a class


@pytest.mark.parametrize("entry", ["5", '["x"]', "true"])
def test_a_bad_entry_is_described_without_class_names(
    config: Path, capsys: pytest.CaptureFixture[str], entry: str
) -> None:
    config.parent.mkdir(parents=True)
    config.write_text(
        f"[notifications]\nchannels = [{entry}]\n[answer]\nextraction_models = [{entry}]\n",
        encoding="utf-8",
    )
    run(["config", "validate"])
    out = capsys.readouterr().out
    assert "channels[0]" in out and "extraction_models[0]" in out
    assert 'expected a channel name, an apprise URL or a { type = "command" | "apprise"' in out
    assert "extraction_models[0]: " in out and "(expected a table)" in out
    assert "instance of" not in out
    assert not re.search(r"\b[A-Z][a-z]+[A-Z]\w+", out), out  # no CamelCase class name


# The JSON Schema


SCHEMA = json_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_has_no_null_branches() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    text = json.dumps(SCHEMA)
    assert '"null"' not in text
    assert SCHEMA["properties"]["behaviour"] == {"$ref": "#/$defs/Behaviour"}  # type: ignore[index]


def test_the_default_file_fits_the_schema() -> None:
    VALIDATOR.validate(tomllib.loads(default_text()))


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("[behaviour]\nshow_footer_hints = 'no'\n", ["behaviour", "show_footer_hints"]),
        ("[notifications]\ntimeout_s = -1\n", ["notifications", "timeout_s"]),
        ("[notifications]\nchannels = ['bell', 'nope']\n", ["notifications", "channels", 1]),
        ("[keymaps.main]\nconfirm = 'cmdd+x'\n", ["keymaps", "main", "confirm"]),
        ("[keymaps.editor]\nsubmit = ['enter', 'f13']\n", ["keymaps", "editor", "submit"]),
    ],
)
def test_a_bad_value_is_reported_at_its_key(text: str, where: list[object]) -> None:
    errors = list(VALIDATOR.iter_errors(tomllib.loads(text)))
    assert errors, text
    best = jsonschema.exceptions.best_match(errors)
    assert list(best.absolute_path)[: len(where)] == where, best
    # The whole table is never the one blamed.
    assert all(len(error.absolute_path) >= len(where) for error in errors), errors


def test_good_values_pass_the_schema() -> None:
    VALIDATOR.validate(
        tomllib.loads(
            "[notifications]\n"
            "channels = ['Bell', ' OSC9 ', 'ntfys://topic', { type = 'command', command = 'x' }]\n"
            "[keymaps.main]\nconfirm = ['Control + Shift + P', 'pgup', 'x+']\n"
        )
    )


def test_channel_names_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = re.compile(channel_pattern())
    for name in CHANNEL_NAMES:
        assert pattern.match(name) and pattern.match(f" {name.upper()} ")
    assert not pattern.match("nope") and not pattern.match("bell2")
    monkeypatch.setattr(catalogue, "CHANNEL_NAMES", (*CHANNEL_NAMES, "pager"))
    assert re.match(catalogue.channel_pattern(), "pager")


_FRAGMENTS = st.sampled_from(
    [*MODIFIER_ALIASES, *NAMED_KEYS, "f1", "f12", "f13", "a", "Z", "7", "?", "+", " ", "cmdd", "x"]
)


@given(st.lists(_FRAGMENTS, max_size=5).map("".join) | st.text(max_size=12))
def test_the_key_id_pattern_accepts_exactly_what_the_parser_does(text: str) -> None:
    try:
        parse_key_id(text)
    except KeyIdError:
        parsed = False
    else:
        parsed = True
    assert bool(re.match(key_id_pattern(), text)) == parsed, text


@given(
    st.lists(st.sampled_from(sorted(MODIFIER_ALIASES)), max_size=3),
    st.sampled_from([*NAMED_KEYS, "f5", "k", "9", "/"]),
)
def test_every_written_form_of_a_key_matches(modifiers: list[str], base: str) -> None:
    text = " + ".join([*(m.upper() for m in modifiers), base.swapcase()])
    assert re.match(key_id_pattern(), text), text


# #:schema and config schema --write


def test_the_default_file_points_at_the_schema_beside_it() -> None:
    assert default_text().splitlines()[0] == f"#:schema ./{SCHEMA_NAME}"


def test_schema_write_installs_the_schema_where_the_line_points(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["config", "schema"]) == 0
    printed = capsys.readouterr().out
    assert run(["config", "schema", "--write"]) == 0
    target = config.parent / SCHEMA_NAME
    assert capsys.readouterr().out == f"{target}\n"
    assert target.read_text("utf-8") == printed
    assert not config.exists()  # writing the schema does not create the settings file
    pointed = default_text().splitlines()[0].removeprefix("#:schema ")
    assert (config.parent / pointed).resolve() == target.resolve()


def test_the_docs_list_the_registered_channel_names() -> None:
    text = (DOCS / "configuration.md").read_text("utf-8")
    listed = re.search(r"registered names \(([^)]*)\)", text)
    assert listed is not None
    assert re.findall(r"`([^`]+)`", listed.group(1)) == list(CHANNEL_NAMES)
