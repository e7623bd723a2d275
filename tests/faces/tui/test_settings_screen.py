"""The settings overlay drawing (behaviour.md §10, screens.md S15-S16)."""

from __future__ import annotations

import pytest

from pi_ask.faces.tui import settings_screen
from pi_ask.faces.tui.settings_rows import SETTING_ROWS
from pi_ask.faces.tui.settings_screen import OverlayView, overlay_width, render_overlay
from pi_ask.faces.tui.styled_text import line_width, lines_text
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from tests.faces.tui.driver import FIXTURES

REFERENCE_PATH = "/home/user/.pi/agent/extensions/eko24ive-pi-ask.json"
DEFAULTS = {
    "behaviour.auto_submit_when_answered_without_notes": False,
    "behaviour.confirm_dismiss_when_dirty": True,
    "behaviour.double_press_review_shortcuts": True,
    "notifications.enabled": True,
    "behaviour.show_footer_hints": True,
    "behaviour.present_single_as_multi": False,
    "theme.name": "dark",
    "ui.markdown": True,
    "ui.face": "tui",
    "behaviour.no_terminal": "answer",
    "inbox.tmux": "popup",
}
# Rows the reference does not have (python-port.md §11 adds them); S15/S16 show the others.
OUR_ROWS = ("ui.markdown", "theme.name", "ui.face", "behaviour.no_terminal", "inbox.tmux")


@pytest.fixture
def reference_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = tuple(row for row in SETTING_ROWS if row.key not in OUR_ROWS)
    monkeypatch.setattr(settings_screen, "SETTING_ROWS", rows)


def view(**changes: object) -> OverlayView:
    base: dict[str, object] = {
        "values": DEFAULTS,
        "focus": 0,
        "reset_armed": False,
        "config_path": REFERENCE_PATH,
        "keymaps": DEFAULT_KEYMAPS,
    }
    base.update(changes)
    return OverlayView(**base)  # type: ignore[arg-type]


def golden(name: str) -> list[str]:
    text = (FIXTURES / "screens" / f"{name}.txt").read_text(encoding="utf-8")
    return text.rstrip("\n").split("\n")


def test_overlay_at_72_columns_matches_s15(reference_rows: None) -> None:
    assert lines_text(render_overlay(view(), 72).lines) == golden("S15")


def test_overlay_at_28_columns_matches_s16(reference_rows: None) -> None:
    assert lines_text(render_overlay(view(), 28).lines) == golden("S16")


def test_choice_rows_show_their_value_in_their_section() -> None:
    lines = lines_text(render_overlay(view(), 72).lines)
    live, future = (
        lines.index("│ Live settings" + " " * 56 + "│"),
        lines.index("│ Defaults for future asks" + " " * 45 + "│"),
    )
    theme = next(i for i, line in enumerate(lines) if "Theme" in line)
    face = next(i for i, line in enumerate(lines) if "Terminal face" in line)
    assert live < theme < future < face
    assert lines[theme].endswith("[dark] │")
    assert lines[face].endswith("[tui] │")


def test_every_line_fits_at_any_width() -> None:
    for width in range(26, 100):
        body = render_overlay(view(notice="x " * 80, error="y " * 80), width)
        assert all(line_width(line) == max(26, width) for line in body.lines), width


def test_focused_value_and_reset_label() -> None:
    lines = lines_text(
        render_overlay(view(focus=len(SETTING_ROWS) - 1, reset_armed=True), 72).lines
    )
    (row,) = [line for line in lines if "[confirm reset]" in line]
    inside = row[1:-1]
    left, right = len(inside) - len(inside.lstrip()), len(inside) - len(inside.rstrip())
    assert right - left in (0, 1)
    assert not any("❯" in line for line in lines)
    described = [line for line in lines if "Press twice quickly" in line]
    assert described


def test_notice_then_error_after_the_description() -> None:
    lines = lines_text(
        render_overlay(view(notice="Loaded defaults.", error="Unable to save."), 72).lines
    )
    notice = lines.index("│ Loaded defaults." + " " * 53 + "│")
    assert lines[notice - 1] == "│" + " " * 70 + "│"
    assert lines[notice + 2].startswith("│ Unable to save.")


def test_overlay_width_in_a_terminal() -> None:
    assert overlay_width(80) == 72
    assert overlay_width(60) == 58
    assert overlay_width(28) == 26
    assert overlay_width(20) == 20
