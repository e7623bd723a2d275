"""Theme roles (behaviour.md §7) as prompt_toolkit style classes.

Renderers only name roles (``ACCENT``, ``MUTED``...); this module decides how they look.
Under ``NO_COLOR`` prompt_toolkit drops every colour by itself; the few places that need
to stand out without colour (the active tab, the focused setting, the editor cursor) get
reverse video instead, and a chosen option is drawn bold and underlined (its colour is its
only other mark).
"""

from __future__ import annotations

import os

from prompt_toolkit.styles import Style

ACCENT = "class:accent"
MUTED = "class:muted"
DIM = "class:dim"
TEXT = "class:text"
SUCCESS = "class:success"
# A chosen option's row: the success colour, or bold underline when colours are off.
CHOSEN = "class:chosen"
WARNING = "class:warning"
ERROR = "class:error"
SYNTAX_STRING = "class:syntax-string"
SELECTED_BG = "class:selected-bg"
BOLD = "bold"
CURSOR = "class:cursor"
# Marks what must stand out even without colour (active tab, focused setting value).
ACTIVE = "class:active"
UNSTYLED = ""

_COLOURS: dict[str, str] = {
    "accent": "#8abeb7",
    "muted": "#808080",
    "dim": "#666666",
    "text": "",
    "success": "#b5bd68",
    "chosen": "#b5bd68",
    "warning": "#f0c674",
    "error": "#cc6666",
    "syntax-string": "#b5bd68",
    "selected-bg": "bg:#3a3a4a",
    "cursor": "reverse",
    "active": "",
}

_NO_COLOUR: dict[str, str] = {
    "cursor": "reverse",
    "active": "reverse",
    "chosen": "bold underline",
}


def build_style(no_color: bool | None = None) -> Style:
    """The style sheet for the flow and the settings overlay.

    Args:
        no_color: drop colours; by default read from the ``NO_COLOR`` environment variable.
    """
    if no_color is None:
        no_color = bool(os.environ.get("NO_COLOR"))
    rules = _NO_COLOUR if no_color else _COLOURS
    return Style(list(rules.items()))
