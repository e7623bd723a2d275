"""``pi_ask.api``: the Python face, and signals ending an RPC flow."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pi_ask.api import ask_user

FIXTURES = Path(__file__).parent / "fixtures" / "payloads"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))


def test_ask_user_without_a_terminal_returns_the_pending_questions() -> None:
    payload = json.loads((FIXTURES / "basic.json").read_text(encoding="utf-8"))
    result = ask_user(payload, ui="none")
    assert result.details.cancelled is True
    assert result.text.startswith("Needs user input")
    assert [q.id for q in result.details.questions] == [q["id"] for q in payload["questions"]]


def test_ask_user_reports_an_invalid_payload_as_a_result() -> None:
    result = ask_user('{"questions": []}', ui="none")
    assert result.details.error_issues is not None
    assert (
        result.text == "Invalid ask_user payload:\n- questions: At least one question is required"
    )


def test_ask_user_warns_once_about_unknown_fields() -> None:
    payload = json.loads((FIXTURES / "basic.json").read_text(encoding="utf-8"))
    payload["questions"][0]["colour"] = "red"
    with pytest.warns(
        UserWarning, match=r"unknown payload fields, ignored: questions\[0\]\.colour"
    ):
        result = ask_user(payload, ui="none")
    assert result.details.reason == "no_terminal"


def test_ask_user_refuses_a_typo_of_a_field_name() -> None:
    payload = json.loads((FIXTURES / "basic.json").read_text(encoding="utf-8"))
    payload["questions"][0].pop("type", None)
    payload["questions"][0]["tpye"] = "multi"
    result = ask_user(payload, ui="none")
    assert result.details.error_issues is not None
    assert 'did you mean "type"?' in result.text


def test_ask_user_title_override_is_trimmed() -> None:
    payload = (FIXTURES / "basic.json").read_text(encoding="utf-8")
    assert ask_user(payload, ui="none", title="  Other  ").details.title == "Other"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_ends_an_rpc_flow_with_a_cancelled_result(
    signum: signal.Signals, tmp_path: Path
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "pi_ask", "ask", "--ui", "rpc", str(FIXTURES / "basic.json")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    assert child.stdout is not None
    request = json.loads(child.stdout.readline())
    assert request["type"] == "extension_ui_request"
    child.send_signal(signum)
    out, _err = child.communicate(timeout=20)
    assert child.returncode == 128 + signum
    result = json.loads(out.strip().splitlines()[-1])
    assert result["details"]["cancelled"] is True
    assert result["details"]["reason"] == "aborted"
    assert result["content"][0]["text"].startswith("The ask flow was aborted")


def test_a_detached_ask_returns_its_id_and_its_result_once_answered(tmp_path: Path) -> None:
    from pi_ask import ask_result
    from pi_ask.relay.client import Session, list_pending
    from pi_ask.state.commands import Digit
    from pi_ask.state.dispatcher import apply
    from pi_ask.state.model import Behaviour

    payload = json.loads((FIXTURES / "basic.json").read_text(encoding="utf-8"))
    ask_id = ask_user(payload, detach=True)
    assert isinstance(ask_id, str)
    assert ask_result(ask_id) is None
    (info,) = list_pending()
    session = Session(info)
    session.open()
    assert session.state is not None
    assert session.send_answer(apply(session.state, Digit(1), Behaviour()), "submit")
    session.close()
    result = ask_result(ask_id, wait_s=30)
    assert result is not None and result.details.cancelled is False


def test_a_detached_ask_with_an_invalid_payload_raises_with_the_result() -> None:
    from pi_ask.api import InvalidAsk

    with pytest.raises(InvalidAsk) as raised:
        ask_user('{"questions": []}', detach=True)
    assert raised.value.result.details.error_issues is not None


def test_the_result_of_an_unknown_ask_is_an_error() -> None:
    from pi_ask import PiAskError, ask_result

    with pytest.raises(PiAskError, match="no ask"):
        ask_result("unknown-id")
