"""The tab row (behaviour.md §7.2): `` ←  ☐ One   ☒ Two   ≡ Review  →``.

The review tab's glyph is ``≡``, not the reference's ``☰``, whose width terminals disagree
on (see ``glyphs.py``).

When the tabs do not all fit, a window of neighbours around the active tab is shown,
growing one tab at a time and alternating sides; nothing marks the hidden tabs.
"""

from __future__ import annotations

from collections.abc import Sequence

from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.styled_text import Line, join, span, text_width, truncate
from pi_ask.state.selectors import TabState
from pi_ask.terminal_text import sanitize_line
from pi_ask.words import shown

_ARROWS_WIDTH = 5  # " ← " before the tabs and " →" after them


def tab_text(tab: TabState) -> str:
    """`` ☐ <label> `` for a question, `` ≡ Review `` for the review tab."""
    if tab.is_review:
        return f" {glyphs.TAB_REVIEW} {shown(tab.label)} "
    mark = glyphs.TAB_ANSWERED if tab.answered else glyphs.TAB_OPEN
    return f" {mark} {sanitize_line(tab.label)} "


def visible_range(widths: Sequence[int], active: int, available: int) -> tuple[int, int]:
    """First and last index (inclusive) of the tabs shown for ``available`` cells."""
    if sum(widths) + len(widths) - 1 <= available:
        return 0, len(widths) - 1
    start = end = active
    used = widths[active]
    prefer_right = active <= len(widths) - active - 1
    while True:
        sides = ("right", "left") if prefer_right else ("left", "right")
        for side in sides:
            index = end + 1 if side == "right" else start - 1
            if 0 <= index < len(widths) and used + 1 + widths[index] <= available:
                used += 1 + widths[index]
                start, end = (start, index) if side == "right" else (index, end)
                break
        else:
            return start, end
        prefer_right = not prefer_right


def _tab_style(tab: TabState) -> str:
    if tab.active:
        return f"{theme.TEXT} {theme.SELECTED_BG} {theme.ACTIVE}"
    return theme.SUCCESS if tab.answered or tab.is_review else theme.MUTED


def render_tab_row(tabs: Sequence[TabState], width: int) -> Line:
    """The tab row for ``width`` cells."""
    texts = [tab_text(tab) for tab in tabs]
    active = next((i for i, tab in enumerate(tabs) if tab.active), len(tabs) - 1)
    first, last = visible_range(
        [text_width(t) for t in texts], active, max(1, width - _ARROWS_WIDTH)
    )
    parts: list[Line] = []
    for index in range(first, last + 1):
        if parts:
            parts.append(span(theme.UNSTYLED, " "))
        parts.append(span(_tab_style(tabs[index]), texts[index]))
    row = join(
        span(theme.UNSTYLED, " "),
        span(theme.DIM, f"{glyphs.ARROW_LEFT} "),
        *parts,
        span(theme.DIM, f" {glyphs.ARROW_RIGHT}"),
    )
    return truncate(row, width)
