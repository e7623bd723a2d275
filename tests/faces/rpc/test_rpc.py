"""The pi RPC adapter on real pipes: a child process, a host written against protocols.md §1."""

from __future__ import annotations

import io
import json
import os
import threading
import uuid
from collections.abc import Callable

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.results import ToolResult
from pi_ask.faces.rpc.jsonl import MAX_LINE_BYTES
from pi_ask.faces.rpc.port import run_rpc
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from tests.faces.rpc.conftest import Message, RpcHost

PAYLOAD: Message = {
    "title": "Setup",
    "questions": [
        {
            "id": "db",
            "label": "Database",
            "prompt": "Which database?",
            "options": [
                {"value": "pg", "label": "PostgreSQL", "recommended": True},
                {"value": "sqlite", "label": "SQLite"},
            ],
        },
        {
            "id": "fw",
            "label": "Frontend",
            "prompt": "Frameworks?",
            "type": "multi",
            "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}],
        },
    ],
}
Start = Callable[[Message], RpcHost]


def details(result: Message) -> Message:
    out = result["details"]
    assert isinstance(out, dict)
    return out


def values(result: Message) -> dict[str, list[str]]:
    answers = details(result)["answers"]
    assert isinstance(answers, dict)
    return {qid: answer["values"] for qid, answer in answers.items()}


def test_happy_path(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    assert first["method"] == "select"
    assert first["title"] == "[1/2] Setup — Database: Which database?"
    assert first["options"] == ["1. PostgreSQL (recommended)", "2. SQLite", "Type something…"]
    assert set(first) == {"type", "id", "method", "title", "options"}
    assert str(uuid.UUID(str(first["id"]))) == first["id"]
    host.choose(first, 1)
    second = host.request()
    assert second["title"] == "[2/2] Setup — Frontend: Frameworks?"
    assert second["id"] != first["id"]
    host.choose(second, 0)
    result, status = host.finish()
    assert status == 0
    assert details(result)["cancelled"] is False
    assert details(result)["mode"] == "submit"
    assert values(result) == {"db": ["sqlite"], "fw": ["react"]}
    assert result["content"] == [{"type": "text", "text": "Database: SQLite\nFrontend: React"}]
    assert host.stderr == ""


def test_a_dismissed_card_skips_its_question(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.respond(host.request(), cancelled=True)
    # pi reads a response with neither value nor cancelled as a dismiss too.
    host.respond(host.request())
    result, status = host.finish()
    assert status == 0
    assert details(result)["cancelled"] is False
    assert values(result) == {}


def test_custom_input(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.choose(host.request(), -1)
    typed = host.request()
    assert typed == {
        "type": "extension_ui_request",
        "id": typed["id"],
        "method": "input",
        "title": "[1/2] Setup — Database: Which database? — Type something…",
        "placeholder": "Enter your answer",
    }
    host.respond(typed, value="  Duck\u2028DB  ")
    host.choose(host.request(), -1)
    typed = host.request()
    assert typed["placeholder"] == "Enter one or more answers"
    host.respond(typed, cancelled=True)
    result, status = host.finish()
    assert status == 0
    answers = details(result)["answers"]
    assert answers == {
        "db": {
            "values": ["Duck\u2028DB"],
            "labels": ["Duck\u2028DB"],
            "indices": [],
            "customText": "Duck\u2028DB",
        }
    }


def test_an_unknown_value_cancels_and_nothing_waits(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.choose(host.request(), 0)
    second = host.request()
    host.respond(second, value="React")
    # stdin stays open: the process must end on its own, with no further request.
    result, status = host.finish()
    assert status == 1
    assert details(result)["cancelled"] is True
    assert details(result)["reason"] == "aborted"
    assert result["content"][0]["text"].startswith("The ask flow was aborted")
    assert values(result) == {"db": ["pg"]}
    assert "the answer 'React' to question 2 is none of the 3 options offered" in host.stderr


def test_a_value_that_is_not_a_string_cancels(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.respond(host.request(), value=1)
    result, status = host.finish()
    assert status == 1
    assert details(result)["cancelled"] is True
    assert "the select value 1 is not a string; the ask is cancelled" in host.stderr


def test_malformed_lines_are_ignored_with_a_note(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    host.send_raw(b'garbage\n\n   \n[1, 2]\n"text"\n\xff\xfe\n{"type": "extension_ui_resp')
    host.send_raw(b'onse", "id": 5}\n')
    host.choose(first, 0)
    host.choose(host.request(), 1)
    result, status = host.finish()
    assert status == 0
    assert values(result) == {"db": ["pg"], "fw": ["vue"]}
    notes = host.stderr.splitlines()
    assert notes == [
        "pi-ask rpc: stdin line 1 ignored: not JSON (Expecting value: line 1 column 1 (char 0)):"
        " 'garbage'",
        "pi-ask rpc: stdin line 4 ignored: not a JSON object: '[1, 2]'",
        "pi-ask rpc: stdin line 5 ignored: not a JSON object: '\"text\"'",
        "pi-ask rpc: stdin line 6 ignored: not UTF-8",
        "pi-ask rpc: stdin line 7 ignored: the response has no string id",
    ]


def test_a_line_over_the_limit_gets_a_note_and_the_ask_goes_on(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    size = MAX_LINE_BYTES + 5
    # The write returns only once the adapter has read it all: it reads on while it drops.
    host.send_raw(b"z" * size + b"\n")
    host.choose(first, 0)
    host.choose(host.request(), 1)
    result, status = host.finish()
    assert status == 0
    assert values(result) == {"db": ["pg"], "fw": ["vue"]}
    assert host.stderr.splitlines() == [
        f"pi-ask rpc: stdin line 1 ignored: {size} bytes is longer than the limit of "
        f"{MAX_LINE_BYTES} bytes"
    ]


def test_other_message_types_are_ignored_with_a_note(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    host.send(
        {"type": "prompt", "message": "hi"},
        {"type": "response", "command": "prompt", "success": True},
        {"id": first["id"], "value": "2. SQLite"},
        {"type": "extension_ui_request", "id": first["id"], "method": "select"},
    )
    host.choose(first, 0)
    host.respond(host.request(), cancelled=True)
    result, _ = host.finish()
    assert values(result) == {"db": ["pg"]}
    assert host.stderr.splitlines() == [
        'pi-ask rpc: stdin line 1 ignored: type "prompt" is not "extension_ui_response"',
        'pi-ask rpc: stdin line 2 ignored: type "response" is not "extension_ui_response"',
        'pi-ask rpc: stdin line 3 ignored: type null is not "extension_ui_response"',
        'pi-ask rpc: stdin line 4 ignored: type "extension_ui_request" is not'
        ' "extension_ui_response"',
    ]


def test_responses_to_other_ids_are_ignored(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    host.send({"type": "extension_ui_response", "id": "not-open", "value": "2. SQLite"})
    host.choose(first, 0)
    second = host.request()
    # A second answer to the first card arrives late: its id is no longer open.
    host.choose(first, 1)
    host.choose(second, 1)
    result, status = host.finish()
    assert status == 0
    assert values(result) == {"db": ["pg"], "fw": ["vue"]}
    assert host.stderr.splitlines() == [
        "pi-ask rpc: stdin line 1 ignored: response id 'not-open' matches no open dialog",
        f"pi-ask rpc: stdin line 3 ignored: response id '{first['id']}' matches no open dialog",
    ]


def test_crlf_framing_is_accepted(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    first = host.request()
    line = {"type": "extension_ui_response", "id": first["id"], "value": "2. SQLite"}
    host.send_raw(json.dumps(line).encode() + b"\r\n")
    host.respond(host.request(), cancelled=True)
    result, _ = host.finish()
    assert values(result) == {"db": ["sqlite"]}


def test_stdin_closing_mid_flow_cancels(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.choose(host.request(), 1)
    host.request()
    host.close_stdin()
    result, status = host.finish()
    assert status == 1
    assert details(result)["cancelled"] is True
    assert details(result)["reason"] == "aborted"
    assert values(result) == {"db": ["sqlite"]}
    assert "stdin ended while a dialog was open; the ask is cancelled" in host.stderr


def test_stdin_closing_before_any_answer_cancels(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.close_stdin()
    host.request()
    result, status = host.finish()
    assert status == 1
    assert details(result)["cancelled"] is True
    assert values(result) == {}


def test_stdin_closing_right_after_the_last_answer_still_submits(rpc_host: Start) -> None:
    host = rpc_host(PAYLOAD)
    host.choose(host.request(), 0)
    last = host.request()
    host.choose(last, 0)
    host.close_stdin()
    result, status = host.finish()
    assert status == 0
    assert values(result) == {"db": ["pg"], "fw": ["react"]}


def test_an_abort_gives_up_the_open_dialog_and_late_answers_change_nothing() -> None:
    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    abort = threading.Event()
    stderr = io.StringIO()
    box: list[ToolResult] = []
    with (
        os.fdopen(stdin_r, "r", encoding="utf-8") as stdin,
        os.fdopen(stdout_w, "w", encoding="utf-8") as stdout,
        os.fdopen(stdout_r, "rb") as requests,
        os.fdopen(stdin_w, "wb", buffering=0) as responses,
    ):
        flow = threading.Thread(
            target=lambda: box.append(
                build_result(
                    run_rpc(
                        new_state(loaded.payload),
                        stdin=stdin,
                        stdout=stdout,
                        stderr=stderr,
                        abort=abort,
                    )
                )
            )
        )
        flow.start()
        first = json.loads(requests.readline())
        abort.set()
        flow.join(10)
        assert not flow.is_alive()
        before = box[0].to_json()
        late = {"type": "extension_ui_response", "id": first["id"], "value": "2. SQLite"}
        responses.write(json.dumps(late).encode() + b"\n")
        responses.close()
        # The reader reads the late line, then the end of input, and stops: only now has the
        # late line certainly been seen.
        for reader in [t for t in threading.enumerate() if t.name == "pi-ask rpc stdin"]:
            reader.join(60)
            assert not reader.is_alive()
        assert box[0].details.cancelled is True
        assert box[0].details.answers == {}
        assert box[0].to_json() == before
    assert stderr.getvalue() == ""  # nothing noted about a line that came after the end


def test_in_memory_streams_work_too() -> None:
    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    stdout = io.StringIO()
    stderr = io.StringIO()
    result = build_result(
        run_rpc(
            new_state(loaded.payload), stdin=io.StringIO("nope\n"), stdout=stdout, stderr=stderr
        )
    )
    assert result.details.cancelled is True
    request = json.loads(stdout.getvalue())
    assert request["method"] == "select"
    assert stdout.getvalue().endswith("}\n")
    assert "stdin line 1 ignored: not JSON" in stderr.getvalue()
