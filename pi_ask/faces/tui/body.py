"""What a screen renderer hands the frame: a ``Body`` of lines and how it may scroll.

The frame fits the body into the rows the terminal leaves it (``scrolling.fit``). Parts
that must never scroll away are kept apart: ``pinned`` lines (the review's actions when
stacked, the double-press hint) go under the scrolled part, ``side`` lines (the review's
actions in the wide layout) beside its top rows. A preview question's box is not drawn by
the renderer but described by a ``PreviewSlot``: the frame knows how many rows are free
only once the body is drawn, and sizing the box afterwards keeps it to one body render per
key.
"""

from typing import NamedTuple

from pi_ask.contract.payload import Option
from pi_ask.faces.tui.preview_pane import ScrollPosition
from pi_ask.faces.tui.styled_text import Line


class PreviewSlot(NamedTuple):
    """Where a preview box goes in a question body, to be sized by the frame.

    Attributes:
        at: Body index of the block the box is part of: the first line after the option
            list's blank line (stacked), or the option column's first line (wide).
        column: The option column beside the box (wide layout); ``()`` when stacked.
        left: The option column's width (wide layout).
        width: The body's width.
        option: The option whose preview the box shows.
        box_width: The box's width.
        scroll: Where the box's content starts.
        cursor: ``(first, label_end)``: body indexes of the cursor row's first line and of
            the line after its label (stacked layout), where a compact layout puts the box.
        subtitle: Lines of the cursor row's description, left out when the box is put
            under the cursor row (the box shows the description itself).
    """

    at: int
    column: tuple[Line, ...]
    left: int
    width: int
    option: Option | None
    box_width: int
    scroll: ScrollPosition
    cursor: tuple[int, int] = (0, 0)
    subtitle: int = 0


class Body(NamedTuple):
    """A screen body.

    Attributes:
        lines: The lines that scroll, top to bottom.
        focus: ``(first, last)`` line indexes (inclusive) always kept on screen: the
            cursor row and whatever is open under it; ``None`` when nothing in ``lines``
            needs to be (the review list, whose actions are pinned or beside it).
        preview: The preview box still to be placed, when there is one.
        side: Lines drawn beside the top rows of the window and their width (wide review).
        pinned: Lines drawn under the scrolled part, never scrolled.
        box: ``(width, content rows, first line)`` of the preview box drawn in ``lines``,
            ``(0, 0, 0)`` without one.
    """

    lines: tuple[Line, ...]
    focus: tuple[int, int] | None = (0, 0)
    preview: PreviewSlot | None = None
    side: tuple[tuple[Line, ...], int] | None = None
    pinned: tuple[Line, ...] = ()
    box: tuple[int, int, int] = (0, 0, 0)
