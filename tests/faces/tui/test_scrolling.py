"""The body scrolls by keys, says what it hides, keeps the cursor row; one render per key."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui import frame as frame_module
from pi_ask.faces.tui import review_screen
from pi_ask.faces.tui.scrolling import Scroll, fit
from pi_ask.faces.tui.styled_text import lines_text, span
from tests.faces.tui.driver import Driver, run, state_for

LONG_PROMPT = " ".join(f"word{n}" for n in range(1, 900))


def long_prompt() -> dict[str, Any]:
    return {
        "title": "Long",
        "questions": [
            {
                "id": "q",
                "prompt": LONG_PROMPT,
                "options": [{"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}],
            }
        ],
    }


def twelve() -> dict[str, Any]:
    return {
        "questions": [
            {
                "id": f"q{n}",
                "label": f"Q{n}",
                "prompt": f"Question {n}?",
                "options": [{"value": "a", "label": f"Answer {n}"}, {"value": "b", "label": "B"}],
            }
            for n in range(1, 13)
        ]
    }


def test_a_long_prompt_reads_from_its_start_and_pages(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(long_prompt()), store, width=100, height=30).start()
        lines = driver.lines()
        assert lines[5].startswith(" word1 word2 ")  # opens at the prompt's first line
        assert any(line.startswith("❯ 1. Alpha") for line in lines)  # the cursor row too
        assert lines[-1].startswith("─ ↓ ")
        await driver.press("pageDown")
        paged = driver.lines()
        assert paged[0].startswith("─ ↑ ") and "word1 " not in "\n".join(paged)
        assert any(line.startswith("❯ 1. Alpha") for line in paged)
        await driver.press("end")
        text = "\n".join(driver.lines())
        assert "word899" in text and "2. Beta" in text and "3. Type your own" in text
        await driver.press("home")
        assert driver.lines()[5].startswith(" word1 word2 ")
        await driver.press("ctrl+end", "ctrl+home")
        assert driver.lines()[5].startswith(" word1 word2 ")
        await driver.close()

    run(scenario())


def test_every_word_of_a_long_prompt_can_be_paged_to(store: SettingsStore) -> None:
    async def scenario() -> set[str]:
        driver = await Driver(state_for(long_prompt()), store, width=100, height=30).start()
        seen: set[str] = set()
        for _ in range(20):
            seen |= set("\n".join(driver.lines()).split())
            await driver.press("pageDown")
        await driver.close()
        return seen

    seen = run(scenario())
    assert {f"word{n}" for n in range(1, 900)} <= seen


@pytest.mark.parametrize("width", [80, 60], ids=["wide", "stacked"])
def test_the_review_of_twelve_answers_pages_under_its_actions(
    store: SettingsStore, width: int
) -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        driver = await Driver(state_for(twelve()), store, width=width, height=30).start()
        await driver.press(*["1"] * 12)  # answer all twelve: the review opens
        top = driver.lines()
        await driver.press("pageDown", "pageDown", "pageDown")
        bottom = driver.lines()
        await driver.close()
        return top, bottom

    top, bottom = run(scenario())
    for lines in (top, bottom):
        text = "\n".join(lines)
        assert "❯ 1. Submit" in text and "3. Cancel" in text
        assert "Press 1, 2, or 3 twice" in text
        assert len(lines) <= 30
    assert "Answer 1\n" in "\n".join(top) + "\n" and "Answer 12" not in "\n".join(top)
    assert "Answer 12" in "\n".join(bottom)
    assert top[-1].startswith("─ ↓ ") and bottom[0].startswith("─ ↑ ")


def test_the_cursor_row_stays_on_screen_when_the_page_moves_away(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for(long_prompt()), store, width=100, height=30).start()
        await driver.press("down", "pageUp", "pageUp")
        lines = driver.lines()
        cursor = next(i for i, line in enumerate(lines) if line.startswith("❯ 2. Beta"))
        assert lines[cursor - 1].startswith(" ↓ ") and lines[cursor - 1].endswith(" more")
        await driver.press("up")  # a cursor key: the window follows the cursor again
        lines = driver.lines()
        assert any(line.startswith("❯ 1. Alpha") for line in lines)
        assert not any(line.startswith(" ↓ ") for line in lines)
        await driver.close()

    run(scenario())


def test_below_the_smallest_size_one_line_asks_for_more_room(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, width=80, height=24).start()
        await driver.resize(80, 8)
        assert driver.lines() == ["Enlarge the terminal: pi-ask needs 20x10 (now 80x8)"]
        await driver.resize(80, 24)
        assert "❯ 1. Python" in "\n".join(driver.lines())
        await driver.close()

    run(scenario())


def test_the_body_is_rendered_once_per_key(
    store: SettingsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17: a preview taller than the free rows used to render the body twice."""
    renders: list[str] = []
    # The frame imports the review screen where it draws it, so it sees the patched one.
    for module, name in ((frame_module, "render_question"), (review_screen, "render_review")):
        real = getattr(module, name)

        def counting(*args: Any, _real: Any = real, _name: str = name) -> Any:
            renders.append(_name)
            return _real(*args)

        monkeypatch.setattr(module, name, counting)
    preview = {
        "questions": [
            {
                "id": "p",
                "type": "preview",
                "prompt": "Pick one",
                "options": [
                    {"value": v, "label": v, "preview": "\n".join(f"{v} {n}" for n in range(500))}
                    for v in ("a", "b")
                ],
            }
        ]
    }

    async def scenario() -> list[int]:
        driver = await Driver(state_for(preview), store, width=100, height=24).start()
        counts = []
        for key in ("down", "pageDown", "up", "pageDown", "pageUp", "right", "left"):
            before = len(renders)
            await driver.press(key)
            counts.append(len(renders) - before)
        await driver.close()
        return counts

    # PgDn on a box moves the box only: the body is drawn again, once.
    assert run(scenario()) == [1] * 7


def test_fit_counts_what_it_hides() -> None:
    lines = [span("", f"line {n}") for n in range(30)]
    window = fit(lines, (20, 20), 10, Scroll(0, follow=False))
    assert lines_text(window.lines)[-2:] == [" ↓ 12 more", "line 20"]
    assert (window.above, window.below) == (0, 9)
    followed = fit(lines, (20, 20), 10, Scroll(0, follow=True))
    assert lines_text(followed.lines)[-1] == "line 20" and followed.above == 11


def test_home_and_end_in_an_editor_move_its_text_cursor(store: SettingsStore) -> None:
    async def scenario() -> str:
        driver = await Driver(state_for("payload_a.json"), store, width=80, height=24).start()
        await driver.press("down", "down", "down", "text:abc", "home", "text:X", "end", "text:Y")
        text = driver.flow.editor_text()
        await driver.close()
        return text

    assert run(scenario()) == "XabcY"


def test_pgdn_on_a_small_review_moves_a_whole_page(store: SettingsStore) -> None:
    """At 40x12 the review's window has two rows: each PgDn moves both, not one line."""

    async def scenario() -> list[int]:
        driver = await Driver(state_for(twelve()), store, width=40, height=12).start()
        await driver.press(*["1"] * 12)
        hidden = []
        for _ in range(3):
            above = next(line for line in driver.lines() if line.startswith("─"))
            hidden.append(int(above.split()[2]) if "↑" in above else 0)
            await driver.press("pageDown")
        await driver.close()
        return hidden

    above = run(scenario())
    steps = [b - a for a, b in pairwise(above)]
    assert steps and all(step >= 2 for step in steps), above
