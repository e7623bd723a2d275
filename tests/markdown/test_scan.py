"""The cheap scan: Markdown found where it is, plain text left alone."""

from __future__ import annotations

import pytest

from pi_ask.markdown.scan import has_markdown
from tests.markdown import fixtures

PLAIN = [
    "Which language should the new command-line tool be written in?",
    "Fastest to prototype; the team knows it",
    'config.toml\n  [server]\n  port = 8080\n  [log]\n  level = "info"',
    "snake_case names, 3 * 4 = 12, a - b, 2026-07-28",
    "",
]
MARKED = [
    "Use `uv`",
    "**now**",
    "*maybe*",
    "# Heading",
    "- item",
    "1. first",
    "> quoted",
    "[a](https://x)",
    "```\ncode\n```",
    "a | b\n--|--",
    "~~gone~~",
    "&amp;",
    "<https://x.y>",
    *(getattr(fixtures, name) for name in ("CODE", "DIFF", "TABLE", "NESTED", "LINKS")),
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_not_markdown(text: str) -> None:
    assert not has_markdown(text)


@pytest.mark.parametrize("text", MARKED)
def test_markdown_is_found(text: str) -> None:
    assert has_markdown(text)
