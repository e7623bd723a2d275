"""Detached asks: kept pending with nobody waiting, answered elsewhere, fetched later."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.relay.asks import (
    CLAIM,
    FETCHED,
    KEEP_AFTER_FETCH_S,
    KEEP_AT_MOST_S,
    SUMMARY,
    AskFolder,
    now_ms,
    write_file,
)
from pi_ask.relay.client import AskGone, Session, list_pending
from pi_ask.relay.elsewhere import UnknownAsk, fetch_result, start_detached, sweep
from pi_ask.relay.paths import NoPrivateFolder, asks_dir
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.inbox.conftest import PAYLOAD


def _loaded() -> LoadedPayload:
    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    return loaded


def _answer(ask_id: str) -> None:
    """What an attach does: open the ask, choose the second option, submit."""
    (info,) = [info for info in list_pending() if info.ask_id == ask_id]
    session = Session(info)
    session.open()
    try:
        assert session.state is not None
        assert session.send_answer(apply(session.state, Digit(2), Behaviour()), "submit")
    finally:
        session.close()


def test_a_detached_ask_is_listed_answered_and_fetched_once_kept(runtime: Path) -> None:
    start_detached(_loaded(), "ask-d1", tmux="off")
    (info,) = list_pending()
    assert info.ask_id == "ask-d1" and info.detached and info.socket is None
    assert info.to_json()["detached"] is True
    assert fetch_result("ask-d1") is None  # pending
    _answer("ask-d1")
    assert list_pending() == []  # answered: no longer offered
    fetched = fetch_result("ask-d1")
    assert fetched is not None and fetched.first
    db = fetched.result.details.answer("db")
    assert db is not None and db.values == ("sqlite",)
    again = fetch_result("ask-d1")
    assert again is not None and not again.first and again.result == fetched.result
    assert AskFolder(asks_dir() / "ask-d1").exists()  # kept for a day after the first fetch


def test_a_wait_for_the_result_is_woken_by_the_answer(runtime: Path) -> None:
    start_detached(_loaded(), "ask-d2", tmux="off")
    answered = threading.Thread(target=_answer, args=("ask-d2",))
    box: list[object] = []
    waiting = threading.Thread(target=lambda: box.append(fetch_result("ask-d2", wait_s=60)))
    waiting.start()
    answered.start()
    answered.join(30)
    waiting.join(30)  # a cap: the answer wakes it long before
    assert not waiting.is_alive()
    assert box and box[0] is not None


def test_a_passed_deadline_ends_a_detached_ask_when_it_is_read(runtime: Path) -> None:
    start_detached(_loaded(), "ask-d3", tmux="off", timeout_s=0.001)
    fetched = fetch_result("ask-d3", wait_s=5)
    assert fetched is not None
    assert fetched.result.details.reason == "timeout"
    assert fetched.result.details.answers == {}
    assert AskFolder(asks_dir() / "ask-d3").is_claimed()  # nobody can answer it after that


def test_an_unknown_or_malformed_id_is_refused(runtime: Path) -> None:
    for wanted in ("nope", "../../etc", "", "x" * 200):
        with pytest.raises(UnknownAsk):
            fetch_result(wanted)


def test_a_claim_that_is_no_answer_is_dropped_and_the_ask_stays_answerable(
    runtime: Path,
) -> None:
    start_detached(_loaded(), "ask-d4", tmux="off")
    folder = AskFolder(asks_dir() / "ask-d4")
    write_file(folder.path / ".forged", b'{"outcome": "approve-all"}')
    os.link(folder.path / ".forged", folder.path / CLAIM)
    assert fetch_result("ask-d4") is None
    assert not folder.is_claimed()
    _answer("ask-d4")
    assert fetch_result("ask-d4") is not None


def test_a_fetched_ask_is_removed_a_day_later(runtime: Path) -> None:
    start_detached(_loaded(), "ask-d5", tmux="off")
    _answer("ask-d5")
    assert fetch_result("ask-d5") is not None
    folder = AskFolder(asks_dir() / "ask-d5")
    sweep(asks_dir())
    assert folder.exists()
    long_ago = os.path.getmtime(folder.path / FETCHED) - KEEP_AFTER_FETCH_S - 60
    os.utime(folder.path / FETCHED, (long_ago, long_ago))
    sweep(asks_dir())
    assert not folder.exists()
    with pytest.raises(UnknownAsk):
        fetch_result("ask-d5")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_starting_detached_asks_holds_no_descriptor(runtime: Path) -> None:
    # An agent's process may start hundreds: each once kept a watch and a pipe open.
    start_detached(_loaded(), "warm-up", tmux="off")
    before = set(os.listdir("/proc/self/fd"))
    for number in range(40):
        start_detached(_loaded(), f"ask-{number}", tmux="off")
    # No descriptor opened here is left open. (Not a count: what earlier tests of this
    # process left behind, an attach thread or a pipe the collector finalizes, may close
    # meanwhile; seen twice.)
    assert set(os.listdir("/proc/self/fd")) <= before
    assert len(list_pending()) == 41


def _past(deadline_ms: int) -> None:
    """Until the clock has passed ``deadline_ms`` (a wait for a condition on the clock)."""
    while now_ms() <= deadline_ms:
        time.sleep(0.001)


def test_a_listing_ends_a_detached_ask_past_its_deadline(runtime: Path) -> None:
    start_detached(_loaded(), "ask-d6", tmux="off", timeout_s=0.05)
    (info,) = list_pending()
    assert info.deadline_ms is not None
    _past(info.deadline_ms)
    assert list_pending() == []  # never offered to a terminal past its deadline
    folder = AskFolder(asks_dir() / "ask-d6")
    assert folder.claim() == {"outcome": "timeout"}  # nobody can answer it now
    with pytest.raises(AskGone, match="timed out"):
        Session(info).open()  # a terminal that listed it just before
    fetched = fetch_result("ask-d6")
    assert fetched is not None and fetched.result.details.reason == "timeout"


def _created_days_ago(folder: AskFolder, days: float) -> None:
    summary = json.loads((folder.path / SUMMARY).read_text(encoding="utf-8"))
    summary["createdAt"] = now_ms() - int(days * 24 * 3600 * 1000)
    write_file(folder.path / SUMMARY, json.dumps(summary).encode())


@pytest.mark.parametrize("answered", [False, True], ids=["pending", "answered, never fetched"])
def test_a_detached_ask_is_kept_seven_days_at_most(runtime: Path, answered: bool) -> None:
    start_detached(_loaded(), "ask-d7", tmux="off")
    if answered:
        _answer("ask-d7")
    folder = AskFolder(asks_dir() / "ask-d7")
    _created_days_ago(folder, KEEP_AT_MOST_S / 86400 - 0.5)
    sweep(asks_dir())
    assert folder.exists()  # six and a half days: still kept
    _created_days_ago(folder, KEEP_AT_MOST_S / 86400 + 0.5)
    sweep(asks_dir())
    assert not folder.exists()
    with pytest.raises(UnknownAsk):
        fetch_result("ask-d7")


@pytest.mark.parametrize("wait", [True, False], ids=["waits", "does not wait"])
def test_a_detached_ask_without_a_folder_for_sockets(runtime: Path, wait: bool) -> None:
    runtime.mkdir(mode=0o755, parents=True)
    runtime.chmod(0o755)  # open to others: unfit for sockets
    folder = AskFolder(asks_dir() / "ask-d8")
    if wait:
        # Nobody can be told, but it is published all the same and waits for an attach.
        assert start_detached(_loaded(), "ask-d8", tmux="off") is None
        assert folder.summary() is not None
    else:
        with pytest.raises(NoPrivateFolder, match="open to others"):
            start_detached(_loaded(), "ask-d8", tmux="off", wait=False)
        assert not folder.exists()  # nothing left behind
