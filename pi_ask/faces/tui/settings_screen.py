"""Drawing the settings overlay (behaviour.md §10, screens S14-S16).

A rounded muted box: the title, where the config file is, the rows of ``SETTING_ROWS`` by
section, the focused row's description (always three lines), the load notice and the last
save error, and the footer from the ``settings_modal`` keymap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from pi_ask.faces.tui import glyphs, theme
from pi_ask.faces.tui.body import Body
from pi_ask.faces.tui.scrolling import Scroll, fit, more_label
from pi_ask.faces.tui.settings_rows import SETTING_ROWS, SettingRow
from pi_ask.faces.tui.styled_text import (
    EMPTY,
    Line,
    join,
    line_width,
    pad,
    span,
    take_width,
    text_width,
    truncate,
)
from pi_ask.faces.tui.wrapping import wrap_text
from pi_ask.i18n import N_, gettext
from pi_ask.keymaps.key_ids import keys_label
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.terminal_text import sanitize_block, sanitize_line

TITLE = N_("pi-ask settings")
INTRO = N_("Edit this config file to customize keymaps, notifications, and extraction settings:")
OVERLAY_WIDTH = 72
OVERLAY_MIN_WIDTH = 26
_COMPACT_INNER = 40
_DESCRIPTION_LINES = 3
_CLIP = "…"


class OverlayView(NamedTuple):
    """What the overlay shows.

    Attributes:
        values: Current value of every toggle (a choice row's: its text), by config key.
        focus: Index of the focused row in ``SETTING_ROWS``.
        reset_armed: The reset action waits for its confirming second press.
        config_path: The config file's absolute path.
        keymaps: The keymaps (for the footer).
        notice: The config-load notice, if any.
        notice_is_success: Draw the notice in accent instead of warning.
        error: The last save error, if any.
    """

    values: Mapping[str, bool | str]
    focus: int
    reset_armed: bool
    config_path: str
    keymaps: Keymaps
    notice: str | None = None
    notice_is_success: bool = False
    error: str | None = None


def _center(line: Line, width: int) -> Line:
    free = max(0, width - line_width(line))
    left = free // 2
    return join(span("", " " * left), line, span("", " " * (free - left)))


def _value(text: str, focused: bool) -> Line:
    style = f"{theme.ACCENT} {theme.SELECTED_BG} {theme.ACTIVE}" if focused else theme.MUTED
    return join(span(theme.DIM, "["), span(style, text), span(theme.DIM, "]"))


def _row_lines(row: SettingRow, view: OverlayView, focused: bool, inner: int) -> list[Line]:
    if row.kind == "reset":
        label = gettext("confirm reset") if view.reset_armed else gettext("reset all")
        return [_center(_value(label, focused), inner)]
    current = view.values.get(row.key, False)
    text = current if isinstance(current, str) else (gettext("on") if current else gettext("off"))
    value = _value(text, focused)
    prefix = span(theme.ACCENT, "❯ ") if focused else span("", "  ")
    label_width = max(1, inner - 2 - line_width(value) - 2)
    pieces = wrap_text(gettext(row.label), label_width)
    gap = " " * max(1, label_width - text_width(pieces[0]) + 1)
    first = join(prefix, span("", pieces[0] + gap), value)
    return [first, *(span("", "  " + piece) for piece in pieces[1:])]


def _indented(text: str, style: str, inner: int) -> list[Line]:
    return [span(style, " " + line) for line in wrap_text(text, inner - 2)]


class _Part(NamedTuple):
    """Overlay content: the head (title, intro, path), the setting rows, the tail."""

    head: list[Line]
    rows: list[Line]
    focus: tuple[int, int]
    tail: list[Line]


def _parts(view: OverlayView, inner: int, *, spacing: bool, description_lines: int) -> _Part:
    head: list[Line] = [_center(span(theme.ACCENT, gettext(TITLE)), inner)]
    head += [EMPTY] if spacing else []
    head += _indented(gettext(INTRO), theme.MUTED, inner)
    head += [
        _center(span(theme.ACCENT, p), inner)
        for p in wrap_text(sanitize_line(view.config_path), inner - 2)
    ]
    head += [EMPTY] if spacing else []
    rows: list[Line] = []
    focus = (0, 0)
    section = None
    for index, row in enumerate(SETTING_ROWS):
        if row.section != section:
            if section is not None and spacing:
                rows.append(EMPTY)
            rows.append(span(theme.ACCENT, " " + gettext(row.section)))
            section = row.section
        first = len(rows)
        rows += _row_lines(row, view, index == view.focus, inner)
        if index == view.focus:
            focus = (first, len(rows) - 1)
        if spacing and inner < _COMPACT_INNER and index < len(SETTING_ROWS) - 1:
            rows.append(EMPTY)
    tail: list[Line] = [EMPTY]
    description = gettext(SETTING_ROWS[view.focus].description)
    described = _indented(description, theme.MUTED, inner)[:description_lines]
    tail += described + [EMPTY] * (description_lines - len(described))
    if view.notice:
        style = theme.ACCENT if view.notice_is_success else theme.WARNING
        tail += [EMPTY, *_indented(sanitize_block(view.notice), style, inner)]
    if view.error:
        tail += [EMPTY, *_indented(sanitize_block(view.error), theme.ERROR, inner)]
    tail += [EMPTY, *_footer(view, inner)]
    return _Part(head, rows, focus, tail)


def _footer(view: OverlayView, inner: int, *, short: bool = False) -> list[Line]:
    """``Enter / Space to change · Esc / Ctrl+C / ? to close``; ``short``: first keys only."""
    change = view.keymaps.keys("settings_modal", "toggle")
    close = view.keymaps.keys("settings_modal", "close")
    if short:
        change, close = change[:1], close[:1]
    text = gettext("{change_keys} to change · {close_keys} to close").format(
        change_keys=keys_label(change), close_keys=keys_label(close)
    )
    return _indented(text, theme.DIM, inner)


def _boxed(
    content: list[Line], inner: int, width: int, up: str = "", down: str = ""
) -> tuple[Line, ...]:
    edge = span(theme.MUTED, glyphs.EDGE)

    def border(left: str, right: str, label: str) -> Line:
        head = f"{glyphs.RULE} {label} " if label else ""
        fill = glyphs.RULE * max(0, inner - text_width(head))
        return span(theme.MUTED, take_width(f"{left}{head}{fill}", inner + 1)[0] + right)

    lines = [border(glyphs.ROUND_TOP_LEFT, glyphs.ROUND_TOP_RIGHT, up)]
    lines += [join(edge, pad(truncate(line, inner, _CLIP), inner), edge) for line in content]
    lines.append(border(glyphs.ROUND_BOTTOM_LEFT, glyphs.ROUND_BOTTOM_RIGHT, down))
    return tuple(truncate(line, width) for line in lines)


def render_overlay(view: OverlayView, width: int) -> Body:
    """The overlay's lines for ``width`` columns, all of them (``fit_overlay`` fits a height).

    The focus is the focused row's lines.
    """
    inner = max(24, width - 2)
    part = _parts(view, inner, spacing=True, description_lines=_DESCRIPTION_LINES)
    lines = _boxed([*part.head, *part.rows, *part.tail], inner, width)
    start = 1 + len(part.head)
    return Body(lines, (part.focus[0] + start, part.focus[1] + start))


def fit_overlay(view: OverlayView, width: int, height: int) -> tuple[Line, ...]:
    """The overlay in at most ``height`` lines.

    Spacing goes first, then the description's padding to three lines (it takes the most
    any row's description needs), then the intro and the path shrink to one line each;
    then the setting rows scroll with the focused row in view, the borders saying
    ``↑ N more`` / ``↓ N more``. The title, the description, the messages (a save error
    above all) and the footer are shortened last, and
    never dropped: to what leaves the focused row room.
    """
    inner = max(24, width - 2)
    budget = max(3, height - 2)
    whole = _parts(view, inner, spacing=True, description_lines=_DESCRIPTION_LINES)
    if len(whole.head) + len(whole.rows) + len(whole.tail) <= budget:
        return _boxed([*whole.head, *whole.rows, *whole.tail], inner, width)
    tallest = max(len(_indented(row.description, theme.MUTED, inner)) for row in SETTING_ROWS)
    part = _parts(view, inner, spacing=False, description_lines=min(_DESCRIPTION_LINES, tallest))
    head, tail = part.head, [line for line in part.tail if line] or part.tail
    if len(head) + len(part.rows) + len(tail) <= budget:
        return _boxed([*head, *part.rows, *tail], inner, width)
    path = sanitize_line(view.config_path)
    if text_width(path) > inner - 2:  # the file's name is at the path's end: keep that
        path = _CLIP + path[len(path) - (inner - 3) :]
    head = [
        head[0],
        truncate(span(theme.MUTED, " " + INTRO), inner, _CLIP),
        _center(span(theme.ACCENT, path), inner),
    ]
    need = min(3, part.focus[1] - part.focus[0] + 1)  # the focused row, whole if it can be
    room = budget - len(head) - len(tail)
    if room < need:
        head = head[:1]
        footer = _footer(view, inner)
        tail = tail[: len(tail) - len(footer)] + _footer(view, inner, short=True)
        tail = _shortened_tail(tail, budget - len(head) - need, inner)
        room = max(1, budget - len(head) - len(tail))
    window = fit(part.rows, part.focus, room, Scroll())
    up = more_label("up", window.above) if window.above else ""
    down = more_label("down", window.below) if window.below else ""
    return _boxed([*head, *window.lines, *tail], inner, width, up, down)


def _one_line(lines: list[Line], inner: int) -> Line:
    """Two lines of one text as one line, cut with an ellipsis."""
    first, *rest = lines
    words = [(style, " " + text.strip()) for line in rest for style, text in line]
    return truncate(join(first, tuple(words)), inner, _CLIP)


def _shortened_tail(tail: list[Line], room: int, inner: int) -> list[Line]:
    """The description, messages and footer in ``room`` lines: each keeps a line at least,
    the description gives way first, a save error last."""
    groups: list[list[Line]] = []
    for line in tail:
        if groups and _kind(line) == _kind(groups[-1][0]):
            groups[-1].append(line)
        else:
            groups.append([line])
    order = sorted(range(len(groups)), key=lambda i: _KEEP.get(_kind(groups[i][0]), 0))
    while sum(map(len, groups)) > max(len(groups), room):
        index = next(i for i in order if len(groups[i]) > 1)
        groups[index] = [*groups[index][:-2], _one_line(groups[index][-2:], inner)]
    return [line for group in groups for line in group]


_KEEP = {theme.ERROR: 3, theme.WARNING: 2, theme.DIM: 1}


def _kind(line: Line) -> str:
    styles = {style for style, _ in line}
    return next((k for k in (theme.ERROR, theme.WARNING, theme.DIM) if k in styles), "")


def overlay_width(terminal_width: int) -> int:
    """The overlay's width in a terminal: 72 columns, a 1-column margin, at least 26."""
    return max(min(OVERLAY_WIDTH, terminal_width - 2), min(OVERLAY_MIN_WIDTH, terminal_width))
