"""The plain face fed real lines through a pipe: every question type, notes, review, bad input.

Each run types its lines, then the input ends; a flow that did not finish by then ends as
aborted, which the assertions would show.
"""

from __future__ import annotations

import os
import re
import select
import threading
import time
from pathlib import Path

import pytest

from pi_ask.ask.face import FaceRequest
from pi_ask.faces.plain import flow as plain_flow
from pi_ask.faces.plain import terminal as plain_terminal
from pi_ask.faces.plain.flow import PlainFlow
from pi_ask.state.model import Answer, Selection
from pi_ask.state.selectors import is_draft_change
from tests.child_processes import wait_until
from tests.faces.plain.conftest import PAYLOAD_A, state_of

ESCAPE = re.compile(r"[\x1b\x9b]")


def test_submit_every_type_by_number(answer) -> None:
    run = answer(None, "2", "1,3", "1", "1")
    assert run.details["cancelled"] is False
    answers = run.details["answers"]
    assert answers["lang"]["values"] == ["go"]
    assert answers["features"]["values"] == ["login", "sync"]
    assert answers["layout"]["values"] == ["flat"]
    assert "✓ Language: Go" in run.output
    assert not ESCAPE.search(run.output)


def test_the_question_is_worded_not_coloured(answer) -> None:
    run = answer(None)
    assert "Question 1 of 3: Language (choose one)" in run.output
    assert "  1. Python (recommended)" in run.output
    assert "     Fastest to prototype; the team knows it" in run.output
    assert "  4. Type your own" in run.output
    # End of input aborts: cancelled, nothing assumed.
    assert run.details["cancelled"] is True


def test_chosen_options_are_marked_in_words_when_revisited(answer) -> None:
    run = answer(None, "2", "/back")
    second_showing = run.output.split("Question 1 of 3")[2]
    assert "  2. Go (chosen)" in second_showing


def test_own_answer_on_single_and_multi(answer) -> None:
    run = answer(None, "Zig", "1, 4", "Plugins", "2", "1")
    answers = run.details["answers"]
    assert answers["lang"]["customText"] == "Zig"
    assert answers["features"]["values"] == ["login", "Plugins"]
    assert answers["layout"]["values"] == ["split"]
    assert run.details["cancelled"] is False


def test_a_number_list_replaces_the_selection(answer) -> None:
    run = answer(None, "", "1,2", "/back", "3", "", "1")
    assert run.details["answers"]["features"]["values"] == ["sync"]


def test_text_on_a_multi_question_keeps_the_options(answer) -> None:
    run = answer(None, "", "1", "/back", "Offline mode", "", "1")
    assert run.details["answers"]["features"]["values"] == ["login", "Offline mode"]


def test_empty_line_keeps_the_answer_and_moves_on(answer) -> None:
    run = answer(None, "3", "/back", "", "", "", "1")
    assert run.details["answers"]["lang"]["values"] == ["rs"]
    assert "features" not in run.details["answers"]


def test_notes_and_elaborate(answer) -> None:
    run = answer(None, "/note 3 is it worth it?", "/qnote team skills matter", "1", "", "", "2")
    details = run.details
    assert details["mode"] == "elaborate"
    notes = [item["note"] for item in details["elaboration"]["items"]]
    assert notes == ["team skills matter", "is it worth it?"]
    assert (
        "Note on Rust (not sent unless you choose it or Elaborate): is it worth it?" in run.output
    )
    assert "Question note: team skills matter" in run.output


def test_review_lists_answers_and_cancel_ends_cancelled(answer) -> None:
    run = answer(None, "1", "2", "/review", "3")
    assert "Review your answers" in run.output
    assert "  Language: Python" in run.output
    assert "  Features: CSV export" in run.output
    assert "  Layout: unanswered" in run.output
    assert run.details["cancelled"] is True
    assert run.details["answers"]["lang"]["values"] == ["py"]


def test_bad_input_changes_nothing(answer) -> None:
    run = answer(None, "9", "0", "1,2", "/frobnicate", "/note 7 x", "1", "", "", "1")
    assert "There is no option 9: type a number from 1 to 4." in run.output
    assert "There is no option 0: type a number from 1 to 4." in run.output
    assert "This question takes one answer" in run.output
    assert "There is no command /frobnicate; /help lists them." in run.output
    assert "Type /note, an option number from 1 to 3, then the note." in run.output
    assert run.details["answers"] == {
        "lang": {"values": ["py"], "labels": ["Python"], "indices": [1]}
    }


def test_review_refuses_what_is_not_an_action(answer) -> None:
    run = answer(None, "/review", "4", "submit", "1")
    assert run.output.count("Type 1 to submit, 2 to ask for elaboration, 3 to cancel") == 2
    assert run.details["cancelled"] is False


def test_custom_row_number_asks_for_the_text(answer) -> None:
    run = answer(None, "4", "Zig", "", "", "1")
    assert "Type your answer (an empty line goes on without one)." in run.output
    assert run.details["answers"]["lang"]["customText"] == "Zig"


def test_a_backslash_makes_a_number_or_slash_text(answer) -> None:
    run = answer(None, "\\/opt/zig", "\\42", "", "1")
    assert run.details["answers"]["lang"]["customText"] == "/opt/zig"
    assert run.details["answers"]["features"]["customText"] == "42"


def test_skip_leaves_the_question_unanswered(answer) -> None:
    run = answer(None, "1", "1,2", "/back", "/skip", "/back", "/back", "/skip", "", "1")
    assert "lang" not in run.details["answers"]
    assert "features" not in run.details["answers"]


def test_type_change_goes_through_the_engine(answer) -> None:
    run = answer(None, "/type", "1,2", "", "", "1")
    assert "Notice: Question type changed from single to multi." in run.output
    assert run.details["answers"]["lang"]["values"] == ["py", "go"]


def test_preview_is_shown_and_cut(answer) -> None:
    lines = "\n".join(f"line {n}" for n in range(30))
    payload = {
        "questions": [
            {
                "id": "p",
                "label": "P",
                "prompt": "Pick",
                "type": "preview",
                "options": [
                    {"value": "a", "label": "A", "preview": lines},
                    {"value": "b", "label": "B", "preview": "b"},
                ],
            }
        ]
    }
    run = answer(state_of(payload), "/preview 1", "/preview 3", "1", "1")
    assert "(18 more lines: /preview 1 shows them all)" in run.output
    assert "       line 29" in run.output
    assert "Type /preview and the number of an option with one: 1, 2." in run.output


def test_freeform_question_takes_the_whole_line(answer) -> None:
    payload = {
        "questions": [
            {
                "id": "f",
                "label": "Name",
                "prompt": "Your name?",
                "options": [{"value": "x", "label": "x", "freeform": True}],
            }
        ]
    }
    run = answer(state_of(payload, freeform=True), "42", "1")
    assert run.details["answers"]["f"]["customText"] == "42"


def test_end_of_input_aborts_and_keeps_answers(answer) -> None:
    run = answer(None, "2")
    assert run.details["cancelled"] is True
    assert run.details["reason"] == "aborted"
    assert run.details["answers"]["lang"]["values"] == ["go"]


def test_a_drafts_hook_sees_every_committed_change(answer) -> None:
    run = answer(None, "2", "/note 1 hm", "1,3", "", "1")
    assert run.drafts, "no draft recorded"
    answered = [dict(s.answers) for s in run.drafts]
    assert any("lang" in a and a["lang"].selected[0].value == "go" for a in answered)
    assert run.drafts[-1].completed
    # Each draft is a real change from the one before.
    for before, after in zip(run.drafts, run.drafts[1:], strict=False):
        assert is_draft_change(before, after)


def test_the_dismiss_guard_and_cancel(answer) -> None:
    run = answer(None, "2", "/cancel", "/cancel")
    assert "Notice: Unsaved ask answers or drafts." in run.output
    assert "Press Ctrl+C or /cancel again to discard." in run.output
    assert run.details["cancelled"] is True
    assert run.details["reason"] == "cancelled"


def test_hostile_payload_text_is_inert(answer) -> None:
    payload = {
        "title": "T\x1b]0;owned\x07",
        "questions": [
            {
                "id": "q",
                "label": "L\x1b[2J",
                "prompt": "P\x9b31m\u202e",
                "options": [{"value": "a", "label": "A\x1b[31m (recommended)"}],
            }
        ],
    }
    run = answer(state_of(payload), "1", "1")
    assert not ESCAPE.search(run.output)
    assert "^[]0;owned^G" in run.output
    assert "<U+202E>" in run.output


def test_the_abort_event_ends_a_flow_waiting_for_a_line(store, open_pipe) -> None:
    abort = threading.Event()
    request = FaceRequest(store, stop=abort)
    flow = PlainFlow(state_of(PAYLOAD_A.read_text()), request, terminal=open_pipe.terminal)
    # The input stays open (no end of input): only the event, set from another thread, ends it.
    threading.Thread(target=abort.set).start()
    result = flow.run()
    assert result.details.cancelled
    assert result.to_json()["details"]["reason"] == "aborted"  # type: ignore[index]


def test_a_terminal_notification_rings_a_bell_without_escapes(store, open_pipe) -> None:
    assert store.set("notifications.channels", ["osc9"]).ok
    assert store.set("notifications.enabled", True).ok
    abort = threading.Event()
    request = FaceRequest(store, stop=abort)
    flow = PlainFlow(state_of(PAYLOAD_A.read_text()), request, terminal=open_pipe.terminal)

    def end_once_rung() -> None:
        deadline = time.monotonic() + 10  # a cap on waiting for the bell, not a delay
        while "\a" not in open_pipe.text and time.monotonic() < deadline:
            time.sleep(0.01)
        abort.set()

    threading.Thread(target=end_once_rung).start()
    flow.run()
    assert "\a" in open_pipe.text
    assert not ESCAPE.search(open_pipe.text)


def test_a_passed_deadline_ends_the_flow_with_timeout(answer) -> None:
    run = answer(None, "2", "1", deadline_ms=time.time_ns() // 1_000_000 - 1000)
    assert run.details["cancelled"] is True
    assert run.details["reason"] == "timeout"


def test_the_time_left_is_said_once_within_the_last_seconds(answer) -> None:
    run = answer(None, "2", deadline_ms=time.time_ns() // 1_000_000 + 15_000)
    said = re.findall(r"Notice: Time left to answer: (\d+) s\.", run.output)
    assert len(said) == 1 and 10 < int(said[0]) <= 15
    # The input ended before the deadline: aborted, not timed out.
    assert run.details["reason"] == "aborted"


def test_a_bridge_on_another_thread_answers_a_plain_flow(store, open_pipe) -> None:
    from pi_ask.events.bus import COMPLETED, STARTED
    from pi_ask.events.registry import shared_registry

    bus = shared_registry().bus
    seen: dict[str, object] = {}
    bridges: list[threading.Thread] = []

    def answer_from_elsewhere(started: object) -> None:
        assert isinstance(started, dict)
        request = {
            "version": 1,
            "requestId": "r1",
            "flowId": started["flowId"],
            "response": {"kind": "answer", "answers": {"lang": {"values": ["rs"]}}},
        }
        # A bridge answers from its own thread while the flow waits for a typed line.
        bridge = threading.Thread(
            target=lambda: seen.update(reply=shared_registry().submit(request))
        )
        bridges.append(bridge)
        bridge.start()

    offs = [
        bus.on(STARTED, answer_from_elsewhere),
        bus.on(COMPLETED, lambda data: seen.setdefault("completed", data)),
    ]
    try:
        request = FaceRequest(store, ask_id="call-9")
        flow = PlainFlow(state_of(PAYLOAD_A.read_text()), request, terminal=open_pipe.terminal)
        result = flow.run()
        for bridge in bridges:
            bridge.join(timeout=10)  # a cap: it ends once its reply is back
    finally:
        for off in offs:
            off()
    assert result.details.cancelled is False
    assert result.to_json()["details"]["answers"]["lang"]["values"] == ["rs"]  # type: ignore[index]
    assert flow.services.flow_id == "tool:call-9"
    assert seen["reply"] == {"version": 1, "requestId": "r1", "flowId": "tool:call-9", "ok": True}
    assert "completed" in seen


def test_a_note_of_several_lines_stays_under_its_label(answer) -> None:
    state = state_of(PAYLOAD_A.read_text())
    resumed = Answer(selected=(Selection("go", "Go", 2),), note="first\nsecond")
    run = answer(state._replace(answers=(("lang", resumed),)))
    assert "Question note: first\n               second\n" in run.output


def test_a_live_notice_is_said_when_it_changes_and_the_prompt_is_not_repeated(
    store, open_pipe
) -> None:
    abort = threading.Event()
    answers = iter(["2 more waiting", "2 more waiting", "3 more waiting"])

    def live_notice() -> str | None:
        notice = next(answers, None)
        if notice is None:
            abort.set()  # asked a fourth time: enough seen
        return notice

    request = FaceRequest(store, stop=abort, live_notice=live_notice)
    flow = PlainFlow(state_of(PAYLOAD_A.read_text()), request, terminal=open_pipe.terminal)
    flow.run()
    text = open_pipe.text
    assert text.count("Notice: 2 more waiting") == 1
    assert text.count("Notice: 3 more waiting") == 1
    # One prompt to start, one after each notice: none for the quiet ticks.
    assert text.count("answer> ") == 3


def test_attach_and_detach_a_file_in_the_plain_face(answer, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "screenshot.png").write_bytes(b"\x89PNG" + b"0" * 2_000)
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    folder = tmp_path / "state" / "attachments" / "ask"
    run = answer(
        None,
        "/attach screenshot.png",
        "/attach notes.txt",
        "/detach 2",
        "/attach ../../etc/passwd",
        "/attach",
        "1",
        "1",
        "1",
        "1",
        attachments_folder=folder,
    )
    assert "Attached screenshot.png (2.0 KB) to this answer." in run.output
    assert "Removed notes.txt (1 B) from this answer." in run.output
    assert "Not attached: ../../etc/passwd:" in run.output
    assert "Type /attach and the path of a file" in run.output
    [item] = run.details["answers"]["lang"]["attachments"]
    assert item["name"] == "screenshot.png" and item["media_type"] == "image/png"
    assert Path(item["path"]).parent == folder and Path(item["path"]).stat().st_size == 2_004
    assert "  attached: screenshot.png (2.0 KB)" in run.result.text


def test_attach_is_refused_where_the_host_cannot_carry_files(answer) -> None:
    run = answer(None, "/attach x.png")
    assert "Files cannot be attached to an ask answered from here." in run.output


def test_a_host_that_tells_is_asked_only_when_told(
    store, open_pipe, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With ``wakeups`` the face asks the live notice once to start and then only when a
    # descriptor says so, and sees the stop the same way. A face that looked every so often
    # (here: all the time) would ask again before the test tells it anything.
    monkeypatch.setattr(plain_flow, "LIVE_NOTICE_S", 0.0)
    monkeypatch.setattr(plain_terminal, "ABORT_POLL_S", 0.0)
    told_r, told_w = os.pipe()
    stop = threading.Event()
    tells_seen: list[int] = []
    told: list[bytes] = []

    def live_notice() -> str | None:
        if select.select([told_r], [], [], 0)[0]:
            told.append(os.read(told_r, 64))
        tells_seen.append(len(told))
        if len(tells_seen) == 1:
            return "2 more waiting"
        stop.set()  # told once: the ask ended elsewhere meanwhile
        return "3 more waiting"

    def tell_once_asked() -> None:
        wait_until(lambda: len(tells_seen) >= 1, "the face to ask the notice to start")
        os.write(told_w, b"!")

    teller = threading.Thread(target=tell_once_asked)
    teller.start()
    request = FaceRequest(store, stop=stop, live_notice=live_notice, wakeups=(told_r,))
    flow = PlainFlow(state_of(PAYLOAD_A.read_text()), request, terminal=open_pipe.terminal)
    try:
        flow.run()
    finally:
        teller.join()
        os.close(told_r)
        os.close(told_w)
    assert tells_seen == [0, 1]
    assert open_pipe.text.count("Notice: 3 more waiting") == 1


def test_moving_on_says_in_one_line_what_was_recorded(answer) -> None:
    run = answer(None, "2", "1,3", "", "1")
    # (A pipe echoes no typing, so each line follows its prompt.)
    said = [line.removeprefix("answer> ") for line in run.output.splitlines()]
    assert "Recorded: Go" in said
    assert "Recorded: Login, Cloud sync" in said
    # A question left without an answer records nothing, and says nothing.
    assert sum(line.startswith("Recorded:") for line in said) == 2
    # The line comes before the next question is shown.
    assert said.index("Recorded: Go") < said.index("Question 2 of 3: Features (choose any number)")
