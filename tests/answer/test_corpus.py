"""The ``pi-ask answer`` corpus through the extractors, with the accuracy asserted."""

from __future__ import annotations

import json
import re

import pytest

from pi_ask.answer.model_extractor import ModelRun, extract_with_model
from pi_ask.answer.offline_extractor import extract_offline
from pi_ask.answer.providers import Endpoint
from pi_ask.contract.loading import LoadedPayload, load_payload
from tests.answer.chat_server import Reply, chat_server
from tests.answer.corpus import CORPUS, Case, differences, fold, invented, load_corpus, score

CASES = load_corpus()
REQUIRED_ACCURACY = 0.90


def test_the_corpus_is_large_and_varied() -> None:
    assert len(CASES) >= 60
    assert len({case.id for case in CASES}) == len(CASES)
    asked = [case for case in CASES if case.questions]
    assert len(CASES) - len(asked) >= 5  # messages that ask nothing
    assert sum(len(case.questions) > 1 for case in CASES) >= 10
    assert any(q.multi for case in CASES for q in case.questions)
    assert any(q.options == ("Yes", "No") for case in CASES for q in case.questions)
    assert any(not q.options for case in CASES for q in case.questions)


QUOTED = "quoted_in_issues"
_THREAD = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/\d+")


def test_real_agents_messages_name_the_thread_they_were_quoted_in() -> None:
    """Messages collected from public threads, not written from the extractor's rules."""
    quoted = [case for case in CASES if case.file == QUOTED]
    assert len(quoted) >= 20
    assert all(_THREAD.fullmatch(case.source) for case in quoted), [
        case.name for case in quoted if not _THREAD.fullmatch(case.source)
    ]
    assert sum(bool(case.questions) for case in quoted) >= 12
    # A source elsewhere is a URL too, never a note.
    assert all(_THREAD.fullmatch(case.source) for case in CASES if case.source)


def test_the_offline_extractor_reads_the_corpus_as_a_person_does() -> None:
    right, report = score(extract_offline)
    assert right / len(CASES) >= REQUIRED_ACCURACY, "\n".join(report)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_no_option_is_invented(case: Case) -> None:
    assert invented(case, extract_offline(case.message)) == []


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_form_is_valid_and_labelled_in_its_own_words(case: Case) -> None:
    form = extract_offline(case.message)
    if not form["questions"]:
        return
    assert isinstance(load_payload(form, allow_freeform=True), LoadedPayload)
    labels = [question["label"] for question in form["questions"]]
    for label in labels:
        assert not re.fullmatch(r"(?i)q?\d+|question \d+", label), label
        words = set(re.findall(r"[a-z0-9]+", fold(label)))
        assert words <= set(re.findall(r"[a-z0-9]+", fold(case.message))) | {"answer", "or"}, label


def test_the_scorer_tells_a_wrong_form_from_a_right_one() -> None:
    case = next(c for c in CASES if c.name == "four-setup-questions")
    right = extract_offline(case.message)
    assert differences(case, right) == []
    dropped = {"questions": right["questions"][:3]}
    assert differences(case, dropped) == ["3 questions, expected 4"]
    relabelled = json.loads(json.dumps(right))
    relabelled["questions"][1]["options"][0]["label"] = "Postgres"
    assert differences(case, relabelled) == [
        "q2 options ['Postgres', 'SQLite', 'MySQL'], expected ['PostgreSQL', 'SQLite', 'MySQL']"
    ]
    # Emphasis, case and surrounding punctuation do not count.
    emphasised = json.loads(json.dumps(right))
    emphasised["questions"][0]["prompt"] = "**what language should the CLI be written in**"
    assert differences(case, emphasised) == []


def test_the_model_extractor_is_scored_the_same_way() -> None:
    """A loopback model that answers with the offline forms scores what offline scores."""
    replies = [Reply(arguments=(json.dumps(extract_offline(case.message)),)) for case in CASES]
    with chat_server(*replies) as server:
        run = ModelRun(Endpoint("test", "test-model", server.url, "sk-test"), 5000, 0)

        def through_model(text: str) -> dict[str, object]:
            return extract_with_model(text, None, run, notify=lambda _note: None)

        assert score(through_model) == score(extract_offline)
        assert len(server.requests) == len(CASES)
        assert server.user_messages()[0].find(CASES[0].message.strip()[:40]) >= 0


def test_the_docs_give_the_corpus_size_and_the_bar() -> None:
    page = (CORPUS.parents[2] / "docs" / "answer.md").read_text(encoding="utf-8")
    assert f"holds {len(CASES)} assistant messages" in page
    assert f"at least {REQUIRED_ACCURACY:.0%} of them exactly right" in page
