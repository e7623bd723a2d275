"""``Body``: the lines between the tab row and the footer, and which of them must stay seen."""

from __future__ import annotations

from typing import NamedTuple

from pi_ask.contract.payload import Option
from pi_ask.tui.styled_text import Line


class BoxBeside(NamedTuple):
    """A wide-layout preview block: the option column with the box beside it.

    Kept with the body so the box can be drawn again beside the rows that stay on screen
    once the frame knows where the body scrolls to (the column may be taller than the
    screen; the box must not scroll away with it).

    Attributes:
        start: Body index of the block's first line.
        height: Lines the block takes in the body.
        column: The option column's lines.
        left: The option column's width.
        width: The body's width.
        option: The option whose preview the box shows.
        box_width: The box's width.
        scroll: First preview paragraph shown.
    """

    start: int
    height: int
    column: tuple[Line, ...]
    left: int
    width: int
    option: Option | None
    box_width: int
    scroll: int


class Body(NamedTuple):
    """A screen body.

    Attributes:
        lines: The lines, top to bottom.
        focus: ``(first, last)`` line indexes (inclusive) to keep in view when the terminal
            is too short for everything: the cursor row and whatever is open under it.
        box_rows: Content rows drawn in a preview box (0 without one), so a frame that is
            too tall knows how far the box can shrink.
        outside_box: Body lines the box shares no row with (0 without one): those above and
            below its block and, in the stacked layout, the option list over it. A box of
            ``r`` content rows makes the body ``outside_box + r + 2`` lines tall (more only
            when the option column beside a wide-layout box is taller), so the frame sizes
            the box from the rows it has free, not from the preview's length.
        beside: The wide-layout block the box is drawn in, when there is one.
    """

    lines: tuple[Line, ...]
    focus: tuple[int, int] = (0, 0)
    box_rows: int = 0
    outside_box: int = 0
    beside: BoxBeside | None = None
