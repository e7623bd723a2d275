"""Footer hints from the live keymaps (behaviour.md §7.8)."""

from __future__ import annotations

from pi_ask.faces.tui.footer import footer_text, wrap_footer
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.validation import resolve_keymaps


def test_default_footers() -> None:
    k = DEFAULT_KEYMAPS
    assert footer_text("single", k) == (
        " t question type · Enter confirm · N/Shift+N note · Esc dismiss · ? settings"
    )
    assert footer_text("multi", k) == (
        " Space toggle · t question type · Enter continue · N/Shift+N note · Esc dismiss"
        " · ? settings"
    )
    assert footer_text("review", k) == " 1..9 hotkeys · Enter confirm · Esc cancel · ? settings"
    assert footer_text("editor", k) == " Enter submit · Esc close · ? settings"
    assert footer_text("note_editor", k) == " Enter save · Esc close · ? settings"


def test_wrapping_examples() -> None:
    multi = footer_text("multi", DEFAULT_KEYMAPS)
    assert wrap_footer(multi, 26) == [
        " Space toggle", "t question type", "Enter continue", "N/Shift+N note",
        "Esc dismiss · ? settings",
    ]  # fmt: skip
    assert wrap_footer(footer_text("single", DEFAULT_KEYMAPS), 22) == [
        " t question type", "Enter confirm", "N/Shift+N note", "Esc dismiss", "? settings",
    ]  # fmt: skip
    assert wrap_footer(multi, 80)[1] == "? settings"


def test_remapped_keys_show_in_the_footer() -> None:
    resolution = resolve_keymaps(
        {"main": {"confirm": ["ctrl+k"], "change_question_type": "ctrl+t"}}
    )
    text = footer_text("single", resolution.keymaps)
    assert "ctrl+t question type" in text
    assert "Ctrl+K confirm" in text
