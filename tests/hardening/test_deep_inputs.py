"""Deeply nested input in every file and stream pi-ask reads: a problem with that input only.

Each reader once let ``RecursionError`` out of ``json`` or ``tomllib`` on a line such as
``[[[[…]]]]`` a few hundred levels deep. Now each one treats it like any other bad input:
the config gets a notice, a log line is skipped, an RPC line gets a note, an import fails
with a message, and ``ask --ui none`` still prints its JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.answer.claude_transcript import read_transcript
from pi_ask.answer.extraction import parse_reply
from pi_ask.answer.source import latest_claude_message, read_session_message
from pi_ask.config.json_import import ImportFailed, import_json
from pi_ask.config.loading import evaluate, parse_text
from pi_ask.config.store import SettingsStore
from pi_ask.config.watcher import poll_file
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.faces.rpc.port import run_rpc
from pi_ask.guarded_parse import MAX_DEPTH, TooDeep, load_json, load_toml
from pi_ask.session.log import SessionLog, read_session
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from tests.child_processes import run_pi_ask

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"
# 500 levels broke tomllib; 100 000 broke the C json scanner too.
DEPTHS = [MAX_DEPTH + 1, 500, 100_000]
VARIABLE = "PI_ASK_NOTIFICATIONS__CHANNELS"
DEFAULT_CHANNELS = evaluate(None, {}).settings.notifications.channels


def arrays(levels: int) -> str:
    return "[" * levels + "]" * levels


def objects(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


# --- the guard itself ----------------------------------------------------------------------


@pytest.mark.parametrize("levels", DEPTHS)
def test_json_deeper_than_the_limit_is_too_deep(levels: int) -> None:
    for text in (arrays(levels), objects(levels)):
        with pytest.raises(TooDeep, match=f"nested more than {MAX_DEPTH} levels deep"):
            load_json(text)
        with pytest.raises(ValueError):  # what every reader already catches
            load_json(text.encode())


def test_json_at_the_limit_is_read() -> None:
    value = load_json(arrays(MAX_DEPTH))
    for _ in range(MAX_DEPTH - 1):
        (value,) = value
    assert value == []
    value = load_json(objects(MAX_DEPTH).encode())
    for _ in range(MAX_DEPTH - 1):
        value = value["a"]
    assert value == {"a": 1}
    # Many siblings are not depth: a wide, shallow line with thousands of brackets is fine.
    assert load_json("[" + ",".join(["[]"] * 5000) + "]") == [[]] * 5000


@pytest.mark.parametrize("levels", DEPTHS)
def test_toml_deeper_than_the_limit_is_too_deep(levels: int) -> None:
    with pytest.raises(TooDeep):
        load_toml(f"x = {arrays(levels)}\n")
    with pytest.raises(TooDeep):
        load_toml(f"x = {'{ a = ' * levels}1{' }' * levels}\n")


def test_toml_dotted_keys_count_as_nesting() -> None:
    with pytest.raises(TooDeep):
        load_toml(".".join(["a"] * (MAX_DEPTH + 1)) + " = 1\n")
    assert load_toml(".".join(["a"] * (MAX_DEPTH - 1)) + " = 1\n")


def test_toml_with_a_bom_and_a_long_integer() -> None:
    assert load_toml("\ufeff[behaviour]\nshow_footer_hints = false\n") == {
        "behaviour": {"show_footer_hints": False}
    }
    with pytest.raises(ValueError):  # tomllib lets int()'s digit limit through as ValueError
        load_toml("x = " + "9" * 5000 + "\n")


# --- config.toml ---------------------------------------------------------------------------


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_config_is_a_problem_with_the_file(tmp_path: Path, levels: int) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[behaviour]\nshow_footer_hints = false\nx = {arrays(levels)}\n")
    store = SettingsStore(config, create=False)
    assert store.file_status == "not_toml"
    assert store.notice is not None and store.notice.kind == "error"
    assert "nested more than 100 levels deep" in store.notice.text
    assert store.snapshot().behaviour.show_footer_hints is True  # defaults, file untouched
    saved = store.set("behaviour.show_footer_hints", False)
    assert not saved.ok


def test_a_long_integer_in_the_config_is_a_problem_with_the_file() -> None:
    content = parse_text(b"[notifications]\ntimeout_s = " + b"9" * 5000 + b"\n")
    assert content.status == "not_toml"
    assert "digits" in content.detail


def test_a_config_with_a_bom_is_read_and_saved(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"\xef\xbb\xbf# mine\n[behaviour]\nshow_footer_hints = false\n")
    store = SettingsStore(config, create=False)
    assert store.file_status == "parsed"
    assert store.notice is None
    assert store.snapshot().behaviour.show_footer_hints is False
    assert store.set("notifications.enabled", False).ok
    text = config.read_text(encoding="utf-8")
    assert text.startswith("# mine\n")  # the comment kept, the BOM not written back
    assert "enabled = false" in text and "show_footer_hints = false" in text


def test_a_deep_setting_variable_is_a_problem_with_the_variable() -> None:
    for levels in DEPTHS:
        evaluation = evaluate(None, {VARIABLE: arrays(levels)})
        assert evaluation.settings.notifications.channels == DEFAULT_CHANNELS
        (problem,) = [p for p in evaluation.problems if p.key == VARIABLE]
        assert "nested more than 100 levels deep" in problem.message


def test_a_deep_config_saved_while_watching_keeps_the_watcher_going(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[behaviour]\nshow_footer_hints = false\n")
    store = SettingsStore(config, create=False)

    async def until(condition: object) -> None:
        while not condition():  # type: ignore[operator]
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        stop = store.start_watching(asyncio.get_running_loop(), interval=0.01)
        try:
            config.write_text(f"x = {arrays(100_000)}\n")
            await asyncio.wait_for(until(lambda: store.file_status == "not_toml"), 30)
            assert store.notice is not None and "nested more than" in store.notice.text
            assert store.snapshot().behaviour.show_footer_hints is False  # kept the last good
            config.write_text("[behaviour]\nshow_footer_hints = true\n[notifications]\n")
            await asyncio.wait_for(until(lambda: store.file_status == "parsed"), 30)
            assert store.snapshot().behaviour.show_footer_hints is True
        finally:
            stop()

    asyncio.run(scenario())


def test_the_watcher_re_arms_after_a_failing_callback(tmp_path: Path) -> None:
    path = tmp_path / "watched"
    calls: list[int] = []
    errors: list[object] = []

    def on_change() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("first change fails")

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: errors.append(context["exception"]))
        stop = poll_file(path, loop, on_change, interval=0.01)
        try:
            path.write_text("one")
            while not calls:
                await asyncio.sleep(0.01)
            path.write_text("two, longer")
            while len(calls) < 2:
                await asyncio.sleep(0.01)
        finally:
            stop()

    asyncio.run(asyncio.wait_for(scenario(), 30))
    assert len(calls) == 2
    assert [str(error) for error in errors] == ["first change fails"]


def test_ask_without_a_ui_prints_its_result_beside_deep_files(tmp_path: Path) -> None:
    """A deep config and a deep line in the session log: the ask still answers in JSON."""
    state = tmp_path / "state"
    env = {
        **os.environ,
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(state),
        VARIABLE: arrays(60_000),  # an environment string may hold at most 128 KiB
    }
    (tmp_path / "config.toml").write_text(f"x = {arrays(500)}\n")
    work = tmp_path / "work"
    work.mkdir()
    from pi_ask.session.locations import encode_cwd

    log = state / "sessions" / f"{encode_cwd(work.resolve())}.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(arrays(100_000) + "\n")
    payload = {"questions": [{"id": "a", "prompt": "Pick?", "options": [{"value": "x"}]}]}
    done = run_pi_ask("ask", "--ui", "none", "-", env=env, cwd=work, stdin=json.dumps(payload))
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    result = json.loads(done.stdout)
    assert result["details"]["questions"][0]["id"] == "a"
    assert log.read_text().count("\n") >= 2  # the ask was recorded after the deep line


# --- session files -------------------------------------------------------------------------


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_line_in_our_session_log_is_skipped(tmp_path: Path, levels: int) -> None:
    path = tmp_path / "session.jsonl"
    log = SessionLog(path, cwd=tmp_path)
    first = log.append_custom("x", {"n": 1})
    with path.open("a") as file:
        file.write(objects(levels) + "\n")
    second = SessionLog(path, cwd=tmp_path).append_custom("x", {"n": 2})
    session = read_session(path)
    assert [entry.id for entry in session.branch()] == [first.id, second.id]
    (skipped,) = session.skipped
    assert skipped.line == 3 and "nested more than 100 levels deep" in skipped.reason


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_line_in_a_pi_session_is_skipped(tmp_path: Path, levels: int) -> None:
    path = tmp_path / "pi.jsonl"
    shutil.copy(FIXTURES / "pi-branched.jsonl", path)
    expected = read_session_message(path)
    with path.open("a") as file:
        file.write("\n" + arrays(levels) + "\n")  # the fixture ends in a torn line
    assert read_session_message(path) == expected
    assert any("nested more than" in skip.reason for skip in read_session(path).skipped)
    assert expected.text.startswith("Two decisions block me:")


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_line_in_a_claude_transcript_is_skipped(tmp_path: Path, levels: int) -> None:
    path = tmp_path / "claude.jsonl"
    shutil.copy(FIXTURES / "claude-transcript.jsonl", path)
    expected = latest_claude_message(path)
    with path.open("a") as file:
        file.write("\n" + objects(levels) + "\n")
    assert latest_claude_message(path) == expected
    assert read_transcript(arrays(levels)) == ()


# --- streams and replies -------------------------------------------------------------------


def _payload() -> LoadedPayload:
    loaded = load_payload(
        {"questions": [{"id": "db", "prompt": "Which?", "options": [{"value": "pg"}]}]}
    )
    assert isinstance(loaded, LoadedPayload)
    return loaded


def test_a_deep_rpc_line_gets_a_note_and_the_ask_goes_on() -> None:
    loaded = _payload()
    stdout, stderr = io.StringIO(), io.StringIO()

    # The request id is random: the host answers whatever id the first request carries,
    # after a deep line and a deep object.
    read_r, write_w = os.pipe()

    class Requests(io.StringIO):
        def write(self, text: str) -> int:
            stdout.write(text)
            request = json.loads(text)
            reply = {"type": "extension_ui_response", "id": request["id"]}
            reply["value"] = request["options"][0]
            data = (
                arrays(100_000) + "\n" + objects(500) + "\n" + json.dumps(reply) + "\n"
            ).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(write_w, view) :]
            os.close(write_w)
            return len(text)

    with os.fdopen(read_r, "r", encoding="utf-8") as stdin:
        result = build_result(
            run_rpc(new_state(loaded.payload), stdin=stdin, stdout=Requests(), stderr=stderr)
        )
    assert result.details.cancelled is False, (stdout.getvalue(), stderr.getvalue())
    assert result.to_json()["details"]["answers"]["db"]["values"] == ["pg"]  # type: ignore[index]
    notes = stderr.getvalue().splitlines()
    assert [note.split(": ", 2)[1] for note in notes] == [
        "stdin line 1 ignored",
        "stdin line 2 ignored",
    ]
    assert all("not JSON (nested more than 100 levels deep)" in note for note in notes)


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_model_reply_is_an_error_to_feed_back(levels: int) -> None:
    assert parse_reply('{"questions": ' + arrays(levels) + "}") == (
        "nested more than 100 levels deep"
    )


@pytest.mark.parametrize("levels", DEPTHS)
def test_a_deep_json_config_to_import_fails_with_a_message(levels: int) -> None:
    with pytest.raises(ImportFailed, match="not valid JSON \\(nested more than 100 levels"):
        import_json('{"schemaVersion": 5, "keymaps": ' + objects(levels) + "}")


def test_config_import_of_a_deep_file_exits_with_a_message(tmp_path: Path) -> None:
    source = tmp_path / "old.json"
    source.write_text('{"schemaVersion": 5, "x": ' + arrays(100_000) + "}")
    env = {**os.environ, "PI_ASK_CONFIG": str(tmp_path / "config.toml")}
    done = subprocess.run(
        [sys.executable, "-m", "pi_ask", "config", "import", str(source)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "nested more than 100 levels deep" in done.stderr
    assert not (tmp_path / "config.toml").exists()


# --- fuzz: depth and length for every reader ------------------------------------------------


def _folders() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="pi-ask-deep-") as name:
        yield Path(name)


_OPENERS = {"[": "]", '{"k":': "}", '[{"k":': "}]", "[1,": "]"}


@st.composite
def nested_texts(draw: st.DrawFn) -> str:
    """Nesting of any depth up to 3000, closed or cut short, with a long string at its core."""
    levels = draw(st.integers(1, 3000))
    opener = draw(st.sampled_from(sorted(_OPENERS)))
    core = draw(st.sampled_from(["1", '"' + "x" * 5000 + '"', "[]", "{}"]))
    closed = draw(st.booleans())
    return opener * levels + core + (_OPENERS[opener] * levels if closed else "")


@settings(max_examples=60, deadline=None)
@given(nested_texts())
def test_any_nesting_reaches_each_reader_as_a_problem_or_a_value(text: str) -> None:
    with contextlib.suppress(ValueError):  # too deep or cut short; nothing else may escape
        load_json(text)
    assert isinstance(parse_reply(text), str)  # an error to feed back, never an exception
    assert read_transcript(text + "\n" + text) == ()
    with pytest.raises(ImportFailed):
        import_json(text)  # never an object with a schemaVersion
    content = parse_text(f"x = {text}\n".encode())
    assert content.status in ("parsed", "not_toml")
    channels = evaluate(None, {VARIABLE: text}).settings.notifications.channels
    assert channels == DEFAULT_CHANNELS
    for folder in _folders():
        log = folder / "session.jsonl"
        log.write_text('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n' + text)
        session = read_session(log)  # a damaged or deep last line is skipped, never raised
        assert session.header is not None
    loaded = _payload()
    stderr = io.StringIO()
    state = run_rpc(
        new_state(loaded.payload),
        stdin=io.StringIO(text + "\n"),
        stdout=io.StringIO(),
        stderr=stderr,
    )
    result = build_result(state)
    assert result.details.cancelled is True
    assert stderr.getvalue().startswith("pi-ask rpc: stdin line 1 ignored: ")


def test_a_deep_mcp_round_state_is_no_ask_id() -> None:
    pytest.importorskip("mcp")
    from pi_ask.mcp_server.server import _round_state

    assert _round_state(objects(100_000)) is None
    state = _round_state('{"askId": "abc"}')
    assert state is not None and state.ask_id == "abc"


# --- pi-ask answer --------------------------------------------------------------------------


def _nested_list(levels: int) -> str:
    """An assistant message asking one question over a bullet list ``levels`` deep."""
    items = "".join("  " * level + f"- item {level}\n" for level in range(levels))
    return f"Which one should I use?\n\n{items}"


def test_answer_text_with_lists_nested_500_deep_is_one_clear_line(tmp_path: Path) -> None:
    message = tmp_path / "message.md"
    message.write_text(_nested_list(500), encoding="utf-8")  # ~240 KB, as the audit's
    env = {**os.environ, "PI_ASK_STATE_DIR": str(tmp_path / "state")}
    done = run_pi_ask("answer", "--text", str(message), "--ui", "none", env=env, cwd=tmp_path)
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "The message nests lists more than 32 levels deep; pi-ask answer reads questions from "
        "messages nested less deeply."
    ]


def test_lists_nested_to_the_limit_are_read() -> None:
    from pi_ask.answer.message_blocks import MAX_LIST_DEPTH, ItemList, NestedTooDeep, read_blocks

    blocks = read_blocks(_nested_list(MAX_LIST_DEPTH))
    item = next(block for block in blocks if isinstance(block, ItemList)).items[0]
    depth = 1
    while item.children:
        (item,) = item.children
        depth += 1
    assert depth == MAX_LIST_DEPTH
    with pytest.raises(NestedTooDeep):
        read_blocks(_nested_list(MAX_LIST_DEPTH + 1))


def test_the_docs_state_the_list_depth() -> None:
    from pi_ask.answer.message_blocks import MAX_LIST_DEPTH

    text = (Path(__file__).resolve().parents[2] / "docs" / "answer.md").read_text("utf-8")
    assert f"Lists nested more than {MAX_LIST_DEPTH} levels deep are refused" in text
