"""``pi-ask config ...``, run in-process through ``register`` on a fresh parser."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pi_ask.cli.config import register
from pi_ask.config.toml_text import default_text
from tests.child_processes import python_output


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pi-ask")
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    status: int = args.handler(args)
    return status


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("PI_ASK_CONFIG", str(path))
    for name in ("VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    return path


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_path_prints_the_file_and_honours_config(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["config", "path"]) == 0
    assert capsys.readouterr().out == f"{config}\n"
    other = tmp_path / "other.toml"
    assert run(["config", "path", "--config", str(other)]) == 0
    assert run(["config", "--config", str(other), "path"]) == 0
    assert capsys.readouterr().out == f"{other}\n{other}\n"


@pytest.mark.parametrize("verb", ["path", "show", "validate", "schema"])
def test_read_only_verbs_never_create_the_file(
    config: Path, verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["config", verb]) == 0
    assert not config.parent.exists()


def test_validate_on_a_broken_file_prints_the_problem_and_leaves_it_alone(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(config, "[behaviour]\nshow_footer_hints = tru")
    before = config.stat()
    assert run(["config", "validate"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{config}: error: not valid TOML (")
    after = config.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    assert sorted(path.name for path in config.parent.iterdir()) == ["config.toml"]


def test_validate_lists_every_problem_and_fails_only_for_errors(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        config,
        "[behaviour]\nshow_footer_hints = 'no'\nshow_footr = 1\n"
        "[keymaps.main]\nconfirm = 'space'\n[notifications]\nchannels = ['beep', 'bell']\n",
    )
    monkeypatch.setenv("PI_ASK_ANSWER__EXTRACTION_RETRIES", "lots")
    assert run(["config", "validate"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{config}: warning: behaviour.show_footr: unknown setting; ignored and left in the file",
        f'{config}: error: behaviour.show_footer_hints: "no" is not true or false; using the '
        "default (true)",
        f'{config}: warning: notifications.channels[0]: "beep" is not a valid entry (expected '
        '"terminal", "desktop", "bell", "osc9", "osc777", "osc99" '
        'or an apprise URL ("scheme://...")); skipped',
        'environment: error: PI_ASK_ANSWER__EXTRACTION_RETRIES: "lots" is not a whole number '
        "from 0 to 3; ignored",
        f'{config}: error: keymaps.main.confirm: "space" is also bound to keymaps.main.toggle '
        '(its default); using its default "enter" for this session',
    ]
    monkeypatch.delenv("PI_ASK_ANSWER__EXTRACTION_RETRIES")
    write(config, "[behaviour]\nunknown = 1\n")
    assert run(["config", "validate"]) == 0
    write(config, default_text())
    assert run(["config", "validate"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{config}: no problems"


def test_show_marks_where_each_value_came_from(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config, "[behaviour]\nshow_footer_hints = false\n[keymaps.main]\ncancel = 'q'\n")
    monkeypatch.setenv("PI_ASK_NOTIFICATIONS__ENABLED", "no")
    assert run(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert "show_footer_hints = false  # file\n" in out
    assert "auto_submit_when_answered_without_notes = false  # default\n" in out
    assert "enabled = false  # environment (PI_ASK_NOTIFICATIONS__ENABLED)\n" in out
    assert 'cancel = ["q"]  # file\n' in out
    assert 'confirm = ["enter"]  # default\n' in out
    shown = tomllib.loads(out)
    assert shown["behaviour"]["show_footer_hints"] is False
    assert shown["keymaps"]["main"]["cancel"] == ["q"]


def test_schema_describes_every_section(capsys: pytest.CaptureFixture[str], config: Path) -> None:
    assert run(["config", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert set(schema["properties"]) == {
        "schema_version",
        "behaviour",
        "notifications",
        "keymaps",
        "answer",
        "mcp",
        "theme",
        "ui",
        "inbox",
        "web",
        "attachments",
    }
    assert schema["$defs"]["Theme"]["properties"]["name"]["enum"] == [
        "dark",
        "light",
        "high-contrast",
        "ansi",
        "auto",
    ]
    assert schema["$defs"]["Ui"]["properties"]["face"]["enum"] == ["tui", "plain"]
    assert schema["$defs"]["Inbox"]["properties"]["tmux"]["enum"] == ["popup", "window", "off"]
    behaviour = schema["$defs"]["Behaviour"]["properties"]
    assert behaviour["show_footer_hints"] == {
        "default": True,
        "description": "Show the key hints at the bottom of the ask flow.",
        "title": "Show Footer Hints",
        "type": "boolean",
    }


def test_reset_with_yes_resets_and_without_a_terminal_refuses(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config, "# keep\n[behaviour]\nshow_footer_hints = false\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # not a terminal, so no asking
    assert run(["config", "reset"]) == 2
    assert capsys.readouterr().err == (
        "pi-ask config reset: no terminal to confirm on; pass --yes to reset\n"
    )
    assert run(["config", "reset", "--yes"]) == 0
    assert config.read_text() == "# keep\n[behaviour]\nshow_footer_hints = true\n"


def test_reset_of_no_file_creates_nothing(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["config", "reset", "--yes"]) == 0
    assert "no config file" in capsys.readouterr().out
    assert not config.exists()


def test_edit_creates_the_file_runs_the_editor_then_validates(
    config: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    editor = tmp_path / "fake editor.sh"
    editor.write_text(
        '#!/bin/sh\ncp "$1" "$1.seen"\nprintf \'[behaviour]\\nshow_footer_hints = 3\\n\' > "$1"\n'
    )
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", f"'{editor}'")
    assert run(["config", "edit"]) == 1
    assert config.with_name("config.toml.seen").read_text() == default_text()
    assert "error: behaviour.show_footer_hints: 3 is not true or false" in (capsys.readouterr().out)


def test_edit_reports_a_missing_editor_in_one_line(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", "no-such-editor-anywhere")
    assert run(["config", "edit"]) == 2
    assert capsys.readouterr().err == (
        "pi-ask config edit: cannot run the editor 'no-such-editor-anywhere': not found\n"
    )


def test_no_verb_is_a_usage_error(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["config"]) == 2
    assert "choose a VERB" in capsys.readouterr().err


def test_the_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, pi_ask.cli.config\n"
        "print([m for m in ('pydantic', 'pydantic_settings', 'tomlkit', 'filelock', 'apprise')"
        " if m in sys.modules])\n"
    )
    assert python_output(code).strip() == "[]"


def test_reset_asks_on_the_terminal(config: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    write(config, "[behaviour]\nshow_footer_hints = false\n")
    code = (
        "import argparse, sys\n"
        "from pi_ask.cli.config import register\n"
        "parser = argparse.ArgumentParser()\n"
        "register(parser.add_subparsers())\n"
        "args = parser.parse_args(['config', 'reset'])\n"
        "sys.exit(args.handler(args))\n"
    )
    child = pexpect.spawn(sys.executable, ["-c", code], encoding="utf-8", timeout=20)
    child.expect(r"\[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "false" in config.read_text()
    child = pexpect.spawn(sys.executable, ["-c", code], encoding="utf-8", timeout=20)
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert config.read_text() == "[behaviour]\nshow_footer_hints = true\n"


def test_through_the_pi_ask_command_bad_input_is_one_line_and_status_2(config: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pi_ask", "config", "import", str(config.parent / "nope.json")],
        check=False,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "No such file or directory" in result.stderr


def test_each_reset_of_a_broken_file_keeps_the_earlier_backups(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``.bak`` is the newest, then ``.bak.1`` .. ``.bak.4``; the line says which was written."""
    backup = config.with_name("config.toml.bak")
    for attempt in range(1, 7):
        write(config, f"broken {attempt} = = toml")
        assert run(["config", "reset", "--yes"]) == 0
        said = capsys.readouterr().out.splitlines()[0]
        assert said.startswith(f"{config}: was not valid TOML; kept it as {backup}")
    assert "(earlier copies: config.toml.bak.1, config.toml.bak.2, config.toml.bak.3, " in said
    kept = [backup, *(config.with_name(f"config.toml.bak.{n}") for n in range(1, 5))]
    assert [path.read_text() for path in kept] == [
        f"broken {attempt} = = toml" for attempt in (6, 5, 4, 3, 2)
    ]
    assert not config.with_name("config.toml.bak.5").exists()
