"""A prompt_toolkit control that draws lines from a render function, sized by the caller.

The frame and the overlay are drawn by pure functions of (width, height); this control
hands them prompt_toolkit's size and returns their lines, so only what fits is ever
produced (the preview box in particular formats just its visible rows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.controls import GetLinePrefixCallable, UIContent, UIControl

from pi_ask.faces.tui.styled_text import Line

Render = Callable[[int, int], Sequence[Line]]
Measure = Callable[[int, int], int]


class LinesControl(UIControl):
    """Draws ``render(width, height)``; asks ``measure(width, max_height)`` for its height."""

    def __init__(self, render: Render, measure: Measure, *, focusable: bool = True) -> None:
        self._render = render
        self._measure = measure
        self._focusable = focusable

    def is_focusable(self) -> bool:
        return self._focusable

    def preferred_height(
        self,
        width: int,
        max_available_height: int,
        wrap_lines: bool,
        get_line_prefix: GetLinePrefixCallable | None,
    ) -> int | None:
        return min(max_available_height, self._measure(width, max_available_height))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self._render(width, height)

        def get_line(index: int) -> StyleAndTextTuples:
            return list(lines[index]) if 0 <= index < len(lines) else []

        return UIContent(get_line=get_line, line_count=len(lines), show_cursor=False)
