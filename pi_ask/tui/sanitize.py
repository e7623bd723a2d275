"""Make payload text inert before it reaches the terminal (python-port.md §10 "Sanitizing").

A payload is written by an agent, which may have read hostile text: nothing in it may move
the cursor, retitle the window, write the clipboard or reorder what the user reads. Every
control character therefore becomes a visible escape, and every bidi control a visible
``<U+XXXX>`` tag. Printable text, wide (CJK) and combining characters, ZWJ emoji stay as
they are. The result JSON keeps the payload's strings unchanged: this is display only.
"""

from __future__ import annotations

import re

_TAB_SPACES = "    "
_WHITESPACE_RUN = re.compile(r"\s+")
_LINE_BREAK = re.compile(r"\r\n|\r")
# Bidi and direction marks: ALM, LRM, RLM, LRE..RLO, LRI..PDI.
_BIDI = frozenset((0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def _visible_escape(char: str) -> str:
    """The visible form of a control or bidi character, or the character itself."""
    code = ord(char)
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    if 0x80 <= code <= 0x9F:
        return f"\\x{code:02x}"
    if code in _BIDI:
        return f"<U+{code:04X}>"
    return char


def _is_unsafe(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or code in _BIDI


def _escape_unsafe(text: str, keep: str = "") -> str:
    if not any(_is_unsafe(c) and c not in keep for c in text):
        return text
    return "".join(c if c in keep else _visible_escape(c) for c in text)


def escape_controls(text: str) -> str:
    """Show every control character and bidi mark as a visible escape; keep the rest.

    Used for what the user types into an editor, where spacing must stay as typed.
    """
    return _escape_unsafe(text)


def sanitize_line(text: str) -> str:
    """Sanitize a single-line field (title, question label, option label).

    Every whitespace run, line breaks included, collapses to one space; the remaining
    controls and bidi marks become visible escapes.

    Example:
        >>> sanitize_line("Go\\n\\tfast\\x1b[2J")
        'Go fast^[[2J'
    """
    return _escape_unsafe(_WHITESPACE_RUN.sub(" ", text))


def sanitize_block(text: str) -> str:
    """Sanitize a multi-line field (prompt, description, preview, note).

    Line breaks are kept (``\\r\\n`` and ``\\r`` become ``\\n``), tabs become spaces, and the
    remaining controls and bidi marks become visible escapes.

    Example:
        >>> sanitize_block("a\\tb\\r\\nc\\u202e")
        'a    b\\nc<U+202E>'
    """
    text = _LINE_BREAK.sub("\n", text).replace("\t", _TAB_SPACES)
    return _escape_unsafe(text, keep="\n")
