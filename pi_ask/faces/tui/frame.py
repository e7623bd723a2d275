"""The whole ask-flow frame (behaviour.md §7.1), fitted to the terminal's size.

The frame is drawn from the state alone: rule, title, tab row, the question or review body,
the notice and the footer hints, rule. When the terminal is too short for all of it, the
preview box shrinks first (to the rows the rest of the frame leaves free, so a preview shows
as many lines whatever its total length), then the spacing and the title go, and then the
body scrolls (``scrolling.fit``): it follows the cursor row, or sits where PgUp/PgDn/Home/
End put it, and the rules above and below say ``↑ N more`` / ``↓ N more``. The tab row, the
notice, the footer hints and the review's hint and actions are never what is cut. A stacked
preview box too far below the cursor row for both to show is drawn under the cursor row; a
wide-layout box is drawn beside the part of the option column on screen. A terminal under
``MIN_COLUMNS`` x ``MIN_ROWS`` gets one line asking for a larger one.
"""

from typing import NamedTuple

from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.attaching import render_attach_prompt
from pi_ask.faces.tui.body import Body
from pi_ask.faces.tui.editor_view import AttachView, EditorView
from pi_ask.faces.tui.footer import FooterKind, footer_text, wrap_footer
from pi_ask.faces.tui.preview_pane import TOP, ScrollPosition, render_preview_box
from pi_ask.faces.tui.question_screen import PreviewWindow, place_preview, render_question
from pi_ask.faces.tui.scrolling import Scroll, Window, fit, more_label
from pi_ask.faces.tui.styled_text import (
    EMPTY,
    Line,
    join,
    span,
    take_width,
    text_width,
    truncate,
    two_columns,
)
from pi_ask.faces.tui.tab_row import render_tab_row
from pi_ask.faces.tui.wrapping import wrap_text
from pi_ask.i18n import gettext
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.state.dismissal import DISMISS_NOTICE
from pi_ask.state.model import AskState, Behaviour, EditAnswer, EditNote
from pi_ask.state.selectors import (
    answer_for,
    current_question,
    footer_notice,
    review_hint,
    tab_states,
)
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.words import dirty_guard, shown

_MIN_PREVIEW_ROWS = 3
MIN_COLUMNS = 20
MIN_ROWS = 10
# Spacing and the title go only when fewer body rows than this would be left.
_USEFUL_BODY_ROWS = 5
_MIN_BODY_ROWS = 3


class FlowView(NamedTuple):
    """Everything a frame is drawn from.

    Attributes:
        state: The engine state.
        behaviour: Live behaviour settings (footer hints, double-press hint).
        keymaps: Live keymaps (footer hints).
        editor: The open editor's text and cursor, when one is open.
        preview_scroll: Where the preview box's content starts.
        attach: The attach prompt, while it is open.
        attachable: Files can be attached (the footer names the attach key).
        face_notice: The face's own notice (an attach, a detach), shown once.
    """

    state: AskState
    behaviour: Behaviour
    keymaps: Keymaps
    editor: EditorView | None = None
    preview_scroll: ScrollPosition = TOP
    attach: AttachView | None = None
    attachable: bool = False
    face_notice: str | None = None


class Frame(NamedTuple):
    """A fitted frame.

    Attributes:
        lines: The rows to draw.
        scroll: Where the body's window ended up (kept for the next frame).
        page: Body lines the window shows (what PgUp/PgDn move by).
        total: The body's length.
        box: ``(width, content rows)`` of the preview box drawn, ``(0, 0)`` without one.
    """

    lines: tuple[Line, ...]
    scroll: Scroll = Scroll()
    page: int = 0
    total: int = 0
    box: tuple[int, int] = (0, 0)


def footer_kind(state: AskState, attaching: bool = False) -> FooterKind:
    """Which footer the state shows (``attaching``: the attach prompt is open)."""
    if attaching:
        return "attach"
    if isinstance(state.view, EditAnswer):
        return "editor"
    if isinstance(state.view, EditNote):
        return "note_editor"
    question = current_question(state)
    if question is None:
        return "review"
    return "multi" if question.type == "multi" else "single"


def render_body(view: FlowView, width: int) -> Body:
    """The body of the active tab (a preview box is left to be placed: ``place_preview``)."""
    state = view.state
    question = current_question(state)
    if question is None:
        # A flow opens on its first question, so the review screen loads when first drawn.
        from pi_ask.faces.tui.review_screen import render_review

        return render_review(state, width, review_hint(state, view.behaviour))
    window = PreviewWindow(scroll=view.preview_scroll)
    return render_question(state, question, width, view.editor, window)


def _rule(width: int, label: str = "") -> Line:
    """A full-width rule; ``label`` (a "more" marker) sits in it like in a box border."""
    width = max(1, width)
    head = f"{glyphs.RULE} {label} " if label else ""
    text = head + glyphs.RULE * max(0, width - text_width(head))
    return span(theme.ACCENT, take_width(text, width)[0])


def too_small(width: int, height: int) -> Line:
    """The one line drawn instead of a frame that cannot fit."""
    text = gettext("Enlarge the terminal: pi-ask needs {needed} (now {size})").format(
        needed=f"{MIN_COLUMNS}x{MIN_ROWS}", size=f"{width}x{height}"
    )
    return truncate(span(theme.WARNING, text), max(1, width))


def _bottom_lines(view: FlowView, width: int) -> tuple[list[Line], list[Line]]:
    """The notice lines and the hint lines."""
    notice = view.face_notice or footer_notice(view.state)
    if notice == DISMISS_NOTICE:
        # The engine's guard names the default keys; the live keymaps may differ.
        keys = view.keymaps
        notice = dirty_guard(keys.label("main", "cancel"), keys.label("global", "dismiss"))
    elif notice:
        notice = shown(notice)
    notices = (
        [span(theme.WARNING, line) for line in wrap_text(sanitize_block(notice), width)]
        if notice
        else []
    )
    if view.attach is not None:
        # The prompt sits with the notices: never cut, and it comes first when rows run out.
        notices = render_attach_prompt(view.attach, width) + notices
    hints: list[Line] = []
    if view.behaviour.show_footer_hints:
        kind = footer_kind(view.state, view.attach is not None)
        text = footer_text(kind, view.keymaps, _attach_hints(view))
        hints = [span(theme.DIM, line) for line in wrap_footer(text, width)]
    return notices, hints


def _attach_hints(view: FlowView) -> tuple[bool, bool]:
    """Whether the footer names the attach key, and the detach key (a file is attached)."""
    question = current_question(view.state)
    if not view.attachable or question is None:
        return False, False
    answer = answer_for(view.state, question.id)
    return True, answer is not None and bool(answer.attachments)


def render_frame(view: FlowView, width: int, height: int, *, scroll: Scroll | None = None) -> Frame:
    """The frame for a terminal ``width`` x ``height``.

    Args:
        view: What to draw.
        width: Terminal columns.
        height: Rows available.
        scroll: Where the body's window was (following the focus, or put by the page
            keys); by default it follows the focus from the top.
    """
    scroll = scroll or Scroll()
    if width < MIN_COLUMNS or height < MIN_ROWS:
        return Frame((too_small(width, height),), scroll)
    state = view.state
    title = (
        [truncate(span(f"{theme.ACCENT} {theme.BOLD}", " " + sanitize_line(state.title)), width)]
        if state.title
        else []
    )
    tabs = render_tab_row(tab_states(state), width)
    notices, hints = _bottom_lines(view, width)
    body = render_body(view, width)  # once: the preview box is sized and placed after

    def chrome(spacing: bool, with_title: bool) -> tuple[list[Line], list[Line]]:
        top: list[Line] = []
        if with_title and title:
            top += [*title, EMPTY] if spacing else title
        top += [tabs, EMPTY] if spacing else [tabs]
        bottom: list[Line] = []
        if notices or hints:
            bottom = ([EMPTY] if spacing else []) + notices + hints
        return top, bottom

    for spacing, with_title in ((True, True), (False, True), (False, False)):
        top, bottom = chrome(spacing, with_title)
        rows = height - 2 - len(top) - len(bottom)
        placed = _place_preview(body, rows)
        if len(placed.lines) + len(placed.pinned) <= rows:
            lines = (*_beside(placed.side, placed.lines, width), *placed.pinned)
            drawn = (_rule(width), *top, *lines, *bottom, _rule(width))
            return Frame(drawn, scroll, len(placed.lines), len(placed.lines), placed.box[:2])
        if rows - len(placed.pinned) >= _USEFUL_BODY_ROWS:
            break
    gap = [EMPTY] if spacing and (notices or hints) else []
    room = height - 2 - len(top) - len(gap) - _MIN_BODY_ROWS
    bottom = gap + _shortened(notices, hints, room, width)
    rows = max(1, height - 2 - len(top) - len(bottom))
    placed = _place_preview(body, rows)
    pinned = _shortened_pinned(placed.pinned, rows, width)
    window = fit(placed.lines, placed.focus, max(1, rows - len(pinned)), scroll)
    window, box = _box_in_window(body, placed, window)
    lines = (*_beside(placed.side, window.lines, width), *pinned)
    up = more_label("up", window.above) if window.above else ""
    down = more_label("down", window.below) if window.below else ""
    drawn = (_rule(width, up), *top, *lines, *bottom, _rule(width, down))
    resolved = scroll._replace(offset=window.offset)
    return Frame(drawn[:height], resolved, window.rows, len(placed.lines), box)


def _shortened(notices: list[Line], hints: list[Line], room: int, width: int) -> list[Line]:
    """The notice and hint lines in at most ``room`` rows: the notice gives way first."""
    if len(notices) + len(hints) <= room:
        return notices + hints
    keep = max(1, room - len(hints)) if notices else 0
    if keep < len(notices):
        last = notices[keep - 1]
        notices = [*notices[: keep - 1], truncate(join(last, span("", " " * width)), width)]
    return (notices + hints)[: max(1, room)]


def _shortened_pinned(pinned: tuple[Line, ...], rows: int, width: int) -> tuple[Line, ...]:
    """The pinned lines in ``rows`` less what the scrolled part needs: blank lines go
    first, then the last lines give way to one ending in an ellipsis."""
    if rows - len(pinned) >= _MIN_BODY_ROWS:
        return pinned
    kept = tuple(line for line in pinned if line)
    room = rows - 1  # one row at least for what scrolls
    if len(kept) <= room:
        return kept
    room = max(1, room)
    last = truncate(join(kept[room - 1], span("", " " * width)), width)
    return (*kept[: room - 1], last)


def _place_preview(body: Body, rows: int) -> Body:
    """``body`` with its preview box sized to the ``rows`` the body gets."""
    slot = body.preview
    if slot is None:
        return body
    # The box gets every row the rest of the body leaves free. Sized from the rows outside
    # it, not from the body's overflow: in the wide layout the option column beside the
    # box may be what overflows, and shrinking the box would not help.
    outside = len(body.lines) - len(slot.column) + len(body.pinned)
    placed = place_preview(body, max(_MIN_PREVIEW_ROWS, rows - outside - 2))
    if len(placed.lines) <= rows:
        return placed
    if slot.column:
        return placed._replace(focus=_with_block_rows(placed, slot.at, len(placed.lines)))
    # The body scrolls: give the box the rows under the cursor row, so both show; when
    # the option list between them is too long, the box opens under the cursor row.
    for compact in (False, True):
        probe = place_preview(body, 1, compact=compact)
        assert probe.focus is not None
        room = rows - (probe.focus[1] - probe.focus[0])
        if room >= 1 or compact:
            return place_preview(body, max(1, room), compact=compact)
    return placed  # pragma: no cover - the loop returns


def _with_block_rows(placed: Body, start: int, end: int) -> tuple[int, int] | None:
    """The focus, grown to three rows of the wide block so a box fits beside what shows."""
    focus = placed.focus
    if focus is None:
        return None
    first, last = focus
    while last - first < 2 and (last + 1 < end or first > start):
        if last + 1 < end:
            last += 1
        else:
            first -= 1
    return first, last


def _box_in_window(body: Body, placed: Body, window: Window) -> tuple[Window, tuple[int, int]]:
    """The window with a wide-layout box drawn beside the block rows it shows.

    The option column beside the box may be taller than the window: the box then moves to
    the longest run of block rows on screen (the one with the cursor row when there are
    two, around a pinned focus), and is left out when no run has three rows. Also returns
    the box's ``(width, content rows)`` as shown (``(0, 0)`` when there is none).
    """
    slot = body.preview
    if slot is None:
        return window, (0, 0)
    if not slot.column:
        return _stacked_box_in_window(body, placed, window)
    height = len(placed.lines) - (len(body.lines) - len(slot.column))
    start, end = slot.at, slot.at + height
    runs: list[list[int]] = []
    for index in window.indexes:
        if start <= index < end and runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        elif start <= index < end:
            runs.append([index])
    if len(runs) == 1 and len(runs[0]) == height:
        return window, placed.box[:2]  # the block is whole on screen
    focus = placed.focus[0] if placed.focus is not None else -1
    run = max(runs, key=lambda r: (focus in r, len(r)), default=[])
    rows = len(run) - 2 if len(run) >= 3 else 0
    top = run[0] - start if rows else 0
    moved = place_preview(body, rows, top=top, height=height)
    lines = tuple(
        moved.lines[index] if index >= 0 else line
        for index, line in zip(window.indexes, window.lines, strict=True)
    )
    return window._replace(lines=lines), moved.box[:2]


def _stacked_box_in_window(
    body: Body, placed: Body, window: Window
) -> tuple[Window, tuple[int, int]]:
    """A stacked box cut by the window is drawn again in the rows of it on screen.

    The box keeps its place in the body; its rows on the page (the longest run of them)
    get a whole box of that height, so no box is drawn without its borders, and a run of
    fewer than three rows is left blank. Only a whole box is reported as shown: PgUp/PgDn
    scroll a box the cursor brought into view, and page the body past a cut one.
    """
    width, rows, first = placed.box
    end = first + rows + 2
    runs: list[list[int]] = []  # positions in the window of the box's rows on screen
    for position, index in enumerate(window.indexes):
        if first <= index < end and runs and runs[-1][-1] == position - 1:
            runs[-1].append(position)
        elif first <= index < end:
            runs.append([position])
    if len(runs) == 1 and len(runs[0]) == end - first:
        return window, (width, rows)  # whole on screen
    if not runs:
        return window, (0, 0)
    slot = body.preview
    assert slot is not None
    run = max(runs, key=len)
    box: tuple[Line, ...] = ()
    if len(run) >= 3:
        drawn = render_preview_box(slot.option, slot.box_width, len(run) - 2, slot.scroll)
        box = tuple(truncate(line, slot.width) for line in drawn)
    lines = list(window.lines)
    for other in runs:
        for position in other:
            lines[position] = EMPTY
    for position, line in zip(run, box, strict=False):
        lines[position] = line
    return window._replace(lines=tuple(lines)), (0, 0)


def _beside(
    side: tuple[tuple[Line, ...], int] | None, lines: tuple[Line, ...], width: int
) -> tuple[Line, ...]:
    """``lines`` with the ``side`` column (the wide review's actions) beside their top."""
    if side is None:
        return lines
    column, left = side
    return tuple(two_columns(column, left, lines, width))
