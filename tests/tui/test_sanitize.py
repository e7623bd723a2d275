"""Payload text is inert on the terminal (python-port.md §10 "Sanitizing")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.tui.sanitize import escape_controls, sanitize_block, sanitize_line


def test_single_line_fields_collapse_whitespace() -> None:
    assert sanitize_line("Go\n\t fast\r\nnow") == "Go fast now"


def test_multi_line_fields_keep_breaks_and_expand_tabs() -> None:
    assert sanitize_block("a\tb\r\nc\rd") == "a    b\nc\nd"


def test_controls_become_visible_escapes() -> None:
    assert sanitize_line("\x1b[2J\x07x\x7f") == "^[[2J^Gx^?"
    assert sanitize_block("\x9b31m\x90q") == "\\x9b31m\\x90q"


def test_osc_52_clipboard_write_is_shown_not_run() -> None:
    assert sanitize_block("\x1b]52;c;aGVsbG8=\x07") == "^[]52;c;aGVsbG8=^G"


def test_bidi_marks_are_tagged() -> None:
    text = "\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c"
    assert sanitize_line(text) == (
        "<U+202E>evil<U+202C> <U+2066>x<U+2069> <U+200E><U+200F><U+061C>"
    )


def test_wide_combining_and_emoji_are_untouched() -> None:
    text = "日本語 e\u0301 👩\u200d💻"
    assert sanitize_line(text) == text
    assert sanitize_block(text) == text


def test_editor_text_keeps_its_spacing() -> None:
    assert escape_controls("a  b\t") == "a  b^I"


@settings(max_examples=200)
@given(st.text())
def test_nothing_unsafe_survives(text: str) -> None:
    for cleaned in (sanitize_line(text), sanitize_block(text), escape_controls(text)):
        assert not any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F for c in cleaned)
        assert not any(
            c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" for c in cleaned
        )
    assert "\n" not in sanitize_line(text)
