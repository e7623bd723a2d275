"""Every non-ASCII glyph the TUI draws, in one table.

Terminals do not agree on the width of every character: the Unicode 16 tables of the
``wcwidth`` package (which prompt_toolkit and pyte use) made U+2630-2637 wide, while glibc's
``wcwidth()`` and tmux 3.3 still draw them one cell wide, so a layout measured with one table
comes out wrong on the other. Each glyph below is one cell in all three (``tests/faces/tui/
test_glyphs.py`` checks the ``wcwidth`` package and glibc; ``tests/e2e/test_tmux_sizes.py``
checks tmux), and renderers draw no other non-ASCII character of their own.
"""

from __future__ import annotations

TAB_OPEN = "☐"  # a question not answered yet
TAB_ANSWERED = "☒"
TAB_REVIEW = "≡"  # not ☰ (U+2630): wide in Unicode 16, narrow in glibc and tmux
POINTER = "❯"
ARROW_LEFT = "←"
ARROW_RIGHT = "→"
ARROW_UP = "↑"
ARROW_DOWN = "↓"
DOT = "·"
CLIP = "…"
RULE = "─"
EDGE = "│"
TABLE_CROSS = "┼"  # a Markdown table's header rule meets a column gap
BULLET = "•"  # a Markdown list item
BOX_TOP_LEFT, BOX_TOP_RIGHT = "┌", "┐"
BOX_BOTTOM_LEFT, BOX_BOTTOM_RIGHT = "└", "┘"
ROUND_TOP_LEFT, ROUND_TOP_RIGHT = "╭", "╮"
ROUND_BOTTOM_LEFT, ROUND_BOTTOM_RIGHT = "╰", "╯"

ALL: tuple[str, ...] = (
    TAB_OPEN,
    TAB_ANSWERED,
    TAB_REVIEW,
    POINTER,
    ARROW_LEFT,
    ARROW_RIGHT,
    ARROW_UP,
    ARROW_DOWN,
    DOT,
    CLIP,
    RULE,
    EDGE,
    TABLE_CROSS,
    BULLET,
    BOX_TOP_LEFT,
    BOX_TOP_RIGHT,
    BOX_BOTTOM_LEFT,
    BOX_BOTTOM_RIGHT,
    ROUND_TOP_LEFT,
    ROUND_TOP_RIGHT,
    ROUND_BOTTOM_LEFT,
    ROUND_BOTTOM_RIGHT,
)
