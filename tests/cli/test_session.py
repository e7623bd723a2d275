"""``pi-ask replay``, ``resume`` and ``answer`` run as real subprocesses on real files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from pi_ask.answer.extraction import NO_QUESTIONS
from pi_ask.answer.source import NO_MESSAGE
from pi_ask.session.locations import encode_claude_cwd, encode_cwd
from pi_ask.session.replay import NO_AGAIN, NO_REPLAY
from pi_ask.session.resume import NO_RESUME
from tests.answer.chat_server import Reply, chat_server
from tests.session.helpers import custom, message, payload_entry, question, write

FIXTURES = Path(__file__).parent.parent / "fixtures"
ANSWERS = sorted((FIXTURES / "answer").glob("*.md"))


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str

    @property
    def result(self) -> dict[str, object]:
        value = json.loads(self.stdout)
        assert isinstance(value, dict)
        return value

    def question_ids(self) -> list[str]:
        details = self.result["details"]
        assert isinstance(details, dict)
        return [q["id"] for q in details["questions"]]


@dataclass
class Env:
    root: Path
    cwd: Path
    vars: dict[str, str]

    def run(self, *args: str, stdin: str | None = None) -> Run:
        done = subprocess.run(
            [sys.executable, "-m", "pi_ask", *args],
            cwd=self.cwd,
            env=self.vars,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return Run(done.returncode, done.stdout, done.stderr)

    @property
    def log(self) -> Path:
        return self.root / "state" / "sessions" / f"{encode_cwd(self.cwd)}.jsonl"

    @property
    def looked_in(self) -> str:
        """What a "nothing found" line says about where replay and resume looked."""
        return f"Looked in {self.log}; pass --all to look in every folder's log."


@pytest.fixture
def env(tmp_path: Path) -> Env:
    cwd = tmp_path / "work"
    cwd.mkdir()
    variables = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PI_", "CLAUDE_", "OPENAI", "OPENROUTER", "ANTHROPIC", "GROQ"))
    }
    variables.update(
        PI_ASK_STATE_DIR=str(tmp_path / "state"),
        PI_ASK_CONFIG=str(tmp_path / "config.toml"),
        HOME=str(tmp_path / "home"),
    )
    return Env(tmp_path, cwd.resolve(), variables)


@pytest.mark.parametrize("message", ANSWERS, ids=[m.stem for m in ANSWERS])
def test_answer_text_opens_the_questions_of_each_fixture(env: Env, message: Path) -> None:
    expected = json.loads(message.with_suffix(".json").read_text())["questions"]
    run = env.run("answer", "--ui", "none", "--text", str(message))
    if not expected:
        assert (run.status, run.stdout, run.stderr) == (1, "", NO_QUESTIONS + "\n")
        return
    assert run.status == 1  # no terminal: the non-interactive result
    details = run.result["details"]
    assert isinstance(details, dict)
    assert [(q["id"], q["prompt"], q["type"]) for q in details["questions"]] == [
        (q["id"], q["prompt"], q["type"]) for q in expected
    ]
    text = run.result["content"][0]["text"]  # type: ignore[index]
    for q in expected:
        for option in q["options"]:
            if not option.get("freeform"):
                assert f"   - {option['label']} [{option['value']}]" in text


def test_answer_reads_piped_standard_input(env: Env) -> None:
    run = env.run("answer", "--ui", "none", stdin="Should I use tabs or spaces?")
    assert run.question_ids() == ["tabs_spaces"]


def test_answer_reads_a_pi_session_and_again_reopens_the_form(env: Env) -> None:
    run = env.run(
        "answer", "--ui", "none", "--session", str(FIXTURES / "sessions" / "pi-branched.jsonl")
    )
    assert run.question_ids() == ["sessions_live_redis", "session_cookie"]
    again = env.run("answer", "--again", "--ui", "none")
    assert again.question_ids() == run.question_ids()
    assert again.stderr == (
        f"Reopening the previous pi-ask answer form from {env.log}: 2 questions.\n"
    )
    assert env.run("replay", "--ui", "none").stderr == f"{NO_REPLAY} {env.looked_in}\n"


def test_answer_reads_a_claude_code_transcript(env: Env) -> None:
    run = env.run(
        "answer",
        "--ui",
        "none",
        "--session",
        str(FIXTURES / "sessions" / "claude-transcript.jsonl"),
    )
    assert run.question_ids() == ["session_storage", "password_hashing"]


def test_answer_finds_the_newest_pi_session_of_the_cwd(env: Env) -> None:
    folder = Path(env.vars["HOME"]) / ".pi" / "agent" / "sessions" / encode_cwd(env.cwd)
    folder.mkdir(parents=True)
    lines = (FIXTURES / "sessions" / "pi-branched.jsonl").read_text().splitlines(keepends=True)
    header = json.loads(lines[0]) | {"cwd": str(env.cwd)}
    (folder / "2026-11-29T20-00-00-000Z_s.jsonl").write_text(
        json.dumps(header) + "\n" + "".join(lines[1:])
    )
    assert env.run("answer", "--ui", "none").question_ids() == [
        "sessions_live_redis",
        "session_cookie",
    ]


def test_answer_falls_back_to_the_newest_claude_transcript(env: Env) -> None:
    folder = Path(env.vars["HOME"]) / ".claude" / "projects" / encode_claude_cwd(env.cwd)
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "sessions" / "claude-transcript.jsonl", folder / "5f0c.jsonl")
    assert env.run("answer", "--ui", "none").question_ids() == [
        "session_storage",
        "password_hashing",
    ]


def test_answer_refuses_an_unfinished_message_and_an_empty_history(env: Env) -> None:
    pi_file = write(
        env.root / "pi.jsonl",
        message("m1", None, role="user", content="go"),
        message(
            "m2",
            "m1",
            role="assistant",
            stopReason="length",
            content=[{"type": "text", "text": "Which one?"}],
        ),
    )
    run = env.run("answer", "--session", str(pi_file))
    assert (run.status, run.stdout) == (2, "")
    assert run.stderr == (
        "Latest assistant message is incomplete (length); "
        "wait for it to finish, then run pi-ask answer again.\n"
    )
    nothing = env.run("answer")
    assert (nothing.status, nothing.stdout) == (2, "")
    # Where it looked, and the way to hand it a message instead.
    (said,) = nothing.stderr.splitlines()
    assert said.startswith(NO_MESSAGE + " Looked for a pi session in ")
    assert "Claude Code transcript in " in said and "--text FILE" in said
    assert env.run("answer", "--again").stderr == f"{NO_AGAIN} {env.looked_in}\n"
    missing = env.run("answer", "--session", str(env.root / "absent.jsonl"))
    assert missing.status == 2
    assert "absent.jsonl" in missing.stderr


def test_replay_and_resume_read_our_log(env: Env) -> None:
    params = {"questions": [question("db", "pg", "lite")]}
    draft = {
        "version": 1,
        "timestamp": 3,
        "toolCallId": "ask-2",
        "answers": {
            "db": {"selected": [{"value": "lite", "label": "Lite", "index": 2}], "note": "small"}
        },
    }
    write(
        env.log,
        payload_entry("e1", None, "ask-1", params, stamp=1),
        custom("e2", "e1", "ask:pending-dismissed", {"toolCallId": "ask-1"}),
        payload_entry("e3", "e2", "ask-2", params, stamp=2),
        custom("e4", "e3", "ask:draft", draft),
    )
    replay = env.run("replay", "--ui", "none")
    assert replay.stderr == f"Replaying the previous ask_user form from {env.log}: 1 question.\n"
    assert replay.question_ids() == ["db"]
    listing = env.run("resume", "--list")
    assert listing.status == 0
    (line,) = [row for row in listing.stdout.splitlines() if row.startswith("ask-2")]
    assert "1/1 answered" in line
    resume = env.run("resume", "ask-2", "--ui", "none")
    assert resume.stderr == "Reopening unanswered ask_user form: 1 question.\n"
    assert resume.question_ids() == ["db"]
    unknown = env.run("resume", "nope")
    assert (unknown.status, unknown.stdout) == (1, "")
    assert "nope" in unknown.stderr


def test_damaged_lines_are_reported_and_the_rest_is_used(env: Env) -> None:
    pi_file = FIXTURES / "sessions" / "pi-branched.jsonl"
    run = env.run("replay", "--ui", "none", "--session", str(pi_file))
    assert run.question_ids() == ["db"]
    assert run.stderr.splitlines() == [
        f"pi-ask: {pi_file}: skipped 2 unreadable lines: 9, 13",
        f"Replaying the previous ask_user form from {pi_file}: 1 question.",
    ]
    assert pi_file.read_text().count("\n") == 12  # read, never written


def test_nothing_to_replay_or_resume_is_one_line_and_exit_1(env: Env) -> None:
    for args, text in (
        (("replay",), NO_REPLAY),
        (("resume",), NO_RESUME),
        (("resume", "--list"), NO_RESUME),
    ):
        run = env.run(*args)
        assert (run.status, run.stdout, run.stderr) == (1, "", f"{text} {env.looked_in}\n")


def test_the_model_extractor_and_its_offline_fallback(env: Env) -> None:
    form = {
        "questions": [
            {
                "id": "from_model",
                "prompt": "Model?",
                "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}],
            }
        ]
    }
    with chat_server(
        Reply(arguments=(json.dumps(form),)), Reply(status=500), Reply(status=500)
    ) as server:
        Path(env.vars["PI_ASK_CONFIG"]).write_text(
            "[answer]\n"
            'extractor = "auto"\n'
            "extraction_retries = 1\n"
            f'extraction_models = [{{ provider = "local", id = "m", base_url = "{server.url}", '
            'api_key_env = "TEST_KEY" }]\n'
        )
        env.vars["TEST_KEY"] = "sk"
        good = env.run("answer", "--ui", "none", stdin="Should I use tabs or spaces?")
        assert good.question_ids() == ["from_model"]
        assert good.stderr.splitlines()[0] == "Extracting questions using local/m..."
        failed = env.run("answer", "--ui", "none", stdin="Should I use tabs or spaces?")
    assert failed.question_ids() == ["tabs_spaces"]
    assert failed.stderr.splitlines()[-1].startswith("Question extraction with local/m failed: ")
    assert failed.stderr.splitlines()[-1].endswith("Using the offline extractor.")
    del env.vars["TEST_KEY"]
    Path(env.vars["PI_ASK_CONFIG"]).write_text('[answer]\nextractor = "model"\n')
    refused = env.run("answer", "--ui", "none", stdin="Should I?")
    assert refused.status == 2
    assert refused.stderr.startswith("No available extraction model.")


def test_the_commands_module_stays_cheap() -> None:
    code = (
        "import sys, pi_ask.cli.session\n"
        "heavy = ('pi_ask.session.log', 'filelock', 'openai', 'pi_ask.api')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "assert heavy == [], heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_working_directories_are_encoded_as_pi_and_claude_name_their_folders() -> None:
    assert encode_cwd(Path("/home/ann/proj")) == "--home-ann-proj--"
    assert encode_cwd("C:\\Users\\ann\\a:b") == "--C--Users-ann-a-b--"  # type: ignore[arg-type]
    assert encode_claude_cwd(Path("/home/ann/my_proj.v2")) == "-home-ann-my-proj-v2"


def test_resume_list_leaves_out_old_asks_that_reached_no_terminal(env: Env) -> None:
    # A real ask at no terminal marks itself unreached in the log...
    asked = env.run("ask", "--ui", "none", stdin=json.dumps({"questions": [question("db", "pg")]}))
    assert json.loads(asked.stdout)["details"]["reason"] == "no_terminal"
    kinds = [json.loads(line).get("customType") for line in env.log.read_text().splitlines()]
    assert kinds[-2:] == ["ask:payload", "ask:unreached"]
    # ... and one asked two days ago like it is left out; one that was interrupted is not.
    day_ms = 24 * 60 * 60 * 1000
    old = int(time.time() * 1000) - 2 * day_ms
    params = {"questions": [question("old", "a", "b")]}
    last = json.loads(env.log.read_text().splitlines()[-1])["id"]
    with env.log.open("a", encoding="utf-8") as log:
        for entry in (
            payload_entry("o1", last, "ask-old", params, stamp=old),
            custom("o2", "o1", "ask:unreached", {"toolCallId": "ask-old", "timestamp": old}),
            payload_entry("o3", "o2", "ask-cut", params, stamp=old),
        ):
            log.write(json.dumps(entry) + "\n")
    listing = env.run("resume", "--list")
    assert listing.status == 0
    listed = [row.split()[0] for row in listing.stdout.splitlines()]
    assert "ask-old" not in listed and "ask-cut" in listed and len(listed) == 2
    assert listing.stderr == (
        "1 ask that reached no terminal over a day ago is not listed; --stale lists it.\n"
    )
    stale = env.run("resume", "--list", "--stale")
    assert "ask-old" in [row.split()[0] for row in stale.stdout.splitlines()]
    assert stale.stderr == ""
    # It can still be resumed by its id.
    assert env.run("resume", "ask-old", "--ui", "none").question_ids() == ["old"]


def test_resume_without_an_id_opens_the_newest_ask_the_list_shows(env: Env) -> None:
    """The newest ask reached no terminal two days ago and has no draft: ``resume --list``
    hides it, so ``resume`` alone opens the newest it shows; ``--stale`` or the id opens
    the hidden one."""
    day_ms = 24 * 60 * 60 * 1000
    now = int(time.time() * 1000)

    def run(*args: str) -> Run:
        # Written again before each run: one that reaches no terminal (--ui none) marks the
        # ask it opened as unreached too.
        write(
            env.log,
            payload_entry(
                "e1", None, "ask-cut", {"questions": [question("cut", "a")]}, stamp=now - 3 * day_ms
            ),
            payload_entry(
                "e2", "e1", "ask-old", {"questions": [question("old", "a")]}, stamp=now - 2 * day_ms
            ),
            custom(
                "e3",
                "e2",
                "ask:unreached",
                {"toolCallId": "ask-old", "timestamp": now - 2 * day_ms},
            ),
        )
        return env.run(*args)

    listing = run("resume", "--list")
    assert [row.split()[0] for row in listing.stdout.splitlines()] == ["ask-cut"]
    assert run("resume", "--ui", "none").question_ids() == ["cut"]
    assert run("ask", "--resume", "--ui", "none").question_ids() == ["cut"]
    assert run("resume", "--stale", "--ui", "none").question_ids() == ["old"]
    assert run("resume", "ask-old", "--ui", "none").question_ids() == ["old"]


def test_resume_says_when_it_passed_over_the_only_asks_there_are(env: Env) -> None:
    old = int(time.time() * 1000) - 2 * 24 * 60 * 60 * 1000
    write(
        env.log,
        payload_entry("e1", None, "ask-old", {"questions": [question("old", "a")]}, stamp=old),
        custom("e2", "e1", "ask:unreached", {"toolCallId": "ask-old", "timestamp": old}),
    )
    run = env.run("resume", "--ui", "none")
    assert (run.status, run.stdout) == (1, "")
    assert run.stderr.splitlines() == [
        f"{NO_RESUME} {env.looked_in}",
        "1 ask that reached no terminal over a day ago was passed over; --stale or its ID"
        " opens it.",
    ]
