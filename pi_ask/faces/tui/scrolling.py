"""The one scrolling model of the TUI: which lines of a body a window of ``rows`` shows.

A body (a question, the review, the settings overlay's rows) may be taller than the rows
it gets. The window either follows the focus (the cursor row and what is open under it),
moving as little as possible from where it was, or sits where the page keys put it. When
the page keys move the window away from the focus, the focus lines stay on screen at the
window's edge, with a line saying how many lines lie between: the cursor row is always
visible (when the window is too short for all of the focus, its first line). What the
window hides above and below is counted, so the frame can say "↑ N more" / "↓ N more".
"""

from collections.abc import Sequence
from typing import NamedTuple

from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.styled_text import Line, span
from pi_ask.i18n import ngettext

Focus = tuple[int, int] | None


class Scroll(NamedTuple):
    """Where a body's window should be: ``offset`` (first line), following the focus or not.

    ``opening``: a screen's first frame, shown from its top when the focus can be pinned
    whole under it, and following the focus otherwise.
    """

    offset: int = 0
    follow: bool = True
    opening: bool = False


class Window(NamedTuple):
    """What a window shows.

    Attributes:
        lines: The rows to draw, at most the rows asked for.
        offset: Index of the first body line of the scrolled part.
        rows: Body lines the scrolled part shows (fewer than ``lines`` when focus is pinned).
        above: Body lines hidden above the first row drawn.
        below: Body lines hidden below the last row drawn.
        indexes: The body index of each row drawn (-1 for the gap line of a pinned focus).
    """

    lines: tuple[Line, ...]
    offset: int
    rows: int
    above: int = 0
    below: int = 0
    indexes: tuple[int, ...] = ()


def more_label(direction: str, count: int) -> str:
    """``↑ 3 more`` / ``↓ 3 more``."""
    arrow = glyphs.ARROW_UP if direction == "up" else glyphs.ARROW_DOWN
    return f"{arrow} " + ngettext("{count} more", "{count} more", count).format(count=count)


def follow_offset(focus: Focus, total: int, rows: int, previous: int) -> int:
    """The offset that shows ``focus``, moving as little as possible from ``previous``.

    A focus taller than ``rows`` shows its last lines: an editor's, where the typing is.
    """
    most = max(0, total - rows)
    offset = max(0, min(previous, most))
    if focus is None:
        return offset
    first, last = focus
    offset = max(min(offset, first), last - rows + 1)
    return max(0, min(offset, most))


def fit(lines: Sequence[Line], focus: Focus, rows: int, scroll: Scroll) -> Window:
    """The window of ``rows`` rows over ``lines``.

    Args:
        lines: The body's lines.
        focus: ``(first, last)`` line indexes to keep on screen, or ``None``.
        rows: Rows the window has (at least one is used).
        scroll: Where the window should be.
    """
    rows = max(1, rows)
    total = len(lines)
    if total <= rows:
        return Window(tuple(lines), 0, total, indexes=tuple(range(total)))
    if scroll.follow:
        return _following(lines, focus, rows, scroll.offset)
    offset = max(0, min(scroll.offset, total - rows))
    if focus is None:
        return _plain(lines, offset, rows)
    first, last = focus
    whole = offset <= first and last < offset + rows
    if scroll.opening and not whole and last - first + 1 > rows - 2:
        return _following(lines, focus, rows, 0)
    if offset <= first < offset + rows:
        return _plain(lines, offset, rows)  # the cursor row shows (and what fits under it)
    if last - first + 1 > rows - 2 or first < offset <= last:
        # No room for the whole focus beside the page, or part of it is on the page: pin
        # the cursor row's first line (what opens under it comes back with the cursor).
        last = first
    pinned = tuple(lines[first : last + 1])
    shown = rows - len(pinned) - 1
    if first >= offset + rows:  # below the page
        offset = min(offset, first - shown)
        hidden = first - offset - shown
        if hidden <= 0:
            return _following(lines, focus, rows, offset)
        gap = span(theme.DIM, " " + more_label("down", hidden))
        part = tuple(lines[offset : offset + shown])
        below = total - first - len(pinned)
        indexes = (*range(offset, offset + shown), -1, *range(first, first + len(pinned)))
        return Window((*part, gap, *pinned), offset, shown, offset, below, indexes)
    # Above the page: the page may run on to the body's end under the pinned lines.
    offset = max(offset, min(scroll.offset, total - shown))
    hidden = offset - last - 1
    if hidden <= 0:
        return _plain(lines, first, rows)
    shown = min(shown, total - offset)
    gap = span(theme.DIM, " " + more_label("up", hidden))
    part = tuple(lines[offset : offset + shown])
    indexes = (*range(first, first + len(pinned)), -1, *range(offset, offset + shown))
    below = total - offset - shown
    return Window((*pinned, gap, *part), offset, shown, first, below, indexes)


def _following(lines: Sequence[Line], focus: Focus, rows: int, previous: int) -> Window:
    if focus is not None and focus[1] - focus[0] + 1 > rows:
        if rows < 3:
            return _plain(lines, focus[0], rows)  # no room for more than its first lines
        return _tall_focus(lines, focus, rows)
    return _plain(lines, follow_offset(focus, len(lines), rows, previous), rows)


def _tall_focus(lines: Sequence[Line], focus: tuple[int, int], rows: int) -> Window:
    """A focus taller than the window: its first line, a gap line, and its last lines
    (the cursor row's label, and the end of what is open under it, where the typing is)."""
    first, last = focus
    shown = rows - 2
    offset = last - shown + 1
    gap = span(theme.DIM, " " + more_label("up", offset - first - 1))
    part = tuple(lines[offset : last + 1])
    indexes = (first, -1, *range(offset, last + 1))
    return Window((lines[first], gap, *part), offset, shown, first, len(lines) - last - 1, indexes)


def _plain(lines: Sequence[Line], offset: int, rows: int) -> Window:
    part = tuple(lines[offset : offset + rows])
    indexes = tuple(range(offset, offset + len(part)))
    return Window(part, offset, len(part), offset, len(lines) - offset - len(part), indexes)
