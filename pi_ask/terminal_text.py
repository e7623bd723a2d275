"""Make payload text inert before it reaches a terminal (python-port.md §7, §10 "Sanitizing").

A payload is written by an agent, which may have read hostile text: nothing in it may move
the cursor, retitle the window, write the clipboard, end a notification's OSC sequence early
or reorder what the user reads. Every control character therefore becomes a visible escape,
and every bidi control (and lone surrogate) a visible ``<U+XXXX>`` tag. Printable text, wide
(CJK) and combining characters, ZWJ emoji stay as they are. The TUI draws with these and the
notification channels send with them; the result JSON keeps the payload's strings unchanged.
"""

from __future__ import annotations

import re
from typing import IO

_TAB_SPACES = "    "
# Pattern texts, compiled by ``re`` on first use (and cached there): plain ASCII text
# (``_is_plain``) never needs them; the ranges past U+00FF make each of the last two cost
# ~0.4 ms to compile.
_WHITESPACE_RUN = r"\s+"
_LINE_BREAK = r"\r\n|\r"
# C0 and C1 controls, DEL, the bidi and direction marks (ALM, LRM, RLM, LRE..RLO, LRI..PDI),
# and lone surrogates (JSON "\ud800" escapes: no terminal or environment can encode them).
_MARKS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE = f"[\x00-\x1f\x7f-\x9f{_MARKS}]"
_UNSAFE_BUT_NEWLINE = f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_MARKS}]"


def _is_plain(text: str) -> bool:
    """True for printable ASCII: no control, bidi mark or surrogate to escape."""
    return text.isascii() and text.isprintable()


def _visible_escape(match: re.Match[str]) -> str:
    """The visible form of one control or bidi character."""
    code = ord(match.group())
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    if code <= 0x9F:
        return f"\\x{code:02x}"
    return f"<U+{code:04X}>"


def escape_controls(text: str) -> str:
    """Show every control character and bidi mark as a visible escape; keep the rest.

    Used for what the user types into an editor, where spacing must stay as typed.
    """
    return text if _is_plain(text) else re.sub(_UNSAFE, _visible_escape, text)


def sanitize_line(text: str) -> str:
    """Sanitize a single-line field (title, question label, option label).

    Every whitespace run, line breaks included, collapses to one space; the remaining
    controls and bidi marks become visible escapes.

    Example:
        >>> sanitize_line("Go\\n\\tfast\\x1b[2J")
        'Go fast^[[2J'
    """
    if _is_plain(text) and "  " not in text:
        return text
    return re.sub(_UNSAFE, _visible_escape, re.sub(_WHITESPACE_RUN, " ", text))


def sanitize_block(text: str) -> str:
    """Sanitize a multi-line field (prompt, description, preview, note).

    Line breaks are kept (``\\r\\n`` and ``\\r`` become ``\\n``), tabs become spaces, and the
    remaining controls and bidi marks become visible escapes.

    Example:
        >>> sanitize_block("a\\tb\\r\\nc\\u202e")
        'a    b\\nc<U+202E>'
    """
    if _is_plain(text.replace("\n", "")):
        return text
    text = re.sub(_LINE_BREAK, "\n", text).replace("\t", _TAB_SPACES)
    return re.sub(_UNSAFE_BUT_NEWLINE, _visible_escape, text)


def clean_line(text: str) -> str:
    """One trimmed, inert line: ``sanitize_line`` without the outer spaces.

    What notification channels put inside BEL/OSC sequences and environment variables.
    Cleaning is idempotent.

    Example:
        >>> clean_line("a\\n\\x1b]0;owned\\x07  b\\u202e")
        'a ^[]0;owned^G b<U+202E>'
    """
    return sanitize_line(text).strip()


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


_LINK_SCHEMES = ("http://", "https://", "mailto:")
_LINK_SAFE = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=%"
)
LINK_LIMIT = 2048
"""The longest URL made a hyperlink (terminals cap theirs near this)."""


def hyperlink_target(url: str) -> str | None:
    """``url`` as the target of an OSC 8 hyperlink, or ``None`` when it may not be one.

    Only ``http``, ``https`` and ``mailto`` links qualify. Every character outside the
    URL-safe ASCII set (controls, ESC, BEL, spaces, ``[``, ``]``, anything non-ASCII) is
    percent-encoded, so nothing in the target can end the sequence or act on the terminal.

    Example:
        >>> hyperlink_target("https://example.com/a b\x1b\\"), hyperlink_target("javascript:x")
        ('https://example.com/a%20b%1B%5C', None)
    """
    if not url.lower().startswith(_LINK_SCHEMES):
        return None
    encoded = "".join(char if char in _LINK_SAFE else _percent(char) for char in url)
    return encoded if len(encoded) <= LINK_LIMIT else None


def _percent(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


# Characters JSON may carry raw but a terminal could act on: DEL, C1, bidi marks, surrogates.
_JSON_UNSAFE = f"[\x7f-\x9f{_MARKS}]"


def json_text(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON that is safe to print on a terminal, with the same meaning.

    ``json.dumps`` escapes C0 controls but writes DEL, C1 controls and bidi marks raw when
    non-ASCII text is kept; here they become ``\\u`` escapes, so the decoded strings stay
    exactly the payload's while a terminal showing stdout sees nothing it could act on.

    Example:
        >>> json_text({"label": "a\\u009b2Jb\\u202e"})
        '{"label": "a\\\\u009b2Jb\\\\u202e"}'
    """
    import json

    raw = json.dumps(value, ensure_ascii=False, indent=indent)
    if raw.isascii() and "\x7f" not in raw:  # DEL is ASCII and json.dumps keeps it raw
        return raw
    return re.sub(_JSON_UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", raw)


def result_indent(stream: IO[str], ui: str) -> int | None:
    """How to lay out a result printed on ``stream``: indented for a person reading a terminal,
    one line when redirected (as ``jq`` and ``gh`` do) and always one line in RPC mode, whose
    stdout is JSON lines."""
    try:
        on_terminal = stream.isatty()
    except ValueError:  # closed
        on_terminal = False
    return 2 if on_terminal and ui != "rpc" else None
