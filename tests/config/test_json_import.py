"""Importing a reference JSON config: migrations that keep present values, TOML out."""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path

import pytest

from pi_ask.cli.config import register
from pi_ask.config.channel_entries import CommandEntry
from pi_ask.config.json_import import ImportFailed, import_json
from pi_ask.config.loading import evaluate, parse_text
from pi_ask.config.settings import ModelEntry

V5 = {
    "schemaVersion": 5,
    "answer": {
        "extractionModels": [{"provider": "openai-codex", "id": "gpt-5.4-mini"}],
        "extractionTimeoutMs": 12000,
        "extractionRetries": 2,
    },
    "behaviour": {
        "autoSubmitWhenAnsweredWithoutNotes": True,
        "confirmDismissWhenDirty": False,
        "doublePressReviewShortcuts": True,
        "presentSingleAsMulti": True,
        "showFooterHints": False,
    },
    "keymaps": {
        "global": {"dismiss": ["ctrl+c"], "settings": ["?"]},
        "main": {"confirm": ["ctrl+k"], "cancel": ["q"], "changeQuestionType": ["t"]},
        "noteEditor": {"save": ["ctrl+k"], "close": ["q"]},
        "editor": {"submit": ["ctrl+k"], "close": ["q"]},
        "settingsModal": {"nextOption": ["j", "down"]},
    },
    "notifications": {
        "enabled": True,
        "channels": [{"type": "command", "command": 'cmux notify --body "$ASK_NOTIFY_MESSAGE"'}],
    },
}


def imported(document: dict[str, object]):
    text = import_json(json.dumps(document)).text
    content = parse_text(text.encode())
    assert content.status == "parsed"
    return text, evaluate(content.document, {})


def test_a_version_5_config_keeps_every_value() -> None:
    text, result = imported(V5)
    assert result.problems == ()
    settings = result.settings
    assert settings.behaviour.auto_submit_when_answered_without_notes is True
    assert settings.behaviour.confirm_dismiss_when_dirty is False
    assert settings.behaviour.present_single_as_multi is True
    assert settings.behaviour.show_footer_hints is False
    assert settings.answer.extraction_models == (ModelEntry("openai-codex", "gpt-5.4-mini"),)
    assert settings.answer.extraction_timeout_ms == 12000
    assert settings.answer.extraction_retries == 2
    assert settings.notifications.channels == (
        CommandEntry('cmux notify --body "$ASK_NOTIFY_MESSAGE"'),
    )
    assert settings.keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert settings.keymaps.keys("note_editor", "close") == ("q",)
    assert settings.keymaps.keys("settings_modal", "next_option") == ("j", "down")
    # Our snake_case names, and the default file's comments around them.
    document = tomllib.loads(text)
    assert document["keymaps"]["note_editor"]["save"] == ["ctrl+k"]
    assert "# Show the key hints at the bottom of the ask flow." in text
    assert "showFooterHints =" not in text and "noteEditor]" not in text


def test_version_2_gets_default_notifications_only_when_it_has_none() -> None:
    _, plain = imported({"schemaVersion": 2, "behaviour": {"showFooterHints": False}})
    assert plain.settings.notifications.channels == ("bell",)
    _, kept = imported(
        {"schemaVersion": 2, "notifications": {"enabled": False, "channels": ["osc9"]}}
    )
    assert kept.settings.notifications.enabled is False  # the reference overwrote this
    assert kept.settings.notifications.channels == ("osc9",)


def test_version_3_flat_keymaps_become_contexts() -> None:
    _, result = imported(
        {"schemaVersion": 3, "keymaps": {"cancel": "q", "confirm": "ctrl+k", "dismiss": "ctrl+d"}}
    )
    keymaps = result.settings.keymaps
    assert keymaps.keys("main", "cancel") == ("q",)
    assert keymaps.keys("editor", "close") == ("q",)
    assert keymaps.keys("note_editor", "close") == ("q",)
    assert keymaps.keys("main", "confirm") == ("ctrl+k",)
    assert keymaps.keys("editor", "submit") == ("ctrl+k",)
    assert keymaps.keys("global", "dismiss") == ("ctrl+d",)
    assert keymaps.keys("main", "toggle") == ("space",)


@pytest.mark.parametrize("version", [4, 5])
def test_flat_keymaps_of_a_later_version_become_contexts_too(version: int) -> None:
    text, result = imported({"schemaVersion": version, "keymaps": {"cancel": "q"}})
    assert result.problems == ()
    keymaps = result.settings.keymaps
    assert keymaps.keys("main", "cancel") == ("q",)
    assert keymaps.keys("editor", "close") == ("q",)
    assert keymaps.keys("note_editor", "close") == ("q",)
    assert tomllib.loads(text)["keymaps"]["main"]["cancel"] == "q"


def test_version_4_keeps_present_single_as_multi_and_adds_the_type_key() -> None:
    text, result = imported(
        {
            "schemaVersion": 4,
            "behaviour": {"presentSingleAsMulti": True},
            "keymaps": {"main": {"toggle": ["x"]}},
        }
    )
    assert result.settings.behaviour.present_single_as_multi is True
    assert tomllib.loads(text)["keymaps"]["main"]["change_question_type"] == ["t"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "a pi-ask config must be a JSON object"),
        ('{"schemaVersion": 6}', "schemaVersion 6 is not supported"),
        ("{}", "schemaVersion null is not supported"),
    ],
)
def test_what_cannot_be_imported(data: str, message: str) -> None:
    with pytest.raises(ImportFailed, match=message):
        import_json(data)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pi-ask")
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    status: int = args.handler(args)
    return status


def test_the_command_writes_once_and_needs_force_to_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "eko24ive-pi-ask.json"
    source.write_text(json.dumps(V5))
    target = tmp_path / "out" / "config.toml"
    assert run(["config", "import", str(source), "--config", str(target)]) == 0
    first = target.read_text()
    assert tomllib.loads(first)["behaviour"]["show_footer_hints"] is False
    target.write_text("# mine\n")
    assert run(["config", "import", str(source), "--config", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"pi-ask config import: {target} already exists; pass --force to replace it\n"
    )
    assert target.read_text() == "# mine\n"
    assert run(["config", "import", str(source), "--config", str(target), "--force"]) == 0
    assert target.read_text() == first


@pytest.mark.parametrize("name", ["missing.json", "folder", "bad.json"])
def test_the_command_reports_bad_input_in_one_line(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.json").write_text('{"schemaVersion": 0}')
    target = tmp_path / "config.toml"
    assert run(["config", "import", str(tmp_path / name), "--config", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pi-ask config import: ") and err.count("\n") == 1
    assert not target.exists()
