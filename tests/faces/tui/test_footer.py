"""Footer hints from the live keymaps (behaviour.md §7.8)."""

from __future__ import annotations

from pi_ask.faces.tui.footer import footer_text, wrap_footer
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.validation import resolve_keymaps


def test_default_footers() -> None:
    k = DEFAULT_KEYMAPS
    assert footer_text("single", k) == (
        " t question type · Enter confirm · n/Shift+N note · Esc cancel · ? settings"
    )
    assert footer_text("multi", k) == (
        " Space toggle · t question type · Enter continue · n/Shift+N note · Esc cancel"
        " · ? settings"
    )
    assert footer_text("review", k) == " 1..9 hotkeys · Enter confirm · Esc cancel · ? settings"
    assert footer_text("editor", k) == " Enter submit · Esc close · ? settings"
    assert footer_text("note_editor", k) == " Enter save · Esc close · ? settings"


def test_wrapping_examples() -> None:
    multi = footer_text("multi", DEFAULT_KEYMAPS)
    assert wrap_footer(multi, 26) == [
        " Space toggle", " t question type", " Enter continue", " n/Shift+N note",
        " Esc cancel · ? settings",
    ]  # fmt: skip
    assert wrap_footer(footer_text("single", DEFAULT_KEYMAPS), 22) == [
        " t question type", " Enter confirm", " n/Shift+N note", " Esc cancel", " ? settings",
    ]  # fmt: skip
    assert wrap_footer(multi, 80)[1] == " ? settings"


def test_continuation_lines_are_indented_like_the_first() -> None:
    """A deviation of python-port.md §12: a wrapped footer reads as one indented block."""
    lines = wrap_footer(footer_text("multi", DEFAULT_KEYMAPS), 40)
    assert len(lines) > 2
    assert all(line.startswith(" ") and not line.startswith("  ") for line in lines)
    assert all(len(line) <= 40 for line in lines)


def test_letters_alone_read_as_typed_so_two_keys_never_look_like_one() -> None:
    text = footer_text("single", DEFAULT_KEYMAPS)
    assert "n/Shift+N note" in text
    assert "N/Shift+N" not in text


def test_remapped_keys_show_in_the_footer() -> None:
    resolution = resolve_keymaps(
        {"main": {"confirm": ["ctrl+k"], "change_question_type": "ctrl+t"}}
    )
    text = footer_text("single", resolution.keymaps)
    assert "ctrl+t question type" in text
    assert "Ctrl+K confirm" in text
