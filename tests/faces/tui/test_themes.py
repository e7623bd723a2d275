"""Themes: every role of every theme emitted, read back through pyte, and its contrast checked.

The check is made on what reaches the terminal: prompt_toolkit maps a theme's colours to the
colour depth it emits (the 256-colour palette for ``xterm-256color``, exact colours at 24-bit),
so each theme is rendered at both depths and pyte says what the terminal would paint. Each
colour is measured against the background (and, for the terminal's default text colour, the
foreground) the theme declares: WCAG AA, 4.5:1 for text, 3:1 for muted text. ``ansi`` is
exempt: it takes the user's own palette.
"""

from __future__ import annotations

import io

import pyte
import pyte.graphics
import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.shortcuts import print_formatted_text

from pi_ask.config.catalogue import THEME_ROLES, THEMES
from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui import theme
from pi_ask.faces.tui.theme import build_style
from tests.faces.tui.contrast import AA_MUTED, AA_TEXT, contrast
from tests.faces.tui.driver import Driver, run, state_for
from tests.faces.tui.test_flow_screens import expected

SIXTEEN = {*pyte.graphics.FG_ANSI.values(), *pyte.graphics.FG_AIXTERM.values()}
MEASURED = [name for name in THEMES if name != "ansi"]
DEPTHS = [ColorDepth.DEPTH_8_BIT, ColorDepth.DEPTH_24_BIT]

# (what is drawn, the style the renderers give it, the contrast it needs)
ROLE_SAMPLES: list[tuple[str, str, float]] = [
    ("accent", theme.ACCENT, AA_TEXT),
    ("text", theme.TEXT, AA_TEXT),
    ("success", theme.SUCCESS, AA_TEXT),
    ("chosen", theme.CHOSEN, AA_TEXT),
    ("warning", theme.WARNING, AA_TEXT),
    ("error", theme.ERROR, AA_TEXT),
    ("syntax-string", theme.SYNTAX_STRING, AA_TEXT),
    ("code", theme.CODE, AA_TEXT),
    ("heading", theme.HEADING, AA_TEXT),
    ("link", theme.LINK, AA_TEXT),
    ("syntax-keyword", theme.SYNTAX_KEYWORD, AA_TEXT),
    ("syntax-comment", theme.SYNTAX_COMMENT, AA_TEXT),
    ("syntax-number", theme.SYNTAX_NUMBER, AA_TEXT),
    ("syntax-function", theme.SYNTAX_FUNCTION, AA_TEXT),
    ("syntax-type", theme.SYNTAX_TYPE, AA_TEXT),
    ("muted", theme.MUTED, AA_MUTED),
    ("dim", theme.DIM, AA_MUTED),
    # The active tab and the focused setting value: text on the selection background.
    ("active tab", f"{theme.TEXT} {theme.SELECTED_BG} {theme.ACTIVE}", AA_TEXT),
    ("focused value", f"{theme.ACCENT} {theme.SELECTED_BG} {theme.ACTIVE}", AA_TEXT),
]


def emitted(style: str, name: str, depth: ColorDepth) -> pyte.screens.Char:
    """The first cell of a sample drawn in ``style`` under theme ``name``, read by pyte."""
    buffer = io.StringIO()
    output = Vt100_Output(
        buffer, lambda: Size(rows=3, columns=20), term="xterm-256color", default_color_depth=depth
    )
    print_formatted_text(
        FormattedText([(style, "Sample")]),
        output=output,
        style=build_style(name, no_color=False),
        color_depth=depth,
    )
    screen = pyte.Screen(20, 3)
    pyte.Stream(screen).feed(buffer.getvalue())
    return screen.buffer[0][0]


def painted(char: pyte.screens.Char, palette: theme.Palette) -> tuple[str, str]:
    """The foreground and background a cell shows, default colours taken from the theme."""
    assert palette.background is not None and palette.foreground is not None
    fg = palette.foreground.lstrip("#") if char.fg == "default" else char.fg
    bg = palette.background.lstrip("#") if char.bg == "default" else char.bg
    return (bg, fg) if char.reverse else (fg, bg)


def test_every_role_has_a_look_in_every_theme() -> None:
    for name, palette in theme.THEMES.items():
        assert set(palette.rules) == set(THEME_ROLES), name
    assert tuple(theme.THEMES) == THEMES


@pytest.mark.parametrize("depth", DEPTHS, ids=lambda d: d.name)
@pytest.mark.parametrize("name", MEASURED)
def test_each_role_meets_wcag_aa_at_the_depth_emitted(name: str, depth: ColorDepth) -> None:
    palette = theme.THEMES[name]
    failures = []
    for role, style, needed in ROLE_SAMPLES:
        fg, bg = painted(emitted(style, name, depth), palette)
        ratio = contrast(fg, bg)
        if ratio < needed:
            failures.append(f"{role}: #{fg} on #{bg} is {ratio:.2f}:1, needs {needed}:1")
    assert not failures, f"{name} at {depth.name}:\n" + "\n".join(failures)


def test_the_check_can_fail() -> None:
    """pi's own dim (#666666) on the dark background is below 3:1: the measure sees it."""
    char = emitted("#666666", "dark", ColorDepth.DEPTH_8_BIT)
    assert contrast(char.fg, "1d1f21") < AA_MUTED


def test_ansi_uses_the_terminals_own_colours() -> None:
    """Every colour ``ansi`` emits is one of the 16 the user's palette defines, at any depth."""
    for _role, style, _needed in ROLE_SAMPLES:
        char = emitted(style, "ansi", ColorDepth.DEPTH_24_BIT)
        assert char.fg in SIXTEEN, (style, char.fg)
    assert emitted(theme.ACCENT, "ansi", ColorDepth.DEPTH_24_BIT).fg == "cyan"


def test_meaning_does_not_rest_on_colour_in_high_contrast() -> None:
    depth = ColorDepth.DEPTH_24_BIT
    chosen = emitted(theme.CHOSEN, "high-contrast", depth)
    assert chosen.bold and chosen.underscore
    assert emitted(theme.WARNING, "high-contrast", depth).bold
    assert emitted(theme.ERROR, "high-contrast", depth).bold


def test_an_override_applies_and_a_bad_one_is_skipped() -> None:
    style = build_style(
        "light", (("accent", "#870087 underline"), ("muted", "blod")), no_color=False
    )
    buffer = io.StringIO()
    output = Vt100_Output(
        buffer,
        lambda: Size(rows=3, columns=20),
        term="xterm-256color",
        default_color_depth=ColorDepth.DEPTH_24_BIT,
    )
    print_formatted_text(
        FormattedText([(theme.ACCENT, "A"), (theme.MUTED, "M")]), output=output, style=style
    )
    screen = pyte.Screen(20, 3)
    pyte.Stream(screen).feed(buffer.getvalue())
    accent, muted = screen.buffer[0][0], screen.buffer[0][1]
    assert (accent.fg, accent.underscore) == ("870087", True)
    assert muted.fg == "626262"  # the light theme's own muted: the bad override was skipped


@pytest.mark.parametrize("name", THEMES)
def test_each_theme_draws_the_same_screen_in_its_colours(
    name: str, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S1 through the real flow in each theme: the text never changes, only the colours."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert store.set("theme.name", name).ok
    palette = theme.THEMES[name]

    async def scenario() -> tuple[list[str], list[pyte.screens.Char]]:
        driver = await Driver(
            state_for("payload_a.json"), store, color_depth=ColorDepth.DEPTH_8_BIT
        ).start()
        lines = driver.lines()
        screen = driver.screen
        cells = [
            screen.buffer[y][x]
            for y in range(screen.lines)
            for x in range(screen.columns)
            if screen.buffer[y][x].data != " "
        ]
        await driver.close()
        return lines, cells

    lines, cells = run(scenario())
    assert lines == expected("S1")
    rule = cells[0]
    assert rule.data == "─"
    if palette.background is None:
        assert rule.fg == "cyan"
        return
    accent = emitted(theme.ACCENT, name, ColorDepth.DEPTH_8_BIT).fg
    assert rule.fg == accent
    for cell in cells:
        fg, bg = painted(cell, palette)
        assert contrast(fg, bg) >= AA_MUTED, (cell.data, fg, bg)


def test_a_theme_saved_in_the_file_applies_to_the_open_flow(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        assert driver.style_at(0, 0).fg == "8abeb7"
        text = store.path.read_text(encoding="utf-8").replace('name = "dark"', 'name = "light"')
        store.path.write_text(text, encoding="utf-8")
        # The watcher polls the file; wait for the frame it causes, not for a time.
        await driver.until(lambda: driver.style_at(0, 0).fg == "005f87", timeout=60)
        assert driver.style_at(0, 0).fg == "005f87"
        await driver.close()

    run(scenario())


WHERE = {
    "accent": "rules, title, the row under the cursor",
    "text": "prompts, other rows",
    "success": "answered tabs, review answers",
    "chosen": "a chosen option's row",
    "warning": "`(recommended)`, notices",
    "error": "save errors",
    "syntax-string": "`Note:` titles, strings in code",
    "code": "Markdown code, inline and fenced",
    "heading": "Markdown headings",
    "link": "Markdown links",
    "syntax-keyword": "keywords in code",
    "syntax-comment": "comments in code",
    "syntax-number": "numbers in code",
    "syntax-function": "function names in code",
    "syntax-type": "types and builtins in code",
    "muted": "descriptions, unanswered tabs",
    "dim": "footer hints, `→ unanswered`",
    "active tab": "the active tab (text on the selection)",
    "focused value": "the focused setting's value",
}


def theme_table(name: str) -> str:
    """The docs/themes.md table of one theme: each role's colours and contrast, measured."""
    palette = theme.THEMES[name]
    rows = [
        "| role | where | 256 colours | 24-bit | contrast (256 / 24-bit) | needs |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for role, style, needed in ROLE_SAMPLES:
        cells = [painted(emitted(style, name, depth), palette) for depth in DEPTHS]
        colours = [f"`#{fg}` on `#{bg}`" for fg, bg in cells]
        ratios = " / ".join(f"{contrast(fg, bg):.1f}:1" for fg, bg in cells)
        rows.append(
            f"| {role} | {WHERE[role]} | {colours[0]} | {colours[1]} | {ratios} | {needed}:1 |"
        )
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("name", MEASURED)
def test_the_themes_page_shows_the_measured_contrast(name: str) -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[3] / "docs" / "themes.md").read_text(encoding="utf-8")
    assert theme_table(name) in page, f"docs/themes.md is out of date for {name}"


def _look(cell: pyte.screens.Char) -> str:
    """A cell's colours and attributes, worded as the themes page shows them."""

    def colour(value: str) -> str:
        return f"`#{value}`" if len(value) == 6 and value not in SIXTEEN else f"`{value}`"

    look = "default text" if cell.fg == "default" else colour(cell.fg)
    if cell.bg != "default":
        look += f" on {colour(cell.bg)}"
    for attribute, word in (("bold", "bold"), ("underscore", "underline"), ("reverse", "reverse")):
        if getattr(cell, attribute):
            look += f", {word}"
    return look


def screen_legend(name: str, store: SettingsStore) -> str:
    """What S1 looks like in theme ``name`` at 256 colours: each look and where it shows."""
    assert store.set("theme.name", name).ok

    async def scenario() -> list[list[tuple[str, str]]]:
        driver = await Driver(
            state_for("payload_a.json"), store, color_depth=ColorDepth.DEPTH_8_BIT
        ).start()
        screen = driver.screen
        cells = [
            [(screen.buffer[y][x].data, _look(screen.buffer[y][x])) for x in range(screen.columns)]
            for y in range(screen.lines)
        ]
        await driver.close()
        return cells

    seen: dict[str, list[str]] = {}
    for row in run(scenario()):
        runs: list[tuple[str, str]] = []
        for char, look in row:
            if not char.strip() and runs:
                runs[-1] = (runs[-1][0] + char, runs[-1][1])
            elif char.strip():
                if runs and runs[-1][1] == look:
                    runs[-1] = (runs[-1][0] + char, look)
                else:
                    runs.append((char, look))
        for drawn, look in runs:
            words = " ".join(drawn.split())
            text = (words if len(words) <= 28 else words[:27] + "…").replace("|", "\\|")
            examples = seen.setdefault(look, [])
            if len(examples) < 3 and text not in examples:
                examples.append(text)
    rows = ["| looks | on the screen |", "| --- | --- |"]
    rows += [f"| {look} | {' · '.join(f'`{t}`' for t in texts)} |" for look, texts in seen.items()]
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("name", THEMES)
def test_the_themes_page_shows_each_theme_as_drawn(
    name: str, store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    monkeypatch.delenv("NO_COLOR", raising=False)
    page = (Path(__file__).resolve().parents[3] / "docs" / "themes.md").read_text(encoding="utf-8")
    assert screen_legend(name, store) in page, f"docs/themes.md is out of date for {name}"


@pytest.mark.parametrize(
    ("body", "shade"),
    [
        ("rgb:ffff/ffff/ffff", "light"),
        ("rgb:fdf6/f6e3/e3e3", "light"),
        ("rgb:1e1e/1e1e/2e2e", "dark"),
        ("rgb:00/00/00", "dark"),
        ("rgba:ffff/ffff/ffff/ffff", "light"),
        ("rgb:4/4/4", "dark"),
        ("rgb:8/8/8", "light"),  # mid grey: black text has more contrast on it
        ("rgb:c/c/c", "light"),
        ("?", None),
        ("rgb:zz/00/00", None),
    ],
)
def test_the_background_reply_gives_a_shade(body: str, shade: str | None) -> None:
    from pi_ask.faces.tui.background import shade_of_reply

    assert shade_of_reply(body) == shade


def test_auto_asks_after_the_first_frame_and_a_reply_is_never_a_key(store: SettingsStore) -> None:
    from pi_ask.faces.tui.background import QUERY

    assert store.set("theme.name", "auto").ok

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        # The first frame is drawn before the question, in dark; then the question is asked.
        assert driver.style_at(0, 0).fg == "8abeb7"
        await driver.until(lambda: QUERY in "".join(driver.stream.written))
        driver.pipe.send_text("\x1b]11;rgb:ffff/ffff/ffff\x1b\\")
        await driver.until(lambda: driver.style_at(0, 0).fg == "005f87")
        # A second, late reply (and one split across reads) is taken out of the input too:
        # had it reached the key parser, Esc would have cancelled and "1" chosen Python.
        driver.pipe.send_text("\x1b]11;rgb:0000/")
        driver.pipe.send_text("0000/0000\x1b\\")
        await driver.press("down")
        assert driver.flow.state.row == 1
        assert not driver.flow.state.completed
        assert driver.style_at(0, 0).fg == "005f87"  # the first reply decided
        await driver.close()

    run(scenario())


def test_auto_without_an_answer_stays_dark(store: SettingsStore) -> None:
    assert store.set("theme.name", "auto").ok

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("down")
        assert driver.style_at(0, 0).fg == "8abeb7"
        await driver.close()

    run(scenario())
