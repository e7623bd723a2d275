"""Where the flow meets prompt_toolkit's layout: sizes asked, frames and overlay drawn.

prompt_toolkit asks a control for its height and then for its content, often more than
once per redraw; the frame is cached so a key renders it once. The canvas also keeps where
the body's window is: it follows the focus after every engine command and moves with the
page keys (``page``, ``to_edge``). The settings overlay is a float over the frame, centred,
72 columns wide (less in a narrow terminal) and fitted to the terminal's height
(``settings_screen.fit_overlay``); while it is open the frame is at least as tall as it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.data_structures import Size

from pi_ask.faces.tui.frame import (
    MIN_COLUMNS,
    MIN_ROWS,
    FlowView,
    Frame,
    render_frame,
    too_small,
)
from pi_ask.faces.tui.hyperlinks import hyperlinks_on, with_hyperlinks
from pi_ask.faces.tui.scrolling import Scroll
from pi_ask.faces.tui.styled_text import Line, clear_split_cells

if TYPE_CHECKING:
    from pi_ask.faces.tui.settings_panel import SettingsPanel


class FlowCanvas:
    """Draws the flow for prompt_toolkit.

    Args:
        view: Returns what to draw now.
        panel: Returns the open settings panel, if any.
        terminal_size: Returns the terminal's size.
    """

    def __init__(
        self,
        view: Callable[[], FlowView],
        panel: Callable[[], SettingsPanel | None],
        terminal_size: Callable[[], Size],
    ) -> None:
        self._view = view
        self._panel = panel
        self._size = terminal_size
        self._cached: tuple[FlowView, int, int, Frame] | None = None
        self._linked: tuple[Frame, tuple[Line, ...]] | None = None  # a frame, with its links
        self._scroll = Scroll(0, follow=False, opening=True)
        self._page = 0
        self._total = 0
        self.box: tuple[int, int] = (0, 0)

    def frame(self, width: int, height: int) -> Frame:
        """The frame for ``width`` x ``height`` (cached while nothing changed)."""
        size = self._size()
        if size.columns < MIN_COLUMNS or size.rows < MIN_ROWS:
            # Measured by the terminal: the control may be given a single row for it.
            return Frame((too_small(size.columns, size.rows),))
        view = self._view()
        if self._cached is not None:
            cached_view, cached_width, cached_height, frame = self._cached
            drawn = len(frame.lines)
            # A frame that fitted with room to spare is the same at any height it fits in.
            fits = drawn <= height and (drawn < cached_height or height == cached_height)
            if cached_width == width and fits and cached_view == view:
                return frame
        frame = render_frame(view, width, height, scroll=self._scroll)
        self._cached = (view, width, height, frame)
        self._scroll, self._page, self._total = frame.scroll, frame.page, frame.total
        self.box = frame.box  # the preview box's (width, rows): what its PgDn moves by
        return frame

    def forget(self) -> None:
        """Draw the next frame afresh: what it is drawn with changed, not the view (the
        Markdown parser loaded, ``[ui] markdown`` toggled)."""
        self._cached = None

    # --- the body's window ------------------------------------------------------------------

    def follow(self, *, from_top: bool = False) -> None:
        """Let the window follow the focus again; ``from_top``: a new tab, shown from its top.

        A new tab opens at its first line (a long prompt reads from its start) with the
        focus pinned at the bottom; the next command makes the window follow it.
        """
        if from_top:
            self._move(Scroll(0, follow=False, opening=True))
        else:
            self._move(Scroll(self._scroll.offset, follow=True))

    def page(self, pages: int) -> None:
        """Move the window by ``pages`` pages.

        A page keeps one line of the last in view, except on a window of three rows or
        fewer (the review's at 40x12), where that line would make each PgDn move one line.
        """
        step = self._page - 1 if self._page > 3 else max(1, self._page)
        self._move(Scroll(max(0, self._scroll.offset + pages * step), follow=False))

    def to_edge(self, bottom: bool) -> None:
        """Move the window to the body's top or bottom."""
        self._move(Scroll(self._total if bottom else 0, follow=False))

    def _move(self, scroll: Scroll) -> None:
        if scroll != self._scroll:
            self._scroll = scroll
            self._cached = None

    def render_frame(self, width: int, height: int) -> tuple[Line, ...]:
        frame = self.frame(width, height)
        if self._panel() is None:
            # Under the overlay no link is opened: its cells would carry it onto the panel.
            return self._with_hyperlinks(frame, width) if hyperlinks_on() else frame.lines
        # The overlay floats centred over the frame: no two-cell character may straddle its
        # edges (prompt_toolkit centres a float at (width - its width) // 2).
        from pi_ask.faces.tui.settings_screen import overlay_width

        left = (width - overlay_width(self._size().columns)) // 2
        cuts = frozenset({left, left + overlay_width(self._size().columns)})
        return tuple(clear_split_cells(line, cuts) for line in frame.lines)

    def _with_hyperlinks(self, frame: Frame, width: int) -> tuple[Line, ...]:
        """``frame``'s lines with their links, made again only with the frame (a cached
        frame is only ever drawn at the width it was made for)."""
        if self._linked is None or self._linked[0] is not frame:
            self._linked = (frame, with_hyperlinks(frame.lines, width))
        return self._linked[1]

    def measure_frame(self, width: int, max_height: int) -> int:
        height = len(self.frame(width, max_height).lines)
        if self._panel() is not None:
            height = max(height, self._overlay_lines(width, max_height))
        return height

    def _overlay_lines(self, terminal_width: int, max_height: int) -> int:
        panel = self._panel()
        if panel is None:
            return 0
        # Imported on first use: most flows never open the overlay.
        from pi_ask.faces.tui.settings_screen import fit_overlay, overlay_width

        rows = min(self._size().rows, max_height)
        return len(fit_overlay(panel.view(), overlay_width(terminal_width), rows))

    def overlay_width(self) -> int:
        # prompt_toolkit asks on every frame; while no overlay is open it draws nothing at any
        # width, and settings_screen (~1.5 ms to import) can wait until one opens.
        if self._panel() is None:
            return 0
        from pi_ask.faces.tui.settings_screen import overlay_width

        return overlay_width(self._size().columns)

    def overlay_height(self) -> int:
        size = self._size()
        return self._overlay_lines(size.columns, size.rows)

    def measure_overlay(self, width: int, max_height: int) -> int:
        return self._overlay_lines(width + 2, max_height)

    def render_overlay(self, width: int, height: int) -> tuple[Line, ...]:
        panel = self._panel()
        if panel is None:
            return ()
        from pi_ask.faces.tui.settings_screen import fit_overlay

        return fit_overlay(panel.view(), width, height)
