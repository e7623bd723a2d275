"""Markdown as sanitized HTML (the web face): nothing a payload writes becomes markup."""

from __future__ import annotations

from pi_ask.markdown.html import REL, code_css, to_html
from tests.markdown import fixtures


def test_hostile_html_is_escaped_and_dangerous_links_are_not_links() -> None:
    html = to_html(fixtures.HOSTILE)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "&lt;img src=x" in html
    assert 'href="javascript' not in html
    assert "\x1b" not in html and "\u202e" not in html and "^[]0;owned^G" in html


def test_fenced_python_is_highlighted() -> None:
    html = to_html(fixtures.CODE)
    assert '<code class="language-python">' in html
    assert '<span class="k">return</span>' in html
    assert ".pi-md pre .k" in code_css()


def test_links_open_nothing_by_themselves_and_images_are_links() -> None:
    html = to_html(fixtures.LINKS + "\n![shot](https://example.com/a.png)")
    assert f'<a href="https://example.com/guide" rel="{REL}">the guide</a>' in html
    assert "<img" not in html
    assert f'<a href="https://example.com/a.png" rel="{REL}">shot</a>' in html


def test_tables_and_soft_breaks() -> None:
    assert "<table>" in to_html(fixtures.TABLE)
    assert "<br />" in to_html("**a**\nb")


def test_plain_text_is_escaped_with_its_lines_and_indentation() -> None:
    assert to_html("a < b\n  c") == "<p>a &lt; b<br />\n&nbsp;&nbsp;c</p>\n"
