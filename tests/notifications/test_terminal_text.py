from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.notifications.terminal_text import clean_line, truncate

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
