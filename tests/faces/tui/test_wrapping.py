"""Word wrapping (behaviour.md §7.9)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.faces.tui.styled_text import line_width, plain, span
from pi_ask.faces.tui.wrapping import wrap_text, wrapped


def test_examples_of_the_spec() -> None:
    assert wrap_text("hello world from pi", 8) == ["hello", "world", "from pi"]
    assert wrap_text("Title\n\n  indented text", 12) == ["Title", "", "  indented", "  text"]
    assert wrap_text("supercalifragilistic", 5) == ["super", "calif", "ragil", "istic"]


def test_interior_runs_collapse() -> None:
    assert wrap_text("| a  b |", 20) == ["| a b |"]


def test_wide_characters_count_two_cells() -> None:
    assert wrap_text("日本語テキスト", 6) == ["日本語", "テキス", "ト"]


def test_prefix_and_continuation() -> None:
    lines = wrapped("one two three", 9, "", span("", "❯ "), span("", "  "))
    assert [plain(line) for line in lines] == ["❯ one two", "  three"]


@settings(max_examples=200)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs"))), st.integers(1, 60))
def test_no_line_is_wider_than_asked_unless_one_character_is(text: str, width: int) -> None:
    for line in wrapped(text, width, ""):
        assert line_width(line) <= max(width, 2)


def test_a_long_word_starts_beside_the_number_before_it() -> None:
    """A one-word label wider than the line is not left as ``4.`` alone on a line."""
    label = "4. " + "x" * 50
    assert wrap_text(label, 20) == ["4. " + "x" * 17, "x" * 20, "x" * 13]
    assert "".join(wrap_text(label, 20)).replace(" ", "") == label.replace(" ", "")


def test_a_long_word_in_a_numbered_row_keeps_its_number_company() -> None:
    lines = wrapped("12. " + "Y" * 70, 40, "", span("", "  "), span("", "  "))
    assert [plain(line) for line in lines] == ["  12. " + "Y" * 34, "  " + "Y" * 36]
