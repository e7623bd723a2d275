"""The TUI in every language: nothing left hard-coded, and the footers fit at 80 columns.

The flow runs headless (``driver.py``: a real ``AskFlow``, keys through a pipe, the screen
through pyte) on the demo payload, through every screen: the questions, both editors, a
type change, the review and its double-press hint, the dirty guard and the settings overlay.
In the pseudo-language every message is drawn inside ``«…»``, so a word outside the
markers that is neither payload text, a key name nor a setting's value was never translated.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pi_ask import i18n
from pi_ask.config.catalogue import TOGGLE_ROWS
from pi_ask.config.store import SettingsStore
from pi_ask.demo import DEMO_PAYLOAD
from pi_ask.faces.tui.footer import FooterKind, footer_chunks
from pi_ask.faces.tui.styled_text import text_width
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.terminal_bytes import terminal_bytes
from tests.faces.tui.driver import Driver, run, state_for
from tests.pseudo_language import WORD, unmarked

LANGUAGES = ("en", "de", "es", "ja", "zh_CN")


def _key(context: str, action: str) -> str:
    """The first default key of an action that a terminal can send."""
    keys = DEFAULT_KEYMAPS.keys(context, action)  # type: ignore[arg-type]
    return next(key for key in keys if terminal_bytes(key) is not None)


def _words(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield from WORD.findall(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _words(item)
    elif isinstance(value, list):
        for item in value:
            yield from _words(item)


def _allowed() -> set[str]:
    """Words a screen may show untranslated: the payload's, key names, settings' values."""
    keys = {
        word
        for context in CONTEXTS
        for action in context.actions
        for word in WORD.findall(
            DEFAULT_KEYMAPS.label(context.name, action.name)
            + " "
            + DEFAULT_KEYMAPS.ids_label(context.name, action.name)
        )
    }
    values = {
        word for row in TOGGLE_ROWS for choice in row.choices for word in WORD.findall(choice)
    }
    files = set(WORD.findall(f"{ATTACHED_FILE} {MISSING_FILE}"))
    return set(_words(DEMO_PAYLOAD)) | keys | values | files | {"PgUp", "PgDn"}


ATTACHED_FILE = "notes.txt"
MISSING_FILE = "missing.txt"


async def _every_screen(store: SettingsStore, width: int, height: int) -> list[list[str]]:
    """The demo flow's screens, one of each kind, as lines."""
    work = store.path.parent / "work"
    work.mkdir(exist_ok=True)
    (work / ATTACHED_FILE).write_text("the log says no\n", encoding="utf-8")
    folder = store.path.parent / "attachments"
    driver = Driver(
        state_for(DEMO_PAYLOAD),
        store,
        width=width,
        height=height,
        cwd=work,
        attachments_folder=folder,
    )
    await driver.start()
    screens = [driver.lines()]

    async def press(*keys: str) -> None:
        await driver.press(*keys)
        screens.append(driver.lines())

    await press(_key("main", "attach"))  # the attach prompt, its placeholder and footer
    await press(f"text:{MISSING_FILE}", _key("editor", "submit"))  # a refusal under it
    # The whole name typed: its one completion adds nothing, so no menu takes the Enter.
    await press(*("backspace" for _ in MISSING_FILE), f"text:{ATTACHED_FILE}")
    await press(_key("editor", "submit"))  # attached: the file's line, the notice, detach
    await press(_key("main", "detach"))  # removed: its notice
    await press(_key("main", "option_note"))  # the note editor, its placeholder and footer
    await press(_key("note_editor", "close"))
    await press("down", "down", "down")  # onto "Type your own": the answer editor opens
    await press(_key("editor", "close"))
    await press("up", "up", "up", "enter")  # Python chosen; the multi-select question
    await press("space", _key("main", "change_question_type"))  # a type-change notice
    await press(_key("main", "change_question_type"))
    await press(_key("main", "next_tab"))  # the preview question and its box
    await press(_key("main", "next_tab"))  # the review
    await press("1")  # the double-press hint
    await press(_key("main", "cancel"))  # the dirty guard
    await press(_key("global", "settings"))  # the settings overlay
    for _ in range(12):  # every row's description
        await press("down")
    await press(_key("settings_modal", "close"))
    await driver.close()
    return screens


def _on_top(lines: list[str]) -> list[str]:
    """The lines of the settings overlay when it is open (what it covers is cut at its
    edges), else every line."""
    top = next((row for row, line in enumerate(lines) if "╭" in line), None)
    if top is None:
        return lines
    left, right = lines[top].index("╭"), lines[top].index("╮")
    bottom = next(row for row in range(top, len(lines)) if "╰" in lines[row])
    return [line[left + 1 : right] for line in lines[top + 1 : bottom]]


def test_the_pseudo_language_finds_no_word_left_untranslated(store: SettingsStore) -> None:
    i18n.use_language(i18n.PSEUDO)
    screens = run(_every_screen(store, 100, 40))
    allowed = _allowed()
    path = str(store.path)
    leaks: dict[str, str] = {}
    for lines in screens:
        # The overlay shows the config file's path, wrapped anywhere: not words.
        shown = [line for line in _on_top(lines) if not (line.strip() and line.strip() in path)]
        text = unmarked("\n".join(shown))
        for word in WORD.findall(text):
            if word not in allowed:
                leaks.setdefault(word, next(line for line in lines if word in line))
    assert leaks == {}, "untranslated words (word: the line it is on):\n" + "\n".join(
        f"{word}: {line}" for word, line in leaks.items()
    )
    # The detector can fail: the markers are really there.
    assert any("«" in line for lines in screens for line in lines)


def test_the_detector_sees_a_word_outside_the_markers() -> None:
    assert WORD.findall(unmarked("«Review» Submit «Press «Esc« or »q» again»")) == ["Submit"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_footer_hint_fits_whole_at_80_columns(store: SettingsStore, language: str) -> None:
    assert i18n.use_language(language) == language
    screens = run(_every_screen(store, 80, 24))
    drawn = [line for lines in screens for line in lines]
    assert all(text_width(line) <= 80 for line in drawn)
    kinds: tuple[FooterKind, ...] = ("single", "multi", "review", "editor", "note_editor")
    for kind in (*kinds, "attach"):
        for chunk in footer_chunks(kind, DEFAULT_KEYMAPS, (True, kind == "single")):
            assert text_width(chunk) < 80, (language, chunk)
            assert any(chunk in line for line in drawn), (language, kind, chunk)


def test_the_overlay_keeps_its_edges_over_two_cell_characters(store: SettingsStore) -> None:
    """The Japanese footer has 質 across the overlay's left edge at 80 columns: the row
    must not shift (the frame gives that character up for two spaces)."""
    assert i18n.use_language("ja") == "ja"

    async def scenario() -> list[list[str]]:
        driver = await Driver(state_for(DEMO_PAYLOAD), store, width=80, height=24).start()
        await driver.press(_key("global", "settings"))
        buffer = driver.screen.buffer
        rows = [[buffer[row][column].data for column in range(80)] for row in range(24)]
        await driver.close()
        return rows

    rows = run(scenario())
    top = next(row for row, cells in enumerate(rows) if "╭" in cells)
    left, right = rows[top].index("╭"), rows[top].index("╮")
    bottom = next(row for row in range(top, 24) if "╰" in rows[row])
    assert left == 4 and right == 75
    for row in range(top + 1, bottom):
        assert (rows[row][left], rows[row][right]) == ("│", "│"), "".join(rows[row])
