"""The page's words in the user's language, from the same catalogues as the terminal faces.

The page marks its text as ``_("...")`` and ``ngettext("...", "...", n)`` (docs/translating.md:
Babel extracts them from ``static/app.js`` like the Python source). When the server sends
the script it puts ``PI_ASK_WORDS`` in front of it: each of those messages, and the engine's
words the page shows by name (the review's actions), in the language of ``pi_ask.i18n``; the
page itself fills the ``{fields}``. A plural message goes as its forms for 1 and for many.
"""

from __future__ import annotations

import html
import json
import re

from pi_ask.i18n import N_, active_language, gettext, ngettext
from pi_ask.words import REVIEW_ACTIONS, shown

# A JavaScript string literal in double quotes, and the two calls that mark one.
_LITERAL = r'"((?:[^"\\\n]|\\.)*)"'
_GETTEXT = re.compile(r"(?<![\w.$])_\(\s*" + _LITERAL)
_NGETTEXT = re.compile(r"(?<![\w.$])ngettext\(\s*" + _LITERAL + r"\s*,\s*" + _LITERAL)
PAGE_TEXTS = (
    N_("Skip to the question"),
    N_("This page needs JavaScript (its own, served from here; nothing else)."),
)
"""The static page's own text (``static/index.html``), replaced where it stands."""


def _literal(text: str) -> str:
    value: str = json.loads(f'"{text}"')
    return value


def page_words(script: str) -> dict[str, str | list[str]]:
    """Every message ``script`` marks, in the user's language, by its English text.

    A plural message is keyed by its two English forms joined with NUL.
    """
    words: dict[str, str | list[str]] = {name: shown(name) for name in REVIEW_ACTIONS}
    for found in _GETTEXT.finditer(script):
        message = _literal(found.group(1))
        words[message] = gettext(message)
    for found in _NGETTEXT.finditer(script):
        singular, plural = _literal(found.group(1)), _literal(found.group(2))
        words[f"{singular}\0{plural}"] = [
            ngettext(singular, plural, 1),
            ngettext(singular, plural, 2),
        ]
    return words


def script_with_words(script: str) -> str:
    """``script`` with its words in front, as the page loads it."""
    words = json.dumps(page_words(script), ensure_ascii=False, sort_keys=True)
    return f"const PI_ASK_WORDS = {words};\n{script}"


def page_in_language(page: str) -> str:
    """``static/index.html`` in the user's language (its ``lang`` and its own text)."""
    language = active_language().replace("_", "-")
    if language != "x-pseudo":
        page = page.replace('<html lang="en">', f'<html lang="{html.escape(language)}">', 1)
    for text in PAGE_TEXTS:
        page = page.replace(f">{text}<", f">{html.escape(gettext(text), quote=False)}<")
    return page
