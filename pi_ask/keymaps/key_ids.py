"""pi-tui key ids: parsing, canonical form and display labels (behaviour.md §8.3, §8.5).

A key id is ``[modifier+]*base`` such as ``ctrl+c``, ``shift+tab`` or ``?``. Parsing is
case-insensitive and accepts the reference's aliases, so config files written for the
TypeScript pi-ask load unchanged; the canonical form puts modifiers in the order
ctrl, shift, alt, super and spells the base as pi-tui does (``esc``, ``pageUp``).
"""

from __future__ import annotations

import re
import string

MODIFIER_ORDER: tuple[str, ...] = ("ctrl", "shift", "alt", "super")
"""Canonical modifiers, in the order a canonical id lists them."""

MODIFIER_ALIASES: dict[str, str] = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "ctl": "ctrl",
    "shift": "shift",
    "alt": "alt",
    "option": "alt",
    "super": "super",
    "cmd": "super",
    "command": "super",
    "meta": "super",
    "win": "super",
    "windows": "super",
}
"""Every accepted modifier spelling (lower case) and its canonical name."""

SYMBOLS = "`-=[]\\;'.,/!@#$%^&*()_+|~{}:<>?"
"""Symbol base keys; ``+`` is listed by pi-tui but cannot be written, as ``+`` separates."""

NAMED_KEYS: tuple[str, ...] = (
    "esc",
    "enter",
    "tab",
    "space",
    "backspace",
    "delete",
    "insert",
    "clear",
    "home",
    "end",
    "pageUp",
    "pageDown",
    "up",
    "down",
    "left",
    "right",
)
FUNCTION_KEYS: tuple[str, ...] = tuple(f"f{number}" for number in range(1, 13))
CHARACTER_KEYS: frozenset[str] = frozenset(string.ascii_lowercase + string.digits + SYMBOLS)

BASE_ALIASES: dict[str, str] = {
    "escape": "esc",
    "return": "enter",
    "spacebar": "space",
    "del": "delete",
    "ins": "insert",
    "pgup": "pageUp",
    "pageup": "pageUp",
    "pgdown": "pageDown",
    "pagedown": "pageDown",
    "arrowup": "up",
    "arrowdown": "down",
    "arrowleft": "left",
    "arrowright": "right",
}
"""Accepted base-key spellings (lower case) that differ from the canonical name."""

_BASE_BY_LOWER: dict[str, str] = {
    **{name.lower(): name for name in (*NAMED_KEYS, *FUNCTION_KEYS)},
    **{char: char for char in CHARACTER_KEYS},
    **BASE_ALIASES,
}
_ARROW_LABELS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


class KeyIdError(ValueError):
    """Raised by ``parse_key_id`` for text that is not a key id.

    ``reason`` is the reference's wording (``empty binding``, ``unsupported modifier cmdd``,
    ``unsupported key f13``); ``suggestion`` is a close canonical id when one exists.
    """

    def __init__(self, reason: str, *, suggestion: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.suggestion = suggestion


def parse_key_id(text: str) -> str:
    """Parse a key id written in a config file into its canonical form.

    Args:
        text: A key id as written, e.g. ``"Control+Shift+P"`` or ``" PgUp "``.

    Returns:
        The canonical id, e.g. ``"ctrl+shift+p"`` or ``"pageUp"``. Parsing a canonical id
        returns it unchanged.

    Raises:
        KeyIdError: ``empty binding``, ``unsupported modifier <m>`` or ``unsupported key <k>``.

    Example:
        >>> parse_key_id("shift+ctrl+alt+X")
        'ctrl+shift+alt+x'
    """
    parts = [part.strip() for part in text.strip().lower().split("+")]
    parts = [part for part in parts if part]
    if not parts:
        raise KeyIdError("empty binding")
    *modifier_parts, base_part = parts
    modifiers: set[str] = set()
    for part in modifier_parts:
        modifier = MODIFIER_ALIASES.get(part)
        if modifier is None:
            suggestion = _suggest(part, MODIFIER_ALIASES)
            raise KeyIdError(
                f"unsupported modifier {part}",
                suggestion=_rebuild(parts, part, MODIFIER_ALIASES.get(suggestion or "")),
            )
        modifiers.add(modifier)
    base = _BASE_BY_LOWER.get(base_part)
    if base is None:
        suggestion = _suggest(base_part, _BASE_BY_LOWER)
        raise KeyIdError(
            f"unsupported key {base_part}",
            suggestion=_rebuild(parts, base_part, _BASE_BY_LOWER.get(suggestion or "")),
        )
    return "+".join([*(m for m in MODIFIER_ORDER if m in modifiers), base])


def split_key_id(key_id: str) -> tuple[frozenset[str], str]:
    """Split a canonical key id into its modifiers and its base key."""
    *modifiers, base = key_id.split("+")
    # A canonical id never ends in "+", so the last part is the whole base key.
    return frozenset(modifiers), base


def key_label(key_id: str) -> str:
    """The display label of a canonical key id, for hints and the settings list.

    Arrows alone become ``↑ ↓ ← →``; a single character alone is shown as typed (``n``, so
    ``n`` and ``Shift+N`` never read as one key twice); otherwise each ``+``-part of one
    character is upper-cased, ``pageUp``/``pageDown`` stay as they are, and other parts are
    capitalised.

    Example:
        >>> key_label("ctrl+pageDown"), key_label("shift+n"), key_label("n"), key_label("up")
        ('Ctrl+pageDown', 'Shift+N', 'n', '↑')
    """
    if key_id in _ARROW_LABELS:
        return _ARROW_LABELS[key_id]
    if len(key_id) == 1:
        return key_id
    return "+".join(_part_label(part) for part in key_id.split("+"))


def keys_label(key_ids: tuple[str, ...]) -> str:
    """Labels of several key ids joined with `` / `` (``Esc / Ctrl+C / ?``)."""
    return " / ".join(key_label(key_id) for key_id in key_ids)


def _part_label(part: str) -> str:
    if len(part) <= 1:
        return part.upper()
    if part in ("pageUp", "pageDown"):
        return part
    return part[0].upper() + part[1:]


def _suggest(word: str, candidates: dict[str, str]) -> str | None:
    # Single characters are never typos of a name worth suggesting, and "f13" is no "f3".
    if len(word) < 2 or (word[0] == "f" and word[1:].isdigit()):
        return None
    import difflib  # only for a bad key id: every start validates the keymaps

    matches = difflib.get_close_matches(word, [c for c in candidates if len(c) > 1], 1, 0.75)
    return matches[0] if matches else None


def _rebuild(parts: list[str], wrong: str, replacement: str | None) -> str | None:
    """The canonical id ``parts`` would give with ``wrong`` replaced, if that parses."""
    if replacement is None:
        return None
    fixed = "+".join(replacement if part == wrong else part for part in parts)
    try:
        return parse_key_id(fixed)
    except KeyIdError:
        return None


def any_case(word: str) -> str:
    """A regular expression matching ``word`` in any letter case, without flags.

    JSON Schema patterns (ECMA 262) have no case-insensitive flag, so ``Tab`` becomes
    ``[tT][aA][bB]``; other characters are escaped.

    Example:
        >>> any_case("f1")
        '[fF]1'
    """
    return "".join(
        f"[{char.lower()}{char.upper()}]" if char.isalpha() else re.escape(char) for char in word
    )


def key_id_pattern() -> str:
    """A regular expression for the text ``parse_key_id`` accepts (for the config schema).

    ``+`` separates parts, spaces around parts and empty parts are ignored, names are matched
    in any case. The reserved digits and duplicate bindings are the keymap check's concern.
    """

    def alternatives(words: object) -> str:
        ordered = sorted(words, key=len, reverse=True)  # type: ignore[call-overload]
        return "|".join(any_case(word) for word in ordered)

    modifier = alternatives(MODIFIER_ALIASES)
    base = alternatives(key for key in _BASE_BY_LOWER if key != "+")
    return rf"^[\s+]*(?:(?:{modifier})\s*\+[\s+]*)*(?:{base})[\s+]*$"
