"""The typed Python API an agent author codes against (issue 16) and docs/api.md's examples."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar, get_type_hints

import pytest

from pi_ask.api import ask_user, ask_user_async
from pi_ask.contract.loading import load_payload
from pi_ask.contract.payload_types import AskUserInput, OptionInput, QuestionInput
from pi_ask.contract.results import AnswerRecord, AnswerRecords, ResultDetails, ToolResult
from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.state.commands import (
    Confirm,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
)
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result

ROOT = Path(__file__).resolve().parents[1]
API_DOC = ROOT / "docs" / "api.md"
PAYLOAD: dict[str, Any] = json.loads(
    (ROOT / "tests" / "fixtures" / "payloads" / "basic.json").read_text("utf-8")
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))


def _result(*commands: object) -> ToolResult:
    loaded = load_payload(PAYLOAD)
    assert not hasattr(loaded, "issues")
    state = new_state(loaded.payload)  # type: ignore[union-attr]
    for command in commands:
        state = apply(state, command, Behaviour())  # type: ignore[arg-type]
    return build_result(state)


SUBMITTED = (Confirm(), Confirm(), MoveTab(), Confirm(), Confirm())
ELABORATED = (
    OpenQuestionNote(),
    SubmitEditor("why these three?"),
    MoveTab(),
    OpenOptionNote(),
    SubmitEditor("is React a framework?"),
)


# details.answers


def test_answers_are_a_read_only_mapping_in_question_order() -> None:
    answers = _result(*SUBMITTED).details.answers
    assert isinstance(answers, AnswerRecords)
    assert list(answers) == ["style"]
    assert answers["style"].values == ("minimal",)
    assert "style" in answers and "frameworks" not in answers
    assert answers.get("frameworks") is None
    assert answers == {"style": answers["style"]}
    with pytest.raises(TypeError):
        answers["style"] = AnswerRecord()  # type: ignore[index]
    with pytest.raises(KeyError):
        answers["frameworks"]
    hash(_result(*SUBMITTED).details)  # a frozen result stays hashable


def test_a_result_built_from_a_dict_or_pairs_holds_the_same_mapping() -> None:
    record = AnswerRecord(values=("x",))
    from_dict = ResultDetails(cancelled=False, answers={"q": record})
    from_pairs = ResultDetails(cancelled=False, answers=AnswerRecords([("q", record)]))
    assert from_dict == from_pairs
    assert isinstance(from_dict.answers, AnswerRecords)
    other = AnswerRecord(values=("y",))
    forwards = AnswerRecords({"q": record, "r": other})
    backwards = AnswerRecords({"r": other, "q": record})
    assert forwards == backwards and hash(forwards) == hash(backwards)


# ToolResult.from_json


@pytest.mark.parametrize(
    "result",
    [
        _result(*SUBMITTED),
        _result(Confirm(), OpenQuestionNote(), SubmitEditor("hm"), MoveTab(), MoveTab(), Confirm()),
        ask_user({"questions": []}, ui="none"),
        ask_user(PAYLOAD, ui="none"),
    ],
    ids=["submitted", "with-note", "invalid", "no-terminal"],
)
def test_from_json_reads_back_what_to_json_wrote(result: ToolResult) -> None:
    document = result.to_json()
    for form in (document, json.dumps(document), json.dumps(document).encode("utf-8")):
        again = ToolResult.from_json(form)
        assert again.to_json() == document
        assert again.text == result.text
        assert again.details.answers == result.details.answers


def test_from_json_reads_an_elaboration_with_its_option_context() -> None:
    state_result = _elaboration_result()
    again = ToolResult.from_json(state_result.to_json())
    assert again.to_json() == state_result.to_json()
    assert again.details.elaboration is not None
    items = again.details.elaboration.items
    assert [item.note for item in items] == ["why these three?", "is React a framework?"]
    assert items[1].option is not None and items[1].option.value == "react"
    assert [o.value for o in items[1].question.options] == ["react", "vue", "svelte"]


def _elaboration_result() -> ToolResult:
    loaded = load_payload(PAYLOAD)
    state = new_state(loaded.payload)  # type: ignore[union-attr]
    for command in ELABORATED:
        state = apply(state, command, Behaviour())  # type: ignore[arg-type]
    # To the review tab, then its second action, Elaborate.
    for command in (MoveTab(len(state.questions) - state.tab), MoveOption(1), Confirm()):
        state = apply(state, command, Behaviour())
    result = build_result(state)
    assert result.details.mode == "elaborate", result.text
    return result


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("details"), "details: expected an object"),
        (lambda d: d.update(content=[]), "content: expected exactly one text block"),
        (lambda d: d["details"].update(mode="later"), "details.mode: expected one of submit, "),
        (
            lambda d: d["details"]["answers"]["style"].update(values="minimal"),
            "details.answers.style.values: expected an array",
        ),
        (
            lambda d: d["details"]["questions"][0].update(type="grid"),
            "details.questions[0].type: expected one of single, multi, preview",
        ),
        (lambda d: d["details"].update(reason="bored"), "details.reason: expected one of "),
    ],
)
def test_from_json_names_the_first_wrong_field(mutate: Any, message: str) -> None:
    document = _result(*SUBMITTED).to_json()
    mutate(document)
    with pytest.raises(ValueError, match=re.escape(message)):
        ToolResult.from_json(document)


def test_from_json_refuses_text_that_is_not_json() -> None:
    with pytest.raises(ValueError, match=r"^result: not JSON"):
        ToolResult.from_json("{nope")


# The payload TypedDict


def test_the_payload_typed_dicts_match_the_input_schema() -> None:
    def keys(schema: dict[str, Any]) -> tuple[set[str], set[str]]:
        return set(schema["properties"]), set(schema.get("required", []))

    question = INPUT_SCHEMA["properties"]["questions"]["items"]  # type: ignore[index]
    option = question["properties"]["options"]["items"]
    for typed, schema in (
        (AskUserInput, INPUT_SCHEMA),
        (QuestionInput, question),
        (OptionInput, option),
    ):
        properties, required = keys(schema)  # type: ignore[arg-type]
        assert set(get_type_hints(typed)) == properties, typed.__name__
        assert typed.__required_keys__ == required, typed.__name__
    assert ask_user(PAYLOAD, ui="none").details.reason == "no_terminal"


# ask_user_async


def test_ask_user_async_returns_the_same_result_as_ask_user() -> None:
    import asyncio

    async def main() -> ToolResult:
        return await ask_user_async(PAYLOAD, ui="none", title="Async")

    result = asyncio.run(main())
    assert result.to_json() == ask_user(PAYLOAD, ui="none", title="Async").to_json()


# docs/api.md


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", API_DOC.read_text("utf-8"), re.DOTALL)


def _run(code: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(code)],
        capture_output=True,
        text=True,
        env=env,
        start_new_session=True,  # no controlling terminal, as in CI
        timeout=120,
        check=False,
    )


def test_the_api_example_prints_what_the_docs_say(tmp_path: Path) -> None:
    example = tmp_path / "example.py"
    example.write_text(_python_blocks()[0], encoding="utf-8")
    done = _run(example, dict(os.environ))
    assert done.returncode == 0, done.stderr
    (shown,) = re.findall(
        r"Without a terminal it prints:\n\n```text\n(.*?)```", API_DOC.read_text("utf-8"), re.DOTALL
    )
    assert done.stdout == shown


def test_the_api_example_type_checks_strictly(tmp_path: Path) -> None:
    example = tmp_path / "example.py"
    example.write_text(_python_blocks()[0], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(example)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    # And a typo in a payload key is caught, which is what the TypedDict is for.
    example.write_text(_python_blocks()[0].replace('"prompt":', '"promt":'), encoding="utf-8")
    typo = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(example)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert typo.returncode == 1
    assert '"promt"' in typo.stdout


class _FakeOpenAI(BaseHTTPRequestHandler):
    """Chat Completions: first a call of ask_user, then, given its result, a last message."""

    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.requests.append(body)
        if len(self.requests) == 1:
            message: dict[str, Any] = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "ask_user", "arguments": json.dumps(PAYLOAD)},
                    }
                ],
            }
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "Done: asked."}, "stop"
        reply = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        data = json.dumps(reply).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_openai() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    _FakeOpenAI.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", _FakeOpenAI.requests
    server.shutdown()
    server.server_close()


def test_the_openai_loop_from_the_docs_registers_and_answers_the_tool(
    tmp_path: Path, fake_openai: tuple[str, list[dict[str, Any]]]
) -> None:
    url, requests = fake_openai
    loop = tmp_path / "loop.py"
    loop.write_text(_python_blocks()[1], encoding="utf-8")
    env = {**os.environ, "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "test-key"}
    done = _run(loop, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done: asked.\n"
    first, second = requests
    from pi_ask.contract.tool import tool_definition

    assert first["tools"] == [tool_definition("openai")]
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool"
    assert tool_message["tool_call_id"] == "call_1"
    # No terminal in this test: the model is told nobody could be asked.
    assert tool_message["content"] == ask_user(PAYLOAD, ui="none").text


def test_ask_user_async_takes_every_option_ask_user_takes() -> None:
    import inspect

    sync = inspect.signature(ask_user).parameters
    assert inspect.signature(ask_user_async).parameters.keys() == sync.keys()
    for name, parameter in inspect.signature(ask_user_async).parameters.items():
        assert parameter.default == sync[name].default, name
