"""The ``pi-ask`` command run as a real subprocess, without a terminal."""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pi_ask.cli.main import build_parser
from tests.child_processes import run_pi_ask

ROOT = Path(__file__).resolve().parents[2]
VALID = {
    "title": "  Setup  ",
    "questions": [
        {
            "id": "lang",
            "label": "Language",
            "prompt": "Which language?",
            "options": [{"value": "python"}, {"value": "go", "label": "Go"}],
        },
        {"id": "ci", "prompt": "Which checks?", "type": "multi", "options": [{"value": "lint"}]},
    ],
}


def run(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_pi_ask(*args, stdin=stdin, env=env)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PI_ASK_CONFIG": str(tmp_path / "config" / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }


def test_version_and_help(env: dict[str, str]) -> None:
    version = run("--version", env=env)
    assert version.returncode == 0
    assert version.stdout.strip() == "pi-ask 0.1.0"
    helped = run("--help", env=env)
    assert helped.returncode == 0
    for command in ("ask", "demo", "schema", "tool", "notify"):
        assert command in helped.stdout


def _parsed(
    parser: argparse.ArgumentParser, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[object, str, str]:
    """What parsing ``argv`` gives: the namespace (or the exit status), stdout, stderr."""
    try:
        outcome: object = vars(parser.parse_args(argv))
    except SystemExit as stop:
        outcome = stop.code
    captured = capsys.readouterr()
    return outcome, captured.out, captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["ask", "--help"],
        ["ask", "--he"],
        ["ask", "payload.json", "--ui", "none", "--title", "T", "--session", "s.jsonl"],
        ["ask", "--resume", "--config", "c.toml"],
        ["ask", "--ui", "web"],
        ["ask", "--bogus"],
        ["ask", "--version"],
        ["ask", "a.json", "b.json"],
        ["demo", "--help"],
        ["demo", "--ui", "tui"],
        ["schema", "--help"],
        ["schema", "extra"],
        ["tool"],
        ["notify", "--help"],
        ["notify"],
        ["notify", "--test", "--config", "c.toml"],
    ],
)
def test_a_built_in_command_parses_alone_as_among_every_command(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    alone = _parsed(build_parser(argv[0]), argv, capsys)
    assert alone == _parsed(build_parser(), argv, capsys)


def test_the_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (None, "--help"):
        status, out, _ = _parsed(build_parser(command), ["--help"], capsys)
        assert status == 0
        listed = re.findall(r"^    (\w+)", out, flags=re.MULTILINE)
        assert listed[:5] == ["ask", "demo", "schema", "tool", "notify"]
        assert {"config", "settings", "replay", "resume", "answer"} <= set(listed)


def test_ask_builds_its_parser_without_the_other_areas() -> None:
    probe = (
        "import sys\n"
        "from pi_ask.cli.main import AREA_COMMANDS, main\n"
        "status = main(['ask', '--ui', 'none', sys.argv[1]])\n"
        "print(status, [m for m in AREA_COMMANDS if m in sys.modules], file=sys.stderr)\n"
    )
    payload = ROOT / "tests" / "fixtures" / "payloads" / "basic.json"
    done = subprocess.run(
        [sys.executable, "-c", probe, str(payload)], capture_output=True, text=True, check=False
    )
    assert done.stderr.splitlines()[-1] == "1 []"
    assert '"cancelled": true' in done.stdout


def test_no_ui_returns_the_pending_questions_and_exits_1(env: dict[str, str]) -> None:
    done = run("ask", "--ui", "none", stdin=json.dumps(VALID), env=env)
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    text = result["content"][0]["text"]
    assert text.startswith("Needs user input: ask_user requires interactive TUI mode.\n")
    assert "1. Language: Which language?\n   - Python [python]\n   - Go [go]\n" in text
    assert "   - Type your own [custom]" in text
    details = result["details"]
    assert details["cancelled"] is True
    assert details["reason"] == "no_terminal"
    assert text.splitlines()[-1].startswith("No terminal could reach the user")
    assert details["title"] == "Setup"
    assert details["answers"] == {}
    assert [q["label"] for q in details["questions"]] == ["Language", "Q2"]
    # --ui none asked for exactly this: nothing to explain on stderr.
    assert done.stderr == ""


def test_auto_without_a_terminal_falls_back_to_no_ui(env: dict[str, str], tmp_path: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(VALID), encoding="utf-8")
    done = run("ask", str(payload), env=env)
    assert done.returncode == 1
    assert json.loads(done.stdout)["content"][0]["text"].startswith("Needs user input")
    # One line for a person at a shell: how the ask could still be answered.
    (line,) = done.stderr.splitlines()
    # ... naming why: no inbox runs here (this test's own runtime folder); tmux varies.
    assert line.startswith("pi-ask: no terminal could reach you (no pi-ask inbox or web face")
    assert all(way in line for way in ("--detach", "pi-ask inbox", "pi-ask attach", "pi-ask web"))


def test_invalid_payload_prints_every_issue_and_exits_2(env: dict[str, str]) -> None:
    bad = {
        "questions": [
            {"id": "a", "prompt": "One?", "options": [{"value": "x"}, {"value": "x"}]},
            {"id": "a", "prompt": " ", "type": "preview", "options": [{"value": "y"}]},
        ]
    }
    done = run("ask", "--ui", "none", stdin=json.dumps(bad), env=env)
    assert done.returncode == 2
    result = json.loads(done.stdout)
    assert result["content"][0]["text"].splitlines() == [
        "Invalid ask_user payload:",
        '- questions[0].options[1].value: Question 1, option 2: duplicate option value "x"',
        '- questions[1].id: Question 2: duplicate question id "a"',
        "- questions[1].prompt: Question 2: prompt is required",
        "- questions[1].options[0].preview: Question 2, option 1: preview questions require"
        ' preview text for every option; add preview text or use type "single" instead',
    ]
    assert result["details"]["error"]["kind"] == "invalid_input"
    assert result["details"]["cancelled"] is True
    # One readable line for whoever runs it at a terminal; the JSON has every issue.
    assert done.stderr == (
        "pi-ask: invalid payload: questions[0].options[1].value: Question 1, option 2: duplicate"
        ' option value "x" (+3 more in the result)\n'
    )


def test_a_typo_in_a_field_name_is_invalid_with_did_you_mean(env: dict[str, str]) -> None:
    bad = {"questions": [{"id": "a", "promt": "One?", "options": [{"value": "x"}]}]}
    done = run("ask", "--ui", "none", stdin=json.dumps(bad), env=env)
    assert done.returncode == 2
    issues = json.loads(done.stdout)["details"]["error"]["issues"]
    assert [issue["message"] for issue in issues] == [
        'Question 1: unknown field "promt"; did you mean "prompt"?'
    ]


def test_other_unknown_fields_are_accepted_and_listed_once_on_stderr(
    env: dict[str, str],
) -> None:
    extra = {**VALID, "x_meta": 1}
    extra["questions"] = [{**VALID["questions"][0], "colour": "red"}, VALID["questions"][1]]  # type: ignore[index]
    done = run("ask", "--ui", "none", stdin=json.dumps(extra), env=env)
    assert done.returncode == 1
    assert json.loads(done.stdout)["details"]["reason"] == "no_terminal"
    assert done.stderr.count("unknown payload fields") == 1
    assert "pi-ask: unknown payload fields, ignored: x_meta, questions[0].colour\n" in done.stderr


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "null", '"text"'])
def test_a_payload_that_is_not_an_object_is_invalid_input(env: dict[str, str], text: str) -> None:
    done = run("ask", "--ui", "none", stdin=text, env=env)
    assert done.returncode == 2
    issues = json.loads(done.stdout)["details"]["error"]["issues"]
    assert issues[0]["path"] == ""
    assert "Traceback" not in done.stderr


def test_an_unreadable_payload_file_is_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    missing = run("ask", str(tmp_path / "nope.json"), env=env)
    folder = run("ask", str(tmp_path), env=env)
    for done in (missing, folder):
        assert done.returncode == 2
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1
        assert "Traceback" not in done.stderr
    assert "does not exist" in missing.stderr
    assert "is a folder" in folder.stderr


def test_rpc_refuses_a_payload_on_stdin(env: dict[str, str]) -> None:
    done = run("ask", "--ui", "rpc", "-", stdin="{}", env=env)
    assert done.returncode == 2
    assert "needs a PAYLOAD file" in done.stderr


def test_bad_usage_exits_2(env: dict[str, str]) -> None:
    done = run("ask", "--ui", "web", env=env)
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def test_schema_and_tool_metadata(env: dict[str, str]) -> None:
    schema = json.loads(run("schema", env=env).stdout)
    assert schema["required"] == ["questions"]
    tool = json.loads(run("tool", env=env).stdout)
    assert tool["name"] == "ask_user"
    assert tool["parameters"] == schema


def test_readme_payload_and_result_agree_with_the_command(env: dict[str, str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    payload_text, result_text = re.findall(r"```json\n(.*?)```", readme, re.DOTALL)[:2]
    done = run("ask", "--ui", "none", stdin=payload_text, env=env)
    assert done.returncode == 1
    shown = json.loads(result_text)["details"]
    got = json.loads(done.stdout)["details"]
    assert got["questions"] == shown["questions"]
    assert got["title"] == shown["title"]


def test_an_unanswered_ask_stays_resumable(env: dict[str, str], tmp_path: Path) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(VALID), encoding="utf-8")
    assert run("ask", "--ui", "none", str(payload), env=env).returncode == 1
    listed = run("resume", "--list", env=env)
    assert listed.returncode == 0
    assert "0/2 answered  Setup" in listed.stdout
    resumed = run("ask", "--resume", "--ui", "none", env=env)
    assert resumed.returncode == 1
    assert json.loads(resumed.stdout)["details"]["title"] == "Setup"


@pytest.mark.parametrize("face", ["tui", "plain"])
def test_a_terminal_face_without_a_terminal_returns_the_questions(
    env: dict[str, str], tmp_path: Path, face: str
) -> None:
    payload = tmp_path / "q.json"
    payload.write_text(json.dumps(VALID), encoding="utf-8")
    done = run("ask", "--ui", face, str(payload), env=env)
    assert done.returncode == 1
    assert json.loads(done.stdout)["content"][0]["text"].startswith("Needs user input")
    (line,) = done.stderr.splitlines()
    assert line.startswith("pi-ask: no terminal to draw on, so nothing was asked; to answer later")


def test_notify_without_a_terminal_claims_no_terminal_channel_sent(
    env: dict[str, str], tmp_path: Path
) -> None:
    config = Path(env["PI_ASK_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[notifications]\nchannels = ["bell", "osc9", "osc777"]\n')
    done = run("notify", "--test", env=env)  # a new session: no controlling terminal
    assert done.stdout.splitlines() == [
        "1. bell: unavailable: no terminal",
        "2. osc9: unavailable: no terminal",
        "3. osc777: unavailable: no terminal",
        "nothing was sent: no channel is available here",
    ]
    assert done.returncode == 1


def test_start_up_runs_without_the_collector_and_the_face_has_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pi_ask.cli.main import main
    from pi_ask.session.recorder import AskRecorder

    monkeypatch.setenv("PI_ASK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))
    seen: dict[str, bool] = {}
    start, sync = AskRecorder.start, AskRecorder.sync

    def started(self: AskRecorder, *args: object, **kwargs: object) -> str:
        seen["recording the payload"] = gc.isenabled()
        return start(self, *args, **kwargs)  # type: ignore[arg-type]

    def synced(self: AskRecorder) -> None:
        seen["face picked"] = gc.isenabled()
        sync(self)

    monkeypatch.setattr(AskRecorder, "start", started)
    monkeypatch.setattr(AskRecorder, "sync", synced)
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(VALID), encoding="utf-8")
    assert main(["ask", "--ui", "none", str(payload)]) == 1
    assert json.loads(capsys.readouterr().out)["details"]["reason"] == "no_terminal"
    # No face draws and nothing waits: paused to the end, where the command has it back.
    assert seen == {"recording the payload": False, "face picked": False}
    assert gc.isenabled()


def test_the_command_skips_the_teardown_only_when_nothing_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import atexit
    import threading

    from pi_ask.cli import main as command

    ended: list[int] = []
    monkeypatch.setattr(os, "_exit", ended.append)
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    command._end_now_if_nothing_is_left(3)
    assert ended == [3]  # nothing left: ended at once, with the command's status
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    command._end_now_if_nothing_is_left(4)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 1)
    command._end_now_if_nothing_is_left(5)
    assert ended == [3]  # a thread, or an exit handler: the usual way
