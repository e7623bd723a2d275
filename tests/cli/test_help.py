"""The help voice of every ``pi-ask`` command, including those areas add (pi_ask/cli/help.py)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.cli.main import build_parser


def _parsers(
    parser: argparse.ArgumentParser, name: str = "pi-ask"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {command}")


def _helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.Action]]:
    """Every option, positional and listed sub-command of one parser, with its help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:
                yield f"command {listed.dest}", listed
        else:
            yield "/".join(action.option_strings) or action.dest, action


EVERY_PARSER = list(_parsers(build_parser()))


def test_every_command_is_walked() -> None:
    names = {name for name, _ in EVERY_PARSER}
    assert {"pi-ask ask", "pi-ask notify", "pi-ask config show", "pi-ask resume"} <= names


@pytest.mark.parametrize(("name", "parser"), EVERY_PARSER, ids=[n for n, _ in EVERY_PARSER])
def test_help_speaks_in_one_voice(name: str, parser: argparse.ArgumentParser) -> None:
    for what, action in _helps(parser):
        if action.help == argparse.SUPPRESS:
            continue
        assert action.help, f"{name}: {what} has no help"
        first = action.help.lstrip("$-")[0]
        assert not first.islower(), f"{name}: {what}: help starts in lower case: {action.help!r}"
        assert not action.help.endswith("."), f"{name}: {what}: help ends with a period"
        shown = action.default not in (None, False, argparse.SUPPRESS) and action.option_strings
        if shown:
            assert "default" in action.help, f"{name}: {what}: default {action.default!r} unsaid"
    if parser.description:
        assert parser.description[0].isupper(), f"{name}: description starts in lower case"
        assert parser.description.rstrip().endswith("."), f"{name}: description is not sentences"


def test_the_top_level_help_has_examples_environment_and_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_ASK_CONFIG", str(tmp_path / "c" / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    out = capsys.readouterr().out
    sections = [line for line in out.splitlines() if line.isupper() and line.isalpha()]
    assert sections == ["EXAMPLES", "ENVIRONMENT", "FILES"]
    for variable in ("PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "NO_COLOR"):
        assert f"\n  {variable} " in out
    # FILES names the paths this run would use.
    assert f"  {tmp_path / 'c' / 'config.toml'}\n" in out
    assert f"  {tmp_path / 'state' / 'sessions'}/\n" in out
    assert "show this help message" not in out
    assert "Show this help and exit" in out


def test_every_example_in_the_epilog_parses(capsys: pytest.CaptureFixture[str]) -> None:
    from pi_ask.cli.help import EXAMPLES, root_epilog

    assert all(f"  {command}  " in root_epilog() for command, _ in EXAMPLES)
    parser = build_parser()
    for command, _ in EXAMPLES:
        words = command.split("|")[-1].split(">")[0].split()
        assert words[0] == "pi-ask", command
        parser.parse_args(words[1:])  # an unknown command or option would exit here


def test_notify_runs_without_test_and_still_accepts_it() -> None:
    parser = build_parser("notify")
    assert parser.parse_args(["notify"]).handler is parser.parse_args(["notify", "--test"]).handler


def test_a_default_is_shown_in_the_options_help() -> None:
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "pi_ask", "ask", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0
    assert "none (default: auto)" in done.stdout
    assert re.search(r"\n  PAYLOAD +JSON file with the ask_user tool input", done.stdout)
