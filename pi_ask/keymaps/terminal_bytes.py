"""The bytes an xterm-style terminal sends for a key id.

The inverse of what prompt_toolkit decodes: tests (headless and pseudo-terminal) speak
key ids and turn them into input with this one table, instead of writing escape bytes.
"""

from __future__ import annotations

from pi_ask.keymaps.key_ids import CHARACTER_KEYS, split_key_id
from pi_ask.keymaps.terminal_keys import terminal_keys

_PLAIN: dict[str, str] = {
    "esc": "\x1b",
    "enter": "\r",
    "tab": "\t",
    "space": " ",
    "backspace": "\x7f",
}
# xterm: "CSI 1;<mod> <final>" for these (plain: "CSI <final>").
_CSI_FINAL: dict[str, str] = {
    "up": "A",
    "down": "B",
    "right": "C",
    "left": "D",
    "home": "H",
    "end": "F",
}
# xterm: "CSI <n>;<mod> ~" for these (plain: "CSI <n> ~").
_CSI_TILDE: dict[str, str] = {"insert": "2", "delete": "3", "pageUp": "5", "pageDown": "6"}
_F_KEYS: dict[str, str] = {
    "f1": "P",
    "f2": "Q",
    "f3": "R",
    "f4": "S",
    "f5": "15",
    "f6": "17",
    "f7": "18",
    "f8": "19",
    "f9": "20",
    "f10": "21",
    "f11": "23",
    "f12": "24",
}
_CTRL_SYMBOLS: dict[str, str] = {
    "[": "\x1b",
    "\\": "\x1c",
    "]": "\x1d",
    "^": "\x1e",
    "_": "\x1f",
    "-": "\x1f",
    "@": "\x00",
}


def terminal_bytes(key_id: str) -> str | None:
    """The input a terminal sends for a canonical key id, or ``None`` if it sends none.

    Example:
        >>> terminal_bytes("ctrl+k"), terminal_bytes("shift+tab"), terminal_bytes("super+k")
        ('\\x0b', '\\x1b[Z', None)
    """
    if terminal_keys(key_id) is None:
        return None
    modifiers, base = split_key_id(key_id)
    if base in _CSI_FINAL or base in _CSI_TILDE or (base in _F_KEYS and modifiers):
        return _csi(modifiers, base)
    if "alt" in modifiers:
        inner = terminal_bytes("+".join([*sorted(modifiers - {"alt"}), base]))
        return None if inner is None else "\x1b" + inner
    if base in _F_KEYS:
        final = _F_KEYS[base]
        return f"\x1bO{final}" if final.isalpha() else f"\x1b[{final}~"
    if base in CHARACTER_KEYS:
        return _character(modifiers, base)
    if not modifiers:
        return _PLAIN[base]
    return {"shift+tab": "\x1b[Z", "ctrl+backspace": "\x08", "ctrl+space": "\x00"}[key_id]


def _csi(modifiers: frozenset[str], base: str) -> str:
    code = 1 + ("shift" in modifiers) + 2 * ("alt" in modifiers) + 4 * ("ctrl" in modifiers)
    if base in _CSI_FINAL:
        final = _CSI_FINAL[base]
        return f"\x1b[1;{code}{final}" if modifiers else f"\x1b[{final}"
    number = _CSI_TILDE.get(base) or _F_KEYS[base]
    if not number.isdigit():
        return f"\x1b[1;{code}{number}"
    return f"\x1b[{number};{code}~" if modifiers else f"\x1b[{number}~"


def _character(modifiers: frozenset[str], base: str) -> str:
    if not modifiers:
        return base
    if modifiers == {"shift"}:
        return base.upper()
    if base.isdigit():
        # xterm "CSI 1;<mod> p..y" for ctrl (5) and ctrl+shift (6) with a digit.
        code = 6 if "shift" in modifiers else 5
        return f"\x1b[1;{code}{'pqrstuvwxy'[int(base)]}"
    if base.isalpha():
        return chr(ord(base) & 0x1F)
    return _CTRL_SYMBOLS[base]
