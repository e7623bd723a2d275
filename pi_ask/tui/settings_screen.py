"""Drawing the settings overlay (behaviour.md §10, screens S14-S16).

A rounded muted box: the title, where the config file is, the rows of ``SETTING_ROWS`` by
section, the focused row's description (always three lines), the load notice and the last
save error, and the footer from the ``settings_modal`` keymap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from pi_ask.keymaps.keymap import Keymaps
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.tui import theme
from pi_ask.tui.body import Body
from pi_ask.tui.settings_rows import SETTING_ROWS, SettingRow
from pi_ask.tui.styled_text import EMPTY, Line, join, line_width, pad, span, truncate
from pi_ask.tui.wrapping import wrap_text

TITLE = "pi-ask settings"
INTRO = "Edit this config file to customize keymaps, notifications, and extraction settings:"
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
        label = "confirm reset" if view.reset_armed else "reset all"
        return [_center(_value(label, focused), inner)]
    current = view.values.get(row.key, False)
    text = current if isinstance(current, str) else ("on" if current else "off")
    value = _value(text, focused)
    prefix = span(theme.ACCENT, "❯ ") if focused else span("", "  ")
    label_width = max(1, inner - 2 - line_width(value) - 2)
    pieces = wrap_text(row.label, label_width)
    gap = " " * max(1, label_width - len(pieces[0]) + 1)
    first = join(prefix, span("", pieces[0] + gap), value)
    return [first, *(span("", "  " + piece) for piece in pieces[1:])]


def _indented(text: str, style: str, inner: int) -> list[Line]:
    return [span(style, " " + line) for line in wrap_text(text, inner - 2)]


def render_overlay(view: OverlayView, width: int) -> Body:
    """The overlay's lines for ``width`` columns; the focus is the focused row's lines."""
    inner = max(24, width - 2)
    content: list[Line] = [_center(span(theme.ACCENT, TITLE), inner), EMPTY]
    content += _indented(INTRO, theme.MUTED, inner)
    content += [
        _center(span(theme.ACCENT, p), inner)
        for p in wrap_text(sanitize_line(view.config_path), inner - 2)
    ]
    content.append(EMPTY)
    focus = (0, 0)
    section = None
    for index, row in enumerate(SETTING_ROWS):
        if row.section != section:
            if section is not None:
                content.append(EMPTY)
            content.append(span(theme.ACCENT, " " + row.section))
            section = row.section
        first = len(content)
        content += _row_lines(row, view, index == view.focus, inner)
        if index == view.focus:
            focus = (first, len(content) - 1)
        if inner < _COMPACT_INNER and index < len(SETTING_ROWS) - 1:
            content.append(EMPTY)
    content.append(EMPTY)
    description = SETTING_ROWS[view.focus].description
    described = _indented(description, theme.MUTED, inner)[:_DESCRIPTION_LINES]
    content += described + [EMPTY] * (_DESCRIPTION_LINES - len(described))
    if view.notice:
        style = theme.ACCENT if view.notice_is_success else theme.WARNING
        content += [EMPTY, *_indented(sanitize_block(view.notice), style, inner)]
    if view.error:
        content += [EMPTY, *_indented(sanitize_block(view.error), theme.ERROR, inner)]
    change = view.keymaps.label("settings_modal", "toggle")
    close = view.keymaps.label("settings_modal", "close")
    content += [EMPTY, *_indented(f"{change} to change · {close} to close", theme.DIM, inner)]
    edge = span(theme.MUTED, "│")
    lines = [span(theme.MUTED, f"╭{'─' * inner}╮")]
    lines += [join(edge, pad(truncate(line, inner, _CLIP), inner), edge) for line in content]
    lines.append(span(theme.MUTED, f"╰{'─' * inner}╯"))
    return Body(tuple(truncate(line, width) for line in lines), (focus[0] + 1, focus[1] + 1))


def overlay_width(terminal_width: int) -> int:
    """The overlay's width in a terminal: 72 columns, a 1-column margin, at least 26."""
    return max(min(OVERLAY_WIDTH, terminal_width - 2), min(OVERLAY_MIN_WIDTH, terminal_width))
