"""A size sweep: drive a flow headless at one terminal size until everything has been shown.

The flow is a real ``AskFlow``; its screen is what prompt_toolkit would be handed
(``FlowCanvas.frame``), without running the application, so a whole sweep of sizes costs
milliseconds a size. The keys are the flow's own actions (the methods the key bindings
call): the cursor keys move through every row, Home goes to the top, PgDn runs until the
screen stops changing. Every frame is checked as it is drawn: it fits, its rules and boxes
are whole, its hints show. What must be reachable is named by tokens: payload words of
the form ``t0001`` that each occur once, so a token on screen proves its line was shown
and not cut.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from pi_ask.ask.face import FaceRequest
from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.flow import AskFlow
from pi_ask.faces.tui.styled_text import Line, line_width, lines_text
from pi_ask.state.commands import Command
from pi_ask.state.model import AskState
from pi_ask.state.selectors import current_question, question_rows

TOKEN = re.compile(r"\bt\d{4}\b")
_PAGE_LIMIT = 400


def tokens(text: str) -> set[str]:
    return set(TOKEN.findall(text))


class Tokens:
    """Hands out unique tokens: ``words(3)`` is ``'t0001 t0002 t0003'``."""

    def __init__(self) -> None:
        self.count = 0

    def words(self, n: int) -> str:
        out = []
        for _ in range(n):
            self.count += 1
            out.append(f"t{self.count:04d}")
        return " ".join(out)


@dataclass
class Screen:
    """A flow at ``width`` x ``height`` and everything drawn on it so far."""

    flow: AskFlow
    width: int
    height: int
    seen: set[str] = field(default_factory=set)
    frames: int = 0
    hints: tuple[str, ...] = ("? settings",)

    def lines(self) -> list[str]:
        frame = self.flow.canvas.frame(self.width, self.height)
        styled = frame.lines
        texts = lines_text(styled)
        check_frame(texts, [line_width(line) for line in styled], self)
        if self.flow.panel is not None:
            overlay = lines_text(self.flow.canvas.render_overlay(*self.overlay_size()))
            check_overlay(overlay, self)
            texts = texts + overlay
        self.frames += 1
        self.seen |= tokens("\n".join(texts)) | tokens(editor_text(styled))
        return texts

    def overlay_size(self) -> tuple[int, int]:
        width = self.flow.canvas.overlay_width()
        return width, self.flow.canvas.overlay_height()

    # --- keys, as the bindings call them ------------------------------------------------------

    def send(self, command: Command) -> None:
        self.flow.dispatch(command)
        self.lines()

    def page_through(self) -> None:
        """PgDn until nothing changes; then Home (Ctrl+Home in an editor) and again."""
        self.page_down()
        self.flow.scroll_to_edge(bottom=False)
        self.page_down()

    def page_down(self) -> None:
        before = self.lines()
        for _ in range(_PAGE_LIMIT):
            self.flow.page(1)
            after = self.lines()
            if after == before:
                return
            before = after
        raise AssertionError("PgDn never reached the end")

    def explore(self) -> None:
        """Every cursor row of the active tab, each paged through from the top."""
        from pi_ask.state.commands import MoveOption

        question = current_question(self.flow.state)
        rows = len(question_rows(question)) if question is not None else 1
        for index in range(rows):
            if index:
                self.send(MoveOption(1))
            self.page_through()


def editor_text(lines: tuple[Line, ...]) -> str:
    """The text of the editor bars on screen, rows joined (an editor wraps by characters)."""
    rows = []
    for line in lines:
        bar = "".join(text for style, text in line if theme.SELECTED_BG in style)
        if bar:
            rows.append(bar[1:-1])  # a bar has one space of padding each side
    return "".join(rows)


def check_frame(texts: list[str], widths: list[int], screen: Screen) -> None:
    """One frame: it fits, its rules are whole, the cursor and the hints show."""
    shown = "\n".join(texts)
    width, height = screen.width, screen.height
    assert 1 <= len(texts) <= height, shown
    assert all(w <= width for w in widths), shown
    assert texts[0].startswith(glyphs.RULE) and widths[0] == width, shown
    assert texts[-1].startswith(glyphs.RULE) and widths[-1] == width, shown
    assert glyphs.POINTER in shown, f"no cursor row:\n{shown}"
    for hint in screen.hints:
        assert hint in shown, f"{hint!r} is not on the screen:\n{shown}"
    check_boxes(texts, glyphs.BOX_TOP_LEFT, glyphs.BOX_BOTTOM_LEFT)


def check_overlay(texts: list[str], screen: Screen) -> None:
    shown = "\n".join(texts)
    assert texts, "the overlay drew nothing"
    assert texts[0].lstrip().startswith(glyphs.ROUND_TOP_LEFT), shown
    assert texts[-1].lstrip().startswith(glyphs.ROUND_BOTTOM_LEFT), shown
    assert all(line.strip().startswith(glyphs.EDGE) for line in texts[1:-1]), shown


def check_boxes(texts: list[str], top: str, bottom: str) -> None:
    """Each box corner has its other corner below it, edges between, in the same column."""
    shown = "\n".join(texts)
    open_at: dict[int, int] = {}
    for row, line in enumerate(texts):
        for column in [m.start() for m in re.finditer(re.escape(top), line)]:
            open_at[column] = row
        for column in [m.start() for m in re.finditer(re.escape(bottom), line)]:
            assert column in open_at, f"a box bottom with no top at row {row}:\n{shown}"
            start = open_at.pop(column)
            for between in texts[start + 1 : row]:
                assert between[column : column + 1] == glyphs.EDGE, shown
    assert not open_at, f"a box with no bottom:\n{shown}"


@contextmanager
def headless(state: AskState, store: SettingsStore, width: int, height: int) -> Iterator[Screen]:
    """A flow on no terminal at all, sized ``width`` x ``height``."""
    with create_pipe_input() as pipe:
        output = Vt100_Output(
            io.StringIO(),  # type: ignore[arg-type]
            lambda: Size(rows=height, columns=width),
            term="xterm-256color",
            enable_cpr=False,
        )
        flow = AskFlow(state, FaceRequest(store), input=pipe, output=output)
        yield Screen(flow, width, height)


def payload(*questions: dict[str, Any], title: str = "Sweep") -> dict[str, Any]:
    return {"title": title, "questions": list(questions)}
