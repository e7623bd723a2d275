"""Payload text is inert on a terminal and in notifications (python-port.md §7, §10)."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.terminal_text import (
    clean_line,
    escape_controls,
    json_text,
    sanitize_block,
    sanitize_line,
    truncate,
)


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


UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def test_escape_and_bell_become_visible_text() -> None:
    assert clean_line("a\x1b]0;title\x07b") == "a^[]0;title^Gb"


def test_whitespace_runs_and_newlines_become_one_space() -> None:
    assert clean_line("  one\n\ttwo \r\n three  ") == "one two three"


def test_del_c1_and_bidi_controls_are_shown_by_code() -> None:
    assert clean_line("x\x7fy\x9bz\u202eq\u2066") == "x^?y\\x9bz<U+202E>q<U+2066>"


def test_lone_surrogate_is_shown_by_code() -> None:
    assert clean_line("a\ud800b") == "a<U+D800>b"


def test_nul_is_shown_not_kept() -> None:
    assert clean_line("a\x00b") == "a^@b"


def test_plain_and_wide_text_is_unchanged() -> None:
    assert (
        clean_line("Question waiting: 数据库 ✓ émoji 👩‍💻")
        == "Question waiting: 数据库 ✓ émoji 👩‍💻"
    )


def test_truncate_keeps_text_that_fits() -> None:
    assert truncate("abc", 3) == "abc"


def test_truncate_cuts_to_limit_with_ellipsis() -> None:
    assert truncate("abcdef", 4) == "abc…"


@settings(max_examples=200)
@given(st.text())
def test_clean_line_leaves_nothing_unsafe_and_is_idempotent(text: str) -> None:
    cleaned = clean_line(text)
    assert UNSAFE.search(cleaned) is None
    assert "  " not in cleaned
    assert cleaned == cleaned.strip()
    assert clean_line(cleaned) == cleaned


@settings(max_examples=200)
@given(st.recursive(st.text(), lambda kids: st.lists(kids) | st.dictionaries(st.text(), kids)))
def test_json_text_means_the_same_and_holds_nothing_a_terminal_acts_on(value: object) -> None:
    text = json_text(value)
    assert json.loads(text) == value
    assert not re.search("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", text)


# Mostly plain ASCII (the shortcut's case), with the spaces, breaks and controls near it.
_NEAR_PLAIN = st.text(st.sampled_from("ab -\t\n\r\x1b\x7f\u202e")) | st.text()


@settings(max_examples=300)
@given(_NEAR_PLAIN)
def test_the_plain_text_shortcut_gives_what_the_patterns_give(text: str) -> None:
    # The shortcut skips the patterns for printable ASCII; it must never change the result.
    import pi_ask.terminal_text as terminal_text

    def escaped(pattern: str, value: str) -> str:
        return re.sub(pattern, terminal_text._visible_escape, value)

    line = escaped(terminal_text._UNSAFE, re.sub(r"\s+", " ", text))
    block = escaped(
        terminal_text._UNSAFE_BUT_NEWLINE,
        re.sub(r"\r\n|\r", "\n", text).replace("\t", "    "),
    )
    assert sanitize_line(text) == line
    assert sanitize_block(text) == block
    assert escape_controls(text) == escaped(terminal_text._UNSAFE, text)


def test_json_text_escapes_del_even_in_ascii_text() -> None:
    from pi_ask.terminal_text import json_text

    assert json_text({"a": "x\x7fy"}) == '{"a": "x\\u007fy"}'
