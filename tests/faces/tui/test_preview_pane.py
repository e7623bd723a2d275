"""The preview box draws only what is seen, and scrolls (behaviour.md §7.4, python-port §8)."""

from __future__ import annotations

import pytest

from pi_ask.config.store import SettingsStore
from pi_ask.contract.payload import Option
from pi_ask.faces.tui import preview_pane
from pi_ask.faces.tui.preview_pane import TOP, render_preview_box, scroll_by
from pi_ask.faces.tui.styled_text import lines_text
from tests.faces.tui.driver import Driver, run


def big_option(lines: int) -> Option:
    preview = "\n".join(f"line {n}" for n in range(lines))
    return Option("big", "Big", "A big one", preview)


def test_box_content_and_borders() -> None:
    box = lines_text(render_preview_box(big_option(3), 20, 100))
    assert box == [
        "┌──────────────────┐",
        "│Big               │",
        "│A big one         │",
        "│                  │",
        "│line 0            │",
        "│line 1            │",
        "│line 2            │",
        "└──────────────────┘",
    ]


def test_no_option_says_so() -> None:
    assert "│No preview available│" in lines_text(render_preview_box(None, 22, 5))


def test_a_cut_box_says_how_much_is_hidden() -> None:
    box = lines_text(render_preview_box(big_option(100), 40, 5, scroll=(10, 0)))
    assert box[0].startswith("┌─ ↑ 10 more ")
    assert box[1] == "│line 7" + " " * 32 + "│"
    assert box[-1].startswith("└─ ↓ 88 more · PgUp/PgDn ")
    assert len(box) == 7


@pytest.fixture
def wrapped_paragraphs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every paragraph the preview pane wraps, as it wraps it."""
    calls: list[str] = []
    real = preview_pane.wrap_paragraph

    def counting(text: str, width: int) -> list[str]:
        calls.append(text)
        return real(text, width)

    monkeypatch.setattr(preview_pane, "wrap_paragraph", counting)
    return calls


def test_cost_follows_the_visible_rows_not_the_preview(wrapped_paragraphs: list[str]) -> None:
    calls = wrapped_paragraphs
    preview_pane._box.cache_clear()
    preview_pane._plain_rows.cache_clear()
    render_preview_box(big_option(20_000), 60, 12, scroll=(15_000, 0))
    assert len(calls) <= 12
    calls.clear()
    render_preview_box(big_option(20), 60, 12, scroll=(5, 0))
    assert len(calls) <= 12


def test_scroll_stops_where_the_last_rows_fill_the_box() -> None:
    option = big_option(10)  # label, description, blank, 10 lines: 13 one-row paragraphs
    assert scroll_by(option, 40, TOP, 100, 5) == (8, 0)
    assert scroll_by(option, 40, (8, 0), 1, 5) == (8, 0)
    assert scroll_by(option, 40, (8, 0), -100, 5) == TOP
    assert scroll_by(None, 40, TOP, 10, 5) == TOP


def test_a_paragraph_taller_than_the_box_is_read_row_by_row() -> None:
    words = " ".join(f"w{n:02d}" for n in range(40))  # 40 words, 9 to a 36-cell row
    option = Option("o", "O", None, words)
    position = TOP
    seen: list[str] = []
    for _ in range(20):
        box = lines_text(render_preview_box(option, 38, 2, position))
        seen += [line.strip("│ ") for line in box[1:-1]]
        moved = scroll_by(option, 38, position, 1, 2)
        if moved == position:
            break
        position = moved
    shown = " ".join(seen).split()
    assert {f"w{n:02d}" for n in range(40)} <= set(shown)
    assert position == (2, 3)  # the preview paragraph (5 rows), its last page: rows 3-4


def test_scrolling_costs_the_rows_passed_not_the_preview(wrapped_paragraphs: list[str]) -> None:
    scroll_by(big_option(20_000), 60, (15_000, 0), 11, 12)
    assert len(wrapped_paragraphs) <= 2 * 12 + 2


def test_page_down_scrolls_the_box_in_the_flow(store: SettingsStore) -> None:
    payload = {
        "questions": [
            {
                "id": "p",
                "prompt": "Pick one",
                "type": "preview",
                "options": [
                    {
                        "value": "a",
                        "label": "A",
                        "preview": "\n".join(f"row {n}" for n in range(200)),
                    },
                    {"value": "b", "label": "B", "preview": "short"},
                ],
            }
        ]
    }
    from tests.faces.tui.driver import state_for

    async def scenario() -> None:
        driver = await Driver(state_for(payload), store, width=100, height=30).start()
        lines = driver.lines()
        assert len(lines) <= 30
        assert any("row 0" in line for line in lines)
        rows = sum("│row " in line for line in lines)
        await driver.press("pageDown")
        text = "\n".join(driver.lines())
        # One page: the box's rows less one; the last row shown stays as the first.
        last = rows - 1  # the box showed the label, a blank line, row 0 .. row (rows - 1)
        assert f"│row {last} " in text and f"│row {last - 1} " not in text, text
        assert text.index(f"│row {last} ") < text.index(f"│row {last + 1} "), text
        await driver.press("pageUp")
        assert "↑" not in "\n".join(driver.lines())
        await driver.press("pageDown", "down", "up")  # moving the cursor resets the scroll
        assert any("row 0" in line for line in driver.lines())
        await driver.close()

    run(scenario())
