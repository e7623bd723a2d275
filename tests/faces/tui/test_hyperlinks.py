"""OSC 8 hyperlinks in the TUI: when they are on, what they wrap, and that redraws keep them
to the link's cells (a terminal model reads back every cell's hyperlink)."""

from __future__ import annotations

import re

import pyte
import pytest

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui import hyperlinks
from pi_ask.faces.tui.hyperlinks import (
    CLOSE,
    ESCAPE,
    terminal_shows_hyperlinks,
    use_hyperlinks,
    with_hyperlinks,
)
from pi_ask.faces.tui.styled_text import Line
from pi_ask.terminal_text import hyperlink_target
from tests.faces.tui.driver import Driver, run, state_for


def shown_text(line: Line) -> str:
    """What a line shows: its text without the zero-width escapes."""
    return "".join(text for style, text in line if style != ESCAPE)


OSC8 = re.compile(r"\x1b\]8;([^;\x1b\x07]*);([^\x1b\x07]*)(?:\x1b\\|\x07)")


@pytest.fixture(autouse=True)
def _switch_back() -> object:
    yield
    use_hyperlinks("off")


@pytest.mark.parametrize(
    ("environ", "shows"),
    [
        ({"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"}, True),
        ({"TERM_PROGRAM": "WezTerm"}, True),
        ({"TERM": "xterm-kitty"}, True),
        ({"VTE_VERSION": "7200", "TERM": "xterm-256color"}, True),
        ({"WT_SESSION": "x"}, True),
        ({"TERM": "xterm-256color"}, False),  # unknown: off
        ({"VTE_VERSION": "4800"}, False),
        ({"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"}, False),
        ({"TERM": "screen-256color", "TERM_PROGRAM": "WezTerm"}, False),
        ({"TERM_PROGRAM": "Apple_Terminal"}, False),
    ],
)
def test_auto_trusts_only_terminals_known_to_show_them(
    environ: dict[str, str], shows: bool
) -> None:
    assert terminal_shows_hyperlinks(environ) is shows
    assert use_hyperlinks("auto", environ) is shows
    assert use_hyperlinks("on", environ) is True
    assert use_hyperlinks("off", {"TERM_PROGRAM": "WezTerm"}) is False


def test_only_web_and_mail_links_qualify_and_every_odd_byte_is_escaped() -> None:
    assert hyperlink_target("https://example.com/a?b=1#c") == "https://example.com/a?b=1#c"
    assert hyperlink_target("mailto:me@example.com") == "mailto:me@example.com"
    assert hyperlink_target("javascript:alert(1)") is None
    assert hyperlink_target("file:///etc/passwd") is None
    target = hyperlink_target("https://x.example/\x1b]0;owned\x07 [a]é")
    assert target == "https://x.example/%1B%5D0;owned%07%20%5Ba%5D%C3%A9"
    assert hyperlink_target("https://x.example/" + "a" * 3000) is None


def test_each_cell_of_a_link_opens_it_and_the_next_cell_closes_it() -> None:
    target = "https://example.com/g"
    line = (("", "See "), (f"class:link [href={target}]", "ab"), ("class:dim", " (url)"))
    (out,) = with_hyperlinks([line], 40)
    assert shown_text(out) == "See ab (url)"  # the escapes take no cells
    opens = [text for style, text in out if style == ESCAPE and text != CLOSE]
    assert len(opens) == 2 and all(text.endswith(f";{target}\x1b\\") for text in opens)
    cells = [(style, text) for style, text in out if style != ESCAPE]
    assert cells[1:3] == [(f"class:link [href={target}]", "a")] * 1 + [
        (f"class:link [href={target}]", "b")
    ]
    close_at = out.index((ESCAPE, CLOSE))
    after_style, after_text = out[close_at + 1]
    assert after_text == " " and "[link-end=" in after_style and "class:dim" in after_style


def test_an_empty_span_after_a_link_is_no_cell_to_close_in() -> None:
    link = ("class:link [href=https://e.example/]", "ab")
    (out,) = with_hyperlinks([(link, ("", ""), ("class:dim", "xy"))], 20)
    close_at = out.index((ESCAPE, CLOSE))
    assert out[close_at + 1][1] == "x" and "[link-end=" in out[close_at + 1][0]
    assert shown_text(out) == "abxy"


def test_a_link_ending_a_line_gets_a_blank_cell_to_close_in_or_none() -> None:
    link = ("class:link [href=https://e.example/]", "end")
    (short,) = with_hyperlinks([(("", "x "), link)], 10)
    assert shown_text(short) == "x end " and (ESCAPE, CLOSE) in short
    (full,) = with_hyperlinks([(("", "x "), link)], 5)  # the line fills the width
    assert full == (("", "x "), link)


class LinkScreen(pyte.Screen):
    """A pyte screen that also keeps, like a terminal, the hyperlink each cell was drawn in."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.link: str | None = None
        self.links: dict[tuple[int, int], str | None] = {}

    def draw(self, data: str) -> None:
        for char in data:
            self.links[(self.cursor.y, self.cursor.x)] = self.link
            super().draw(char)


def replay(written: str, columns: int, lines: int) -> LinkScreen:
    screen = LinkScreen(columns, lines)
    stream = pyte.Stream(screen)
    position = 0
    for found in OSC8.finditer(written):
        stream.feed(written[position : found.start()])
        screen.link = found.group(2) or None
        position = found.end()
    stream.feed(written[position:])
    return screen


PAYLOAD = {
    "questions": [
        {
            "id": "a",
            "label": "First",
            "prompt": "Read [aaa](https://a.example/x) now, not [js](javascript:alert(1)).",
            "options": [{"value": "1", "label": "One", "description": "via <https://c.example/>"}],
        },
        {
            "id": "b",
            "label": "Second",
            "prompt": "Read [bbb](https://b.example/x) now, not [js](javascript:alert(1)).",
            "options": [{"value": "1", "label": "One"}],
        },
    ]
}


def _expected_links(screen: LinkScreen) -> dict[tuple[int, int], str]:
    """The cells a reader sees as link text: ``aaa``/``bbb`` and the autolink's URL."""
    wanted: dict[tuple[int, int], str] = {}
    for row, line in enumerate(screen.display):
        for text, url in (
            ("aaa", "https://a.example/x"),
            ("bbb", "https://b.example/x"),
            ("https://c.example/", "https://c.example/"),
        ):
            column = line.find(text)
            if column >= 0 and (text != "https://c.example/" or "via " in line):
                wanted.update({(row, column + n): url for n in range(len(text))})
    return wanted


def _leaks(written: str, lines: list[str]) -> dict[tuple[int, int], str | None]:
    """Cells whose hyperlink is not the one a reader sees there, on the screen ``written``
    draws (which must show ``lines``)."""
    screen = replay(written, 80, 24)
    assert [line.rstrip() for line in screen.display][: len(lines)] == lines
    expected = _expected_links(screen)
    drawn = {
        cell: link
        for cell, link in screen.links.items()
        if screen.display[cell[0]][cell[1]] != " " and link is not None
    }
    return {
        cell: drawn.get(cell)
        for cell in set(drawn) | set(expected)
        if drawn.get(cell) != expected.get(cell)
    }


def test_redraws_keep_every_hyperlink_to_its_link_s_cells(store: SettingsStore) -> None:
    """Checked after every key: prompt_toolkit redraws only changed cells, so a link left
    open would colour what is drawn next, and a later full redraw would hide it."""
    store.path.write_text('[ui]\nhyperlinks = "on"\n', encoding="utf-8")
    store.reload()
    keys = ("tab", "shift+tab", "tab", "shift+tab", "?", "esc", "down", "up")

    async def scenario() -> list[tuple[str, list[str]]]:
        driver = await Driver(state_for(PAYLOAD), store, width=80, height=24).start()
        shown = "Read aaa (https://a.example/x)"
        await driver.until(lambda: any(shown in line for line in driver.lines()))
        # Tab swaps prompts whose links differ but whose next cells do not; the overlay
        # covers the frame and goes.
        screens = [("".join(driver.stream.written), driver.lines())]
        for key in keys:
            await driver.press(key)
            screens.append(("".join(driver.stream.written), driver.lines()))
        await driver.close()
        return screens

    screens = run(scenario())
    assert hyperlinks.hyperlinks_on()
    assert _expected_links(replay(screens[0][0], 80, 24)), "the links are on the screen"
    for key, (written, lines) in zip(("start", *keys), screens, strict=True):
        assert _leaks(written, lines) == {}, key
    targets = {found.group(2) for found in OSC8.finditer(screens[-1][0])} - {""}
    assert targets == {"https://a.example/x", "https://b.example/x", "https://c.example/"}


def test_a_frame_s_links_are_made_once_with_the_frame(store: SettingsStore) -> None:
    store.path.write_text('[ui]\nhyperlinks = "on"\n', encoding="utf-8")
    store.reload()

    async def scenario() -> None:
        driver = await Driver(state_for(PAYLOAD), store, width=80, height=24).start()
        await driver.until(
            lambda: any("Read aaa (https://a.example/x)" in x for x in driver.lines())
        )
        canvas = driver.flow.canvas
        linked = canvas.render_frame(80, 24)
        assert linked == with_hyperlinks(canvas.frame(80, 24).lines, 80)
        assert any(style == ESCAPE for line in linked for style, _ in line)
        assert canvas.render_frame(80, 24) is linked  # the same frame: its links kept
        await driver.press("tab")
        again = canvas.render_frame(80, 24)
        assert again is not linked  # a new frame: its own links
        assert again == with_hyperlinks(canvas.frame(80, 24).lines, 80)
        await driver.close()

    run(scenario())


def test_off_writes_no_hyperlink(store: SettingsStore) -> None:
    store.path.write_text('[ui]\nhyperlinks = "off"\n', encoding="utf-8")
    store.reload()

    async def scenario() -> str:
        driver = await Driver(state_for(PAYLOAD), store).start()
        await driver.until(
            lambda: any("Read aaa (https://a.example/x)" in x for x in driver.lines())
        )
        await driver.press("tab")
        await driver.close()
        return "".join(driver.stream.written)

    assert "\x1b]8;" not in run(scenario())
