"""What a terminal actually delivers for a key id, as prompt_toolkit key names.

prompt_toolkit reads a legacy (vt100/xterm) terminal, which cannot report every key pi-tui
can name: ``super`` needs the Kitty protocol, ``ctrl+shift+p`` sends the byte of ``ctrl+p``,
``shift+enter`` sends Enter. This module encodes protocols.md §2.6 as pure data so the
keymap validator can tell bound keys from unavailable ones without importing
prompt_toolkit; ``ptk_bindings`` turns the names into real bindings.

Names are prompt_toolkit's canonical ``Keys`` values (``c-m`` for Enter, ``c-i`` for Tab,
``c-h`` for Backspace, ``" "`` for Space), so two ids that share a terminal key get equal
tuples: that is how ``tab`` and ``ctrl+i`` are found to collide.
"""

from __future__ import annotations

from functools import lru_cache

from pi_ask.keymaps.key_ids import CHARACTER_KEYS, split_key_id

_PLAIN_NAMED: dict[str, str] = {
    "esc": "escape",
    "enter": "c-m",
    "tab": "c-i",
    "space": " ",
    "backspace": "c-h",
}
_NAVIGATION: dict[str, str] = {
    "up": "up",
    "down": "down",
    "left": "left",
    "right": "right",
    "home": "home",
    "end": "end",
    "insert": "insert",
    "delete": "delete",
    "pageUp": "pageup",
    "pageDown": "pagedown",
}
# ctrl with a symbol: the C0 control codes a legacy terminal can send.
_CTRL_SYMBOLS: dict[str, str] = {
    "[": "escape",
    "\\": "c-\\",
    "]": "c-]",
    "^": "c-^",
    "_": "c-_",
    "-": "c-_",
    "@": "c-@",
}
_SHIFT = frozenset({"shift"})
_CTRL = frozenset({"ctrl"})
_ALT = frozenset({"alt"})
_CTRL_SHIFT = frozenset({"ctrl", "shift"})
_CTRL_ALT = frozenset({"ctrl", "alt"})
_SHIFT_ALT = frozenset({"shift", "alt"})
_CTRL_SHIFT_ALT = frozenset({"ctrl", "shift", "alt"})
# Modifier sets prompt_toolkit 3.0 decodes for each navigation key (its ANSI table: xterm
# "CSI n;m ~" and "CSI 1;m X" forms). Missing sets have no sequence, or (ctrl+alt+pageUp and
# ctrl+alt+pageDown) decode to one key. tests/keymaps check this against the real table.
_ALL_NAV_SETS = frozenset(
    {_SHIFT, _CTRL, _ALT, _CTRL_SHIFT, _CTRL_ALT, _SHIFT_ALT, _CTRL_SHIFT_ALT}
)
_NAV_SETS: dict[str, frozenset[frozenset[str]]] = {
    **dict.fromkeys(("up", "down", "left", "right", "home", "end"), _ALL_NAV_SETS),
    "insert": frozenset({_ALT, _SHIFT_ALT, _CTRL_ALT, _CTRL_SHIFT_ALT}),
    **dict.fromkeys(
        ("delete", "pageUp", "pageDown"),
        frozenset({_SHIFT, _CTRL, _ALT, _SHIFT_ALT, _CTRL_SHIFT}),
    ),
}

_SUPER = "super (cmd/win) needs the Kitty keyboard protocol, which prompt_toolkit cannot read"
_NO_SEQUENCE = "terminals send no key sequence for {id} that prompt_toolkit can tell apart"


def terminal_keys(key_id: str) -> tuple[str, ...] | None:
    """The prompt_toolkit key sequence a terminal delivers for a canonical key id.

    Args:
        key_id: A canonical id, as ``parse_key_id`` returns.

    Returns:
        prompt_toolkit key names, e.g. ``("c-k",)``, ``("N",)``, ``("escape", "x")``;
        ``None`` when no terminal key reaches prompt_toolkit as this id (see
        ``unavailable_reason``). Modified up/down are named as meant (``c-s-up``);
        ``ptk_bindings`` corrects prompt_toolkit's swapped decoding of them.

    Example:
        >>> terminal_keys("alt+x"), terminal_keys("super+k")
        (('escape', 'x'), None)
    """
    result = _translate(key_id)
    return result if isinstance(result, tuple) else None


def unavailable_reason(key_id: str) -> str | None:
    """Why a canonical key id cannot be received in a terminal, or ``None`` if it can."""
    result = _translate(key_id)
    return result if isinstance(result, str) else None


def is_available(key_id: str) -> bool:
    """True when a terminal can deliver the canonical key id to prompt_toolkit."""
    return isinstance(_translate(key_id), tuple)


@lru_cache(maxsize=1024)
def _translate(key_id: str) -> tuple[str, ...] | str:
    """The key sequence for ``key_id``, or the reason there is none."""
    modifiers, base = split_key_id(key_id)
    if "super" in modifiers:
        return _SUPER
    if base == "clear":
        return "prompt_toolkit ignores the clear key"
    if base in _NAVIGATION:
        return _navigation(modifiers, base, key_id)
    if "alt" in modifiers:
        return _alt(modifiers - {"alt"}, base, key_id)
    return _unmodified_or(modifiers, base, key_id)


def _navigation(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    name = _NAVIGATION[base]
    if not modifiers:
        return (name,)
    if modifiers not in _NAV_SETS[base]:
        if base in ("pageUp", "pageDown") and {"ctrl", "alt"} <= modifiers:
            return f"prompt_toolkit reads {key_id} and its pageUp/pageDown twin as one key"
        return _NO_SEQUENCE.format(id=key_id)
    prefix = "c-" if "ctrl" in modifiers else ""
    prefix += "s-" if "shift" in modifiers else ""
    key = prefix + name
    return ("escape", key) if "alt" in modifiers else (key,)


def _alt(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    """Alt arrives as Esc followed by the key (``ESC x``)."""
    if base.startswith("f") and len(base) > 1:
        return _NO_SEQUENCE.format(id=key_id)
    inner = _unmodified_or(modifiers, base, key_id)
    if isinstance(inner, str):
        return inner
    if inner == ("c-i",):
        # Some consoles send ESC Tab for shift+tab, and prompt_toolkit decodes it so.
        return f"prompt_toolkit reads {key_id} (Esc Tab) as shift+tab"
    return ("escape", *inner)


def _unmodified_or(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    """Keys without alt: characters, Enter/Tab/..., F-keys, with ctrl and/or shift."""
    if base in CHARACTER_KEYS:
        return _character(modifiers, base, key_id)
    if base in _PLAIN_NAMED:
        return _named(modifiers, base, key_id)
    return _function_key(modifiers, base, key_id)


def _character(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    if not modifiers:
        return (base,)
    if modifiers == _SHIFT:
        if base.isalpha():
            return (base.upper(),)
        return (
            "shift with a digit or symbol arrives as the character it produces, so bind "
            'that character instead (e.g. "?" rather than "shift+/")'
        )
    if modifiers == _CTRL:
        if base.isalpha():
            return (f"c-{base}",)
        if base.isdigit():
            return (f"c-{base}",)
        if base in _CTRL_SYMBOLS:
            return (_CTRL_SYMBOLS[base],)
        return f"terminals send no control code for {key_id}"
    # ctrl+shift
    if base.isdigit():
        return (f"c-s-{base}",)
    if base.isalpha():
        return f"terminals send {key_id} as the same byte as ctrl+{base}"
    return _NO_SEQUENCE.format(id=key_id)


def _named(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    if not modifiers:
        return (_PLAIN_NAMED[base],)
    if modifiers == _SHIFT and base == "tab":
        return ("s-tab",)
    if modifiers == _CTRL and base == "backspace":
        # Most terminals send 0x08 (ctrl+h) for ctrl+backspace; prompt_toolkit reads both
        # 0x08 and 0x7f as c-h, so this is the Backspace key.
        return ("c-h",)
    if modifiers == _CTRL and base == "space":
        return ("c-@",)
    plain = "Enter" if base == "enter" else base.capitalize()
    return f"terminals send {key_id} as plain {plain} (or nothing at all)"


def _function_key(modifiers: frozenset[str], base: str, key_id: str) -> tuple[str, ...] | str:
    number = int(base[1:])
    if not modifiers:
        return (base,)
    if number == 3 and modifiers in (_SHIFT, _CTRL):
        return f"prompt_toolkit reads the {key_id} sequence as a cursor-position report"
    if modifiers == _SHIFT:
        # xterm sends shift+F1..F12 as F13..F24.
        return (f"f{number + 12}",)
    if modifiers == _CTRL:
        return (f"c-{base}",)
    return _NO_SEQUENCE.format(id=key_id)
