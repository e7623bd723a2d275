"""Markdown in the TUI: styled lines at 40 and 200 columns, and on a real (pyte) screen."""

from __future__ import annotations

import pytest

from pi_ask.config.store import SettingsStore
from pi_ask.contract.payload import Option
from pi_ask.faces.tui import glyphs, preview_pane, theme
from pi_ask.faces.tui.markdown_lines import (
    load_highlighting,
    load_markdown,
    text_block,
    wait_for_markdown,
)
from pi_ask.faces.tui.preview_pane import render_preview_box
from pi_ask.faces.tui.styled_text import line_width, lines_text
from pi_ask.markdown import document
from tests.faces.tui.driver import Driver, run, state_for
from tests.markdown import fixtures

WIDTHS = [40, 200]


def drawn(text: str, width: int) -> list[str]:
    return lines_text(text_block(text, width, theme.TEXT))


def styles_of(text: str, width: int, word: str) -> str:
    for line in text_block(text, width, theme.TEXT):
        for style, piece in line:
            if word in piece:
                return style
    raise AssertionError(f"{word!r} not drawn")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["CODE", "DIFF", "TABLE", "NESTED", "LINKS", "HOSTILE"])
def test_every_fixture_fits_its_width(name: str, width: int) -> None:
    lines = text_block(getattr(fixtures, name), width, theme.TEXT)
    assert lines and all(line_width(line) <= width for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_code_is_highlighted_in_the_theme_s_colours(width: int) -> None:
    assert theme.SYNTAX_KEYWORD in styles_of(fixtures.CODE, width, "def")
    assert theme.SYNTAX_COMMENT in styles_of(fixtures.CODE, width, "# read once")
    assert theme.CODE in styles_of(fixtures.CODE, width, "load_config")  # inline code
    assert theme.SUCCESS in styles_of(fixtures.DIFF, width, "+    retries = 3")
    assert "```" not in "\n".join(drawn(fixtures.CODE, width))


def test_code_keeps_its_spacing_and_breaks_by_characters() -> None:
    code = "```\n" + "x" * 50 + "\n    indented  twice\n```"
    lines = drawn(code, 40)
    assert lines[1] == "x" * 40 and lines[2] == "x" * 10
    assert "    indented  twice" in lines


@pytest.mark.parametrize("width", WIDTHS)
def test_a_table_fits_the_width_with_its_columns_aligned(width: int) -> None:
    lines = drawn(fixtures.TABLE, width)
    gap = f" {glyphs.EDGE} "
    assert all(line_width(((theme.TEXT, line),)) <= width for line in lines)
    assert glyphs.TABLE_CROSS in lines[1]
    columns = {line.index(gap) for line in lines if gap in line}
    assert len(columns) == 1  # every row's first gap at the same column
    assert "12 ms" in "\n".join(lines) and "340 ms" in "\n".join(lines)


def test_a_table_too_wide_wraps_inside_its_columns() -> None:
    table = "| a | b |\n|---|---|\n| " + "word " * 30 + "| short |"
    lines = drawn(table, 40)
    assert len(lines) > 3 and all(len(line) <= 40 for line in lines)
    assert sum("short" in line for line in lines) == 1


def test_lists_quotes_links_and_headings() -> None:
    lines = drawn("# Title\n" + fixtures.NESTED + "\n\n" + fixtures.LINKS, 80)
    assert lines[0] == "Title"
    assert theme.HEADING in styles_of("# Title", 80, "Title")
    assert f"   {glyphs.BULLET} wheel" in lines
    assert f"   {glyphs.EDGE} only from main" in lines
    assert "Read the guide (https://example.com/guide) or https://example.com/faq." in lines
    assert theme.LINK in styles_of(fixtures.LINKS, 80, "guide")


def test_hostile_text_stays_inert() -> None:
    text = "\n".join(drawn(fixtures.HOSTILE, 200))
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "<script>alert(1)</script>" in text and "^[]0;owned^G" in text


def test_a_20000_line_markdown_preview_parses_only_the_windows_it_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[int] = []
    real = document._render_window

    def counting(lines: tuple[str, ...], window: document.Window, highlighted: bool) -> object:
        parsed.append(window.end - window.start)
        return real(lines, window, highlighted)

    monkeypatch.setattr(document, "_render_window", counting)
    body = "\n".join(f"- item **{n}**" for n in range(10_000))
    code = "\n".join(f"value_{n} = {n}" for n in range(10_000))
    option = Option("big", "Big", None, f"{body}\n\n```python\n{code}\n```")
    preview_pane._content.cache_clear()
    box = lines_text(render_preview_box(option, 60, 12, scroll=(15_000, 0)))
    assert any("value_" in line for line in box)
    assert sum(parsed) <= 2 * document.CODE_WINDOW


def test_markdown_is_drawn_before_its_code_is_coloured() -> None:
    # A flow's first frames: the text as written, then the Markdown with its code uncoloured
    # (markdown-it loaded), then the code coloured (Pygments and the lexers loaded).
    document.outline.cache_clear()
    wait_for_markdown(parser=True, lexers=True)
    assert "```python" in "\n".join(drawn(fixtures.CODE, 80))
    assert load_markdown([fixtures.CODE])
    assert "```" not in "\n".join(drawn(fixtures.CODE, 80))
    assert theme.CODE in styles_of(fixtures.CODE, 80, "def")
    assert theme.SYNTAX_KEYWORD not in styles_of(fixtures.CODE, 80, "def")
    assert load_highlighting([fixtures.CODE])
    assert theme.SYNTAX_KEYWORD in styles_of(fixtures.CODE, 80, "def")
    assert not load_highlighting([fixtures.CODE])  # done once


def test_a_preview_box_colours_its_code_once_the_lexers_load() -> None:
    code = "\n".join(f"value_{n} = {n}" for n in range(500))
    option = Option("big", "Big", None, f"Intro **text**\n\n```python\n{code}\n```")
    document.outline.cache_clear()
    preview_pane._content.cache_clear()

    def number_style() -> str:
        """The style of the last piece of the first code line in the box (its number)."""
        for line in render_preview_box(option, 60, 12, scroll=(300, 0)):
            pieces = [style for style, piece in line if "value_" in piece or piece.isdigit()]
            if pieces:
                return pieces[-1]
        raise AssertionError("no code line in the box")

    wait_for_markdown(parser=False, lexers=True)
    assert theme.SYNTAX_NUMBER not in number_style()
    wait_for_markdown(parser=False, lexers=False)
    assert theme.SYNTAX_NUMBER in number_style()


def test_text_without_a_named_language_needs_no_lexer() -> None:
    wait_for_markdown(parser=False, lexers=True)
    assert not load_highlighting(["**plain** words", "```\nno language\n```"])


def markdown_payload(preview: str = fixtures.CODE) -> dict[str, object]:
    return {
        "title": "Review",
        "questions": [
            {
                "id": "q",
                "type": "preview",
                "prompt": "Which **loader** do we keep?",
                "options": [
                    {"value": "a", "label": "Cached", "preview": preview},
                    {
                        "value": "b",
                        "label": "Fresh",
                        "description": "reads `config.toml`",
                        "preview": "x",
                    },
                ],
            }
        ],
    }


def test_a_fenced_python_preview_is_highlighted_on_screen(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(markdown_payload()), store, width=100, height=30).start()
        # The first frame draws the text as written; the parser loads after it, then redraws,
        # and the code is coloured once the lexer has loaded too.

        def keyword_coloured() -> bool:
            if "def load_config" not in "\n".join(driver.lines()):
                return False
            row, column = driver.find("def load_config")
            # The keyword is coloured apart from the name.
            return driver.style_at(row, column).fg != driver.style_at(row, column + 4).fg

        await driver.until(lambda: "Which loader do we keep?" in "\n".join(driver.lines()))
        await driver.until(keyword_coloured)
        assert "**" not in "\n".join(driver.lines())
        row, column = driver.find("loader")
        assert driver.style_at(row, column).bold
        await driver.close()

    run(scenario())


def test_the_setting_turns_rendering_off_at_once(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(markdown_payload()), store, width=100, height=30).start()
        await driver.until(lambda: "**loader**" not in "\n".join(driver.lines()))
        store.set("ui.markdown", False)
        await driver.until(lambda: "**loader**" in "\n".join(driver.lines()))
        assert "```python" in "\n".join(driver.lines())
        await driver.close()

    run(scenario())
