"""The input pre-filter: focus reports and OSC replies never reach the key parser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.keys import Keys

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.terminal_reports import (
    DISABLE_FOCUS_REPORTS,
    ENABLE_FOCUS_REPORTS,
    FOCUS_IN,
    FOCUS_OUT,
    PASTE_END,
    PASTE_START,
    TerminalReports,
    terminal_reports,
)
from tests.faces.tui.driver import Driver, run, state_for


def _filter() -> tuple[TerminalReports, list[object]]:
    reports = TerminalReports()
    seen: list[object] = []
    reports.on_focus(lambda focused: seen.append(("focus", focused)))
    reports.on_osc(11, lambda body: seen.append(("osc11", body)))
    return reports, seen


def test_focus_reports_are_taken_out_and_reported_in_order() -> None:
    reports, seen = _filter()
    assert reports.feed(f"a{FOCUS_IN}b{FOCUS_OUT}c") == "abc"
    assert seen == [("focus", True), ("focus", False)]
    assert reports.focused is False


def test_a_report_split_over_reads_is_still_taken_out() -> None:
    reports, seen = _filter()
    assert reports.feed("x\x1b") == "x"
    assert reports.feed("[") == ""
    assert reports.feed("Iy") == "y"
    assert seen == [("focus", True)]


def test_a_lone_escape_is_held_until_flush_then_is_a_key() -> None:
    reports, seen = _filter()
    assert reports.feed("\x1b") == ""
    assert reports.flush() == "\x1b"
    assert reports.flush() == ""
    assert seen == []


def test_other_escape_sequences_pass_through_unchanged() -> None:
    reports, seen = _filter()
    keys = "\x1b[A\x1b[1;5C\x1bx\x1b[200~paste\x1b[201~\x1bOP"
    assert reports.feed(keys) + reports.flush() == keys
    assert seen == []


def test_osc_replies_end_with_bel_or_st_and_may_arrive_in_pieces() -> None:
    reports, seen = _filter()
    assert reports.feed("\x1b]11;rgb:1e1e/1e1e/2e2e\x07k") == "k"
    assert reports.feed("\x1b]11;rgb:ff") == ""
    assert reports.feed("ff/ffff/ffff\x1b") == ""
    assert reports.feed("\\z") == "z"
    assert seen == [("osc11", "rgb:1e1e/1e1e/2e2e"), ("osc11", "rgb:ffff/ffff/ffff")]


def test_a_reply_nobody_asked_for_is_still_not_a_key() -> None:
    reports, seen = _filter()
    assert reports.feed("\x1b]10;rgb:0/0/0\x07ok") == "ok"
    assert seen == []


def test_pasted_text_passes_untouched_whatever_it_holds() -> None:
    reports, seen = _filter()
    pasted = "\x1b[200~note \x1b]11;rgb:0/0/0\x07 \x1b[I\x1b[201~"
    assert (
        reports.feed(pasted[:9]) + reports.feed(pasted[9:-3]) + reports.feed(pasted[-3:] + FOCUS_IN)
        == pasted
    )
    assert seen == [("focus", True)]  # only the report after the paste


def test_an_unsubscribed_callback_hears_nothing_more() -> None:
    reports = TerminalReports()
    heard: list[bool] = []
    stop = reports.on_focus(heard.append)
    reports.feed(FOCUS_IN)
    stop()
    reports.feed(FOCUS_OUT)
    assert heard == [True]


def test_a_failing_subscriber_does_not_break_the_keyboard() -> None:
    reports = TerminalReports()

    def broken(_focused: bool) -> None:
        raise RuntimeError("boom")

    reports.on_focus(broken)
    assert reports.feed(f"{FOCUS_IN}q") == "q"


def test_pasted_text_is_the_users_whatever_it_holds() -> None:
    reports, seen = _filter()
    pasted = f"{PASTE_START}note\x1b]52;c;aGk=\x07{FOCUS_IN}\x1b]11;rgb:0/0/0\x07{PASTE_END}"
    assert reports.feed(pasted + FOCUS_OUT) + reports.flush() == pasted
    assert seen == [("focus", False)]


def test_paste_markers_split_over_reads_are_still_seen() -> None:
    pasted = f"{PASTE_START}a\x1b]52;c;x\x07b{PASTE_END}{FOCUS_IN}"
    for cut in range(1, len(pasted)):
        reports, seen = _filter()
        out = reports.feed(pasted[:cut]) + reports.feed(pasted[cut:]) + reports.flush()
        assert (out, seen) == (pasted[: -len(FOCUS_IN)], [("focus", True)]), cut


_PIECES = st.sampled_from(
    [
        *("\x1b", "[", "]", "I", "O", "1", "11", ";", "rgb:0/0/0", "\x07", "\\", "a"),
        *(PASTE_START, PASTE_END, "200~", "201~", "2", "0"),
    ]
)


@settings(max_examples=300)
@given(st.lists(_PIECES, max_size=30), st.data())
def test_how_the_input_is_split_into_reads_never_changes_the_outcome(
    pieces: list[str], data: st.DataObject
) -> None:
    text = "".join(pieces)
    whole, whole_seen = _filter()
    expected = whole.feed(text) + whole.flush()
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=6)))
    split, split_seen = _filter()
    got = ""
    for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
        got += split.feed(text[start:end])
    got += split.flush()
    assert (got, split_seen) == (expected, whole_seen)


@settings(max_examples=200)
@given(st.text(alphabet=st.characters(blacklist_characters="\x1b")))
def test_text_without_escape_passes_untouched(text: str) -> None:
    reports = TerminalReports()
    assert reports.feed(text) == text
    assert reports.flush() == ""


def test_installed_on_a_pipe_input_the_parser_sees_no_focus_keys() -> None:
    with create_pipe_input() as pipe:
        reports = terminal_reports(pipe)
        assert reports is not None
        assert terminal_reports(pipe) is reports  # one filter per input, shared
        pipe.send_text(f"{FOCUS_IN}\x1b[A{FOCUS_OUT}")
        keys = pipe.read_keys() + pipe.flush_keys()
    assert [key.key for key in keys] == [Keys.Up]
    assert reports.focused is False


def test_a_paste_read_through_the_parser_keeps_everything_it_holds() -> None:
    pasted = "Note\x1b[2J\x1b]52;c;aGk=\x07\u202e"
    with create_pipe_input() as pipe:
        terminal_reports(pipe)
        pipe.send_text(f"x\x1b[200~{pasted}\x1b[201~{FOCUS_IN}")
        keys = pipe.read_keys() + pipe.flush_keys()
    assert [(key.key, key.data) for key in keys] == [("x", "x"), (Keys.BracketedPaste, pasted)]


def test_a_paste_reaches_the_parser_whole_through_the_filter() -> None:
    pasted = "note\x1b]52;c;aGk=\x07\x1b[I end"
    with create_pipe_input() as pipe:
        keys: list[object] = []
        terminal_reports(pipe)
        parser = pipe.vt100_parser
        parser.feed_key_callback = keys.append
        parser.feed(f"{PASTE_START}{pasted}{PASTE_END}")
    [paste] = keys
    assert (paste.key, paste.data) == (Keys.BracketedPaste, pasted)  # type: ignore[attr-defined]


def test_without_the_filter_prompt_toolkit_reads_a_focus_report_as_escape() -> None:
    # Why the filter exists: prompt_toolkit 3.0's parser turns ESC [ I into Escape, "[", "I".
    keys: list[object] = []
    parser = Vt100Parser(keys.append)
    parser.feed(FOCUS_IN)
    parser.flush()
    assert Keys.Escape in [key.key for key in keys]  # type: ignore[attr-defined]


def test_the_flow_turns_focus_reports_on_and_off_and_a_report_cancels_nothing(
    store: SettingsStore,
) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.until(lambda: ENABLE_FOCUS_REPORTS in "".join(driver.stream.written))
        reports = driver.flow.reports
        assert reports is not None
        driver.pipe.send_text(FOCUS_OUT + FOCUS_IN)
        await driver.until(lambda: reports.focused is True)
        await driver.press("enter")  # answers the first question: the flow goes on
        driver.pipe.send_text(FOCUS_OUT)
        await driver.until(lambda: reports.focused is False)
        assert not driver.task.done()  # type: ignore[union-attr]
        assert "Features" in "\n".join(driver.lines())
        assert driver.flow.state.tab == 1
        await driver.close()
        written = "".join(driver.stream.written)
        assert written.rindex(DISABLE_FOCUS_REPORTS) > written.index(ENABLE_FOCUS_REPORTS)

    run(scenario())


def test_a_lone_escape_still_cancels_through_the_filter(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("esc")
        result = await driver.result()
        assert result.details.cancelled is True
        await driver.close()

    run(scenario())
