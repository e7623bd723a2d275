"""Does a text use Markdown syntax? A cheap scan, so plain text never loads markdown-it.

Text with none of these marks renders the same whether parsed or not (python-port.md §12),
so a payload without them keeps its first frame free of markdown-it-py and Pygments. A false
positive costs only the parse; a false negative shows the text as written.
"""

from __future__ import annotations

import re

# Kept as text and compiled by ``re`` (which caches it) on the first text with a candidate
# character: most plain text never gets that far.
_SYNTAX = "|".join(
    (
        r"(?m)^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+][ \t]|\d{1,9}[.)][ \t]|```|~~~|\|)",
        r"^ {0,3}(?:[-*_][ \t]*){3,}$",  # thematic break
        r"^ {0,3}(?:=+|-+)[ \t]*$",  # setext underline
        r"^ {0,3}\|?[ \t]*:?-+:?[ \t]*\|",  # a table's delimiter row
        r"`[^`\n]",
        r"\*\*|__|~~",
        r"(?<![\w*\\])\*[^\s*]",
        r"(?<![\w\\])_[^\s_]",
        r"\]\(|\]\[|^\[[^\]\n]+\]:",
        r"<[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*>",  # autolink
        r"\\[!-/:-@\[-`{-~]",  # backslash escape
        r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});",
    )
)
_CANDIDATES = frozenset("#>-*+0123456789`_~|=[]<\\&")


def has_markdown(text: str) -> bool:
    """True when ``text`` holds Markdown syntax worth parsing.

    Example:
        >>> has_markdown("Pick a database"), has_markdown("Use `uv` **now**")
        (False, True)
    """
    if _CANDIDATES.isdisjoint(text):
        return False
    return re.search(_SYNTAX, text) is not None
