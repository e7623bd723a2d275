"""Markdown as sanitized HTML, for the web face.

The source is sanitized for a terminal first (controls and bidi marks become visible
escapes, as on every other face), then rendered by markdown-it with raw HTML off, so every
``<`` a payload writes reaches the page as ``&lt;``. Links keep markdown-it's check (no
``javascript:``, ``vbscript:``, ``file:`` or ``data:`` other than images), open nothing by
themselves (``rel="noopener noreferrer nofollow"``), and images are shown as links: a page
never loads what a payload points at. Fenced code is highlighted by Pygments into
``<span class="...">`` runs; ``code_css`` gives their colours.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pi_ask.markdown.highlight import language_of
from pi_ask.markdown.scan import has_markdown
from pi_ask.markdown.switch import markdown_enabled
from pi_ask.terminal_text import sanitize_block

if TYPE_CHECKING:
    from collections.abc import Sequence

    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from markdown_it.utils import EnvType, OptionsDict

REL = "noopener noreferrer nofollow"


def to_html(text: str) -> str:
    """``text`` as an HTML fragment: Markdown rendered when it has Markdown syntax (and
    ``[ui] markdown`` is on), else its lines escaped, line breaks and indentation kept."""
    clean = sanitize_block(text)
    if not markdown_enabled() or not has_markdown(clean):
        return _escaped(clean)
    return str(_parser().render(clean))


def _escaped(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        lines.append("&nbsp;" * (len(line) - len(body)) + html.escape(body))
    return "<p>" + "<br />\n".join(lines) + "</p>\n"


def _highlight(code: str, info: str, _attrs: Any) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    language = language_of(info)
    if not language:
        return ""
    try:
        lexer = get_lexer_by_name(language, stripnl=False)
    except ClassNotFound:
        return ""  # markdown-it escapes the code itself
    return str(highlight(code, lexer, HtmlFormatter(nowrap=True)))


def _link_open(
    self: Any, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    tokens[index].attrSet("rel", REL)
    return str(self.renderToken(tokens, index, options, env))


def _image(
    self: Any, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[index]
    src = html.escape(str(token.attrs.get("src", "")))
    alt = html.escape(token.content or "image")
    return f'<a href="{src}" rel="{REL}">{alt}</a>'


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    options = {"html": False, "breaks": True, "highlight": _highlight}
    parser = MarkdownIt("commonmark", options).enable(["table", "strikethrough"]).disable("code")
    parser.add_render_rule("link_open", _link_open)
    parser.add_render_rule("image", _image)
    return parser


def code_css(scope: str = ".pi-md") -> str:
    """The colours of highlighted code inside ``scope`` (Pygments' default style)."""
    from pygments.formatters import HtmlFormatter

    return str(HtmlFormatter().get_style_defs(f"{scope} pre"))  # type: ignore[no-untyped-call]
