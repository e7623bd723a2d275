"""The tab row and its fitting window (behaviour.md §7.2)."""

from __future__ import annotations

from pi_ask.faces.tui.styled_text import plain
from pi_ask.faces.tui.tab_row import render_tab_row
from pi_ask.state.selectors import TabState

FIVE = ("One", "Two", "Three", "Four", "Five")


def tabs(
    labels: tuple[str, ...], active: int, answered: frozenset[int] = frozenset()
) -> list[TabState]:
    out = [TabState(label, i in answered, i == active) for i, label in enumerate(labels)]
    return [*out, TabState("Review", False, active == len(labels), is_review=True)]


def test_all_tabs_when_they_fit() -> None:
    row = plain(render_tab_row(tabs(("One", "Two"), 0, frozenset({1})), 80))
    assert row == " ←  ☐ One   ☒ Two   ≡ Review  →"


def test_window_around_the_active_tab() -> None:
    for width in (28, 29, 30):
        assert plain(render_tab_row(tabs(FIVE, 2), width)) == " ←  ☐ Three   ☐ Four  →"
    for width in (31, 32):
        row = plain(render_tab_row(tabs(FIVE, 2), width))
        assert row == " ←  ☐ Two   ☐ Three   ☐ Four  →"


def test_review_alone_when_nothing_else_fits() -> None:
    assert plain(render_tab_row(tabs(("Alpha", "Beta", "Gamma"), 3), 24)) == " ←  ≡ Review  →"


def test_hostile_label_is_inert() -> None:
    row = plain(render_tab_row(tabs(("\x1b[31mred\u202e",), 0), 80))
    assert "\x1b" not in row and "<U+202E>" in row
