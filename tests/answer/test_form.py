from __future__ import annotations

import json
import sys

import pytest

from pi_ask.answer.extraction import ExtractorUnavailable
from pi_ask.answer.form import NO_MODEL, extract_form
from pi_ask.answer.model_extractor import INSTALL_HINT
from pi_ask.answer.source import AssistantMessage
from pi_ask.config.settings import AnswerSettings, ModelEntry
from pi_ask.install_hint import extra_command
from tests.answer.chat_server import Reply, chat_server

MESSAGE = AssistantMessage("Should I use tabs or spaces?")
OFFLINE_IDS = ["tabs_spaces"]


def _ids(form: dict[str, object]) -> list[str]:
    questions = form["questions"]
    assert isinstance(questions, list)
    return [q["id"] for q in questions]


def _model(url: str) -> ModelEntry:
    return ModelEntry("local", "m", base_url=url, api_key_env="PI_ASK_TEST_KEY")


def test_offline_never_calls_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_TEST_KEY", "k")
    with chat_server() as server:
        settings = AnswerSettings("offline", (_model(server.url),))
        assert _ids(extract_form(MESSAGE, settings, notify=print)) == OFFLINE_IDS
    assert server.requests == []


def test_auto_without_a_key_is_offline_and_model_without_one_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PI_ASK_TEST_KEY", raising=False)
    entries = (_model("http://127.0.0.1:9/v1"),)
    assert _ids(extract_form(MESSAGE, AnswerSettings("auto", entries), notify=print)) == OFFLINE_IDS
    with pytest.raises(ExtractorUnavailable, match="No available extraction model"):
        extract_form(MESSAGE, AnswerSettings("model", entries), notify=print)
    assert NO_MODEL.startswith("No available extraction model.")


def test_a_model_form_is_used_when_the_key_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_TEST_KEY", "k")
    form = {"questions": [{"id": "m", "prompt": "M?", "options": [{"value": "a", "label": "A"}]}]}
    notes: list[str] = []
    with chat_server(Reply(arguments=(json.dumps(form),))) as server:
        got = extract_form(
            MESSAGE, AnswerSettings("auto", (_model(server.url),)), notify=notes.append
        )
    assert got == form
    assert notes == ["Extracting questions using local/m..."]


def test_without_the_openai_package_auto_falls_back_and_model_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PI_ASK_TEST_KEY", "k")
    monkeypatch.setitem(sys.modules, "openai", None)
    entries = (_model("http://127.0.0.1:9/v1"),)
    notes: list[str] = []
    assert (
        _ids(extract_form(MESSAGE, AnswerSettings("auto", entries), notify=notes.append))
        == OFFLINE_IDS
    )
    hint = INSTALL_HINT.format(command=extra_command("llm"))
    assert notes == [f"{hint} Using the offline extractor."]
    with pytest.raises(ExtractorUnavailable) as refused:
        extract_form(MESSAGE, AnswerSettings("model", entries), notify=notes.append)
    assert "uv sync --extra llm" in str(refused.value)  # this clone's own command
