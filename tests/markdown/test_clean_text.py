"""Markdown as clean text (plain face, screen readers, MCP form): no markup left to read."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pi_ask.markdown.clean_text import CODE_END, plain_lines, plain_text
from pi_ask.markdown.switch import markdown_enabled, set_markdown_enabled
from tests.markdown import fixtures


@pytest.fixture
def markdown_off() -> Iterator[None]:
    before = markdown_enabled()
    set_markdown_enabled(False)
    yield
    set_markdown_enabled(before)


def test_code_is_announced_and_ended_in_words() -> None:
    lines = plain_text(fixtures.CODE).split("\n")
    assert lines[0] == "Which version of load_config should we keep?"
    assert "Code (python):" in lines
    assert "  def load_config(path: str) -> dict:" in lines  # code: two spaces in
    assert CODE_END in lines
    assert "```" not in plain_text(fixtures.CODE)


def test_a_table_row_names_its_columns() -> None:
    lines = plain_text(fixtures.TABLE).split("\n")
    assert lines == [
        "Option: uv; Startup: 12 ms; Notes: fast, locked",
        "Option: pip; Startup: 340 ms; Notes: everywhere",
    ]


def test_list_markers_are_said_in_words_and_quotes_lose_theirs() -> None:
    assert plain_text(fixtures.NESTED).split("\n") == [
        "1. Build",
        "   Item (level 2): wheel",
        "   Item (level 2): sdist",
        "2. Publish",
        "     only from main",
    ]
    assert plain_text("- one\n  - two\n    1. three\n- four").split("\n") == [
        "Item: one",
        "  Item (level 2): two",
        "    1. (level 3) three",
        "Item: four",
    ]


def test_links_are_text_then_url_and_an_autolink_is_its_url() -> None:
    assert plain_text(fixtures.LINKS) == (
        "Read the guide (https://example.com/guide) or https://example.com/faq."
    )


def test_hostile_text_comes_out_inert() -> None:
    text = plain_text(fixtures.HOSTILE)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "^[]0;owned^G" in text and "<U+202E>evil" in text
    assert "<script>alert(1)</script>" in text  # raw HTML is text, shown as written


def test_soft_breaks_and_leading_indentation_are_kept() -> None:
    assert plain_text(fixtures.INDENTED).split("\n") == [
        "Layout:",
        "  [server]",
        "    port = 8080",
        "soft",
        "break",
    ]


def test_plain_text_and_the_switch_leave_text_as_written(markdown_off: None) -> None:
    assert plain_text(fixtures.CODE) == fixtures.CODE
    assert plain_lines("a\nb\nc", 2) == (["a", "b"], 1)


def test_a_long_preview_is_cleaned_only_as_far_as_it_is_shown() -> None:
    body = "\n".join(f"line **{n}**" for n in range(20_000))
    shown, hidden = plain_lines(body, 12)
    assert shown == [f"line {n}" for n in range(12)]
    assert hidden == 20_000 - 12


def test_dunder_names_keep_their_underscores() -> None:
    # A file tree or a sentence naming __init__.py is not strong emphasis.
    assert plain_text("src/app/\n  __init__.py and **bold**") == "src/app/\n  __init__.py and bold"
    assert plain_text("call `__init__` or __main__") == "call __init__ or __main__"
