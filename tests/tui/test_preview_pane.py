"""The preview box draws only what is seen, and scrolls (behaviour.md §7.4, python-port §8)."""

from __future__ import annotations

import pytest

from pi_ask.config import SettingsStore
from pi_ask.contract.payload import Option
from pi_ask.tui import preview_pane
from pi_ask.tui.preview_pane import max_scroll, render_preview_box
from pi_ask.tui.styled_text import lines_text

from .driver import Driver, run


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
    box = lines_text(render_preview_box(big_option(100), 40, 5, scroll=10))
    assert box[0].startswith("┌─ ↑ 10 more ")
    assert box[1] == "│line 7" + " " * 32 + "│"
    assert box[-1].startswith("└─ ↓ 88 more · PgUp/PgDn ")
    assert len(box) == 7


def test_cost_follows_the_visible_rows_not_the_preview(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = preview_pane.wrap_paragraph

    def counting(text: str, width: int) -> list[str]:
        calls.append(text)
        return real(text, width)

    monkeypatch.setattr(preview_pane, "wrap_paragraph", counting)
    render_preview_box.cache_clear()
    render_preview_box(big_option(20_000), 60, 12, scroll=15_000)
    assert len(calls) <= 12
    calls.clear()
    render_preview_box(big_option(20), 60, 12, scroll=5)
    assert len(calls) <= 12


def test_scroll_is_bounded() -> None:
    assert max_scroll(big_option(10)) == 12  # label, description, blank, 10 lines: 13 items
    assert max_scroll(None) == 0


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
    from .driver import state_for

    async def scenario() -> None:
        driver = await Driver(state_for(payload), store, width=100, height=30).start()
        lines = driver.lines()
        assert len(lines) <= 30
        assert any("row 0" in line for line in lines)
        await driver.press("pageDown")
        text = "\n".join(driver.lines())
        assert "↑ 10 more" in text and "│row 8 " in text and "│row 0 " not in text
        await driver.press("pageUp")
        assert "↑" not in "\n".join(driver.lines())
        await driver.press("pageDown", "down", "up")  # moving the cursor resets the scroll
        assert any("row 0" in line for line in driver.lines())
        await driver.close()

    run(scenario())
