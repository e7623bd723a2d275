"""The TUI in a real terminal (tmux): its glyph widths, and frames at awkward sizes."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_ask.faces.tui import glyphs
from tests.e2e.conftest import PAYLOAD_A
from tests.e2e.terminal import child_env, pi_ask_command
from tests.e2e.tmux import HAVE_TMUX, Tmux
from tests.faces.tui.sweep import check_boxes

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed"),
]


@pytest.fixture
def panes() -> Iterator[list[Tmux]]:
    started: list[Tmux] = []
    yield started
    for pane in started:
        pane.close()


def test_every_glyph_takes_one_cell_in_tmux(panes: list[Tmux]) -> None:
    drawn = "".join(glyphs.ALL)
    command = f"printf '%s' {shlex.quote(drawn + 'END')}; exec cat"
    pane = Tmux(command, width=80, height=5, env={"LANG": "C.UTF-8"})
    panes.append(pane)
    pane.wait_for("END")
    assert pane.cursor_x() == len(glyphs.ALL) + len("END")
    assert pane.lines()[0] == drawn + "END"


@pytest.fixture
def ask_in_tmux(tmp_path: Path, panes: list[Tmux]) -> Callable[..., Tmux]:
    """``pi-ask ask PAYLOAD > stdout.json`` in a tmux pane of the given size."""

    def start(payload: Path, width: int, height: int) -> Tmux:
        command = " ".join(shlex.quote(part) for part in [*pi_ask_command(), "ask", str(payload)])
        env = child_env(tmp_path / "config.toml", tmp_path / "state", TERM="screen")
        env = {key: env[key] for key in ("PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "TERM", "PATH")}
        env["LANG"] = "C.UTF-8"
        pane = Tmux(
            f"{command} > {shlex.quote(str(tmp_path / 'stdout.json'))}",
            width=width,
            height=height,
            env=env,
            cwd=tmp_path,
        )
        panes.append(pane)
        return pane

    return start


def test_the_tab_row_is_measured_as_tmux_draws_it(ask_in_tmux: Callable[..., Tmux]) -> None:
    pane = ask_in_tmux(PAYLOAD_A, 80, 24)
    pane.wait_for("Review  →")
    lines = pane.lines()
    assert lines[0] == "─" * 80
    assert " ←  ☐ Language   ☐ Features   ☐ Layout   ≡ Review  →" in lines


def _frame_done(pane: Tmux, *texts: str) -> Callable[[], bool]:
    """``texts`` are on a whole frame (first rule to last) that two captures agree on."""
    last: list[list[str]] = []

    def done() -> bool:
        lines = [line for line in pane.lines() if line]
        settled = last == [lines]
        last[:] = [lines]
        return (
            settled
            and bool(lines)
            and all(text in "\n".join(lines) for text in texts)
            and lines[0].startswith(glyphs.RULE)
            and lines[-1].lstrip().startswith((glyphs.RULE, glyphs.ROUND_BOTTOM_LEFT))
        )

    return done


def _assert_whole(pane: Tmux, width: int, height: int) -> None:
    """As tmux draws it: rules the terminal's width, boxes closed and aligned, hints shown."""
    lines = pane.lines()
    shown = "\n".join(lines)
    drawn = [line for line in lines if line]
    assert len(lines) <= height + 1, shown  # capture-pane ends with the last newline
    assert drawn[0].startswith(glyphs.RULE) and len(drawn[0]) == width, shown
    assert all(len(line) <= width for line in lines), shown
    check_boxes(lines, glyphs.BOX_TOP_LEFT, glyphs.BOX_BOTTOM_LEFT)
    check_boxes(lines, glyphs.ROUND_TOP_LEFT, glyphs.ROUND_BOTTOM_LEFT)
    assert "settings" in shown, shown  # the footer's last hint (or the overlay's title)


@pytest.mark.parametrize(("width", "height"), [(40, 10), (60, 16), (80, 24), (100, 30), (200, 50)])
def test_every_screen_is_whole_in_tmux(
    ask_in_tmux: Callable[..., Tmux], width: int, height: int
) -> None:
    pane = ask_in_tmux(PAYLOAD_A, width, height)
    steps: list[tuple[tuple[str, ...], str, ...]] = [
        ((), "1. Python"),
        (("right",), "[ ] Login"),
        (("right",), "Single file"),
        (("pageDown",), "Single file"),
        (("down", "down"), "Type answer..."),
        (("esc",), "question type"),  # the editor closed (a lone Esc, then the next key)
        (("right",), "1. Submit"),
        (("?",), "pi-ask settings", "to close", glyphs.ROUND_BOTTOM_LEFT),
    ]
    for keys, *texts in steps:
        pane.press(*keys)
        pane.wait(_frame_done(pane, *texts))
        _assert_whole(pane, width, height)


def test_the_review_of_twelve_pages_in_tmux(
    ask_in_tmux: Callable[..., Tmux], tmp_path: Path
) -> None:
    payload = tmp_path / "twelve.json"
    questions = [
        {
            "id": f"q{n}",
            "label": f"Q{n}",
            "prompt": f"Question {n}?",
            "options": [{"value": "a", "label": f"Answer {n}"}, {"value": "b", "label": "B"}],
        }
        for n in range(1, 13)
    ]
    payload.write_text(json.dumps({"questions": questions}), encoding="utf-8")
    pane = ask_in_tmux(payload, 60, 16)
    pane.wait(_frame_done(pane, "Question 1?"))
    pane.press(*["1"] * 12)
    pane.wait(_frame_done(pane, "1. Submit"))
    assert "Answer 12" not in pane.text()
    pane.press("end")
    pane.wait(_frame_done(pane, "Answer 12"))
    _assert_whole(pane, 60, 16)
    assert "❯ 1. Submit" in pane.text() and "Press 1, 2, or 3" in pane.text()
    pane.press("home")
    pane.wait(_frame_done(pane, "Review answers"))
    _assert_whole(pane, 60, 16)
