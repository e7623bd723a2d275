"""One line of terminal-safe text, for notification titles and messages.

Notification text comes from the payload, which an agent (or whatever it read) controls. It
is written inside BEL/OSC sequences, handed to commands through the environment and sent to
services, so it is made inert first (python-port.md §7, §10 "Sanitizing"): every whitespace
run becomes one space, and every remaining control character is shown as a visible escape
instead of being acted on. Nothing can end an OSC sequence early, start a new one, move the
cursor or reorder the text on screen.
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, bidi and direction marks, and lone surrogates (they arrive
# through JSON "\ud800" escapes and cannot be encoded for a terminal or an environment).
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    if code <= 0x9F:
        return f"\\x{code:02x}"
    return f"<U+{code:04X}>"


def clean_line(text: str) -> str:
    """Make text one inert line: collapsed whitespace, controls shown as visible escapes.

    The result holds no C0/C1 control, DEL, bidi control or lone surrogate, so it can sit
    inside an escape sequence or an environment variable. Cleaning is idempotent.

    Args:
        text: Any text, possibly hostile.

    Returns:
        The text on one line, trimmed, with ``ESC`` shown as ``^[``, DEL as ``^?``, C1
        controls as ``\\x9b`` and bidi controls as ``<U+202E>``.

    Example:
        >>> clean_line("a\\n\\x1b]0;owned\\x07  b\\u202e")
        'a ^[]0;owned^G b<U+202E>'
    """
    return _UNSAFE.sub(_escape, " ".join(text.split()))


def truncate(text: str, limit: int) -> str:
    """Cut text to at most ``limit`` characters, marking a cut with ``…``.

    Args:
        text: The text to shorten.
        limit: The largest length allowed, at least 1.

    Returns:
        The text unchanged when it fits, else its first ``limit - 1`` characters and ``…``.
    """
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"
