"""Theme roles (behaviour.md §7) as prompt_toolkit style classes, and the themes.

Renderers only name roles (``ACCENT``, ``MUTED``...); this module decides how they look:
``dark`` (the reference's look, the default), ``light``, ``high-contrast`` and ``ansi``
(the terminal's own 16 colours), each with per-role overrides from ``[theme.styles]``.
Under ``NO_COLOR`` prompt_toolkit drops every colour by itself; the few places that need
to stand out without colour (the active tab, the focused setting, the editor cursor) get
reverse video instead, and a chosen option is drawn bold and underlined (its colour is its
only other mark).
"""

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from prompt_toolkit.styles import Style

if TYPE_CHECKING:
    from pi_ask.config.settings import ThemeSettings

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
# Markdown (faces/tui/markdown_lines.py): inline and fenced code, headings, links, and the
# token kinds of highlighted code.
CODE = "class:code"
HEADING = "class:heading"
LINK = "class:link"
SYNTAX_KEYWORD = "class:syntax-keyword"
SYNTAX_COMMENT = "class:syntax-comment"
SYNTAX_NUMBER = "class:syntax-number"
SYNTAX_FUNCTION = "class:syntax-function"
SYNTAX_TYPE = "class:syntax-type"
SELECTED_BG = "class:selected-bg"
BOLD = "bold"
CURSOR = "class:cursor"
# Marks what must stand out even without colour (active tab, focused setting value).
ACTIVE = "class:active"
UNSTYLED = ""


class Palette(NamedTuple):
    """One theme: a style per role, and the terminal colours it is made for.

    ``background`` and ``foreground`` are what the contrast of every role is measured
    against (``tests/faces/tui/test_themes.py``); ``None`` for ``ansi``, which takes the terminal's
    own palette and so cannot be measured.
    """

    rules: Mapping[str, str]
    background: str | None = None
    foreground: str | None = None


# The reference's look (screens.md), made for a Tomorrow Night background. dim and error are a
# shade brighter than pi's (#666666, #cc6666) so they reach WCAG AA there (3:1 and 4.5:1).
DARK = Palette(
    {
        "accent": "#8abeb7",
        "muted": "#808080",
        "dim": "#767676",
        "text": "",
        "success": "#b5bd68",
        "chosen": "#b5bd68",
        "warning": "#f0c674",
        "error": "#ff5f5f",
        "syntax-string": "#b5bd68",
        "code": "#8abeb7",
        "heading": "#f0c674 bold",
        "link": "#81a2be underline",
        "syntax-keyword": "#b294bb",
        "syntax-comment": "#969896 italic",
        "syntax-number": "#de935f",
        "syntax-function": "#81a2be",
        "syntax-type": "#f0c674",
        "selected-bg": "bg:#303040",
        "cursor": "reverse",
        "active": "",
    },
    background="#1d1f21",
    foreground="#c5c8c6",
)
# Colours of the xterm 256-colour cube, so 8-bit terminals show exactly these.
LIGHT = Palette(
    {
        "accent": "#005f87",
        "muted": "#626262",
        "dim": "#767676",
        "text": "",
        "success": "#005f00",
        "chosen": "#005f00 bold",
        "warning": "#875f00",
        "error": "#af0000",
        "syntax-string": "#005f00",
        "code": "#870000",
        "heading": "#005f87 bold",
        "link": "#005faf underline",
        "syntax-keyword": "#8700af",
        "syntax-comment": "#626262 italic",
        "syntax-number": "#af5f00",
        "syntax-function": "#005faf",
        "syntax-type": "#875f00",
        "selected-bg": "bg:#dadada",
        "cursor": "reverse",
        "active": "",
    },
    background="#ffffff",
    foreground="#1d1f21",
)
# Bright on black, and what stands out is bold or underlined as well as coloured.
HIGH_CONTRAST = Palette(
    {
        "accent": "#5fffff bold",
        "muted": "#d0d0d0",
        "dim": "#bcbcbc",
        "text": "#ffffff",
        "success": "#5fff5f",
        "chosen": "#5fff5f bold underline",
        "warning": "#ffff5f bold",
        "error": "#ff8787 bold",
        "syntax-string": "#87ff87",
        "code": "#87ffff",
        "heading": "#ffffff bold underline",
        "link": "#87d7ff underline",
        "syntax-keyword": "#ff87ff",
        "syntax-comment": "#d0d0d0 italic",
        "syntax-number": "#ffaf5f",
        "syntax-function": "#87d7ff",
        "syntax-type": "#ffff87",
        "selected-bg": "bg:#ffffff #000000",
        "cursor": "reverse",
        "active": "bold",
    },
    background="#000000",
    foreground="#ffffff",
)
# The terminal's own 16 colours: whatever palette the user set, pi-ask follows it.
ANSI = Palette(
    {
        "accent": "ansicyan",
        "muted": "ansibrightblack",
        "dim": "ansibrightblack",
        "text": "",
        "success": "ansigreen",
        "chosen": "ansigreen bold",
        "warning": "ansiyellow",
        "error": "ansired",
        "syntax-string": "ansigreen",
        "code": "ansicyan",
        "heading": "bold",
        "link": "ansiblue underline",
        "syntax-keyword": "ansimagenta",
        "syntax-comment": "ansibrightblack italic",
        "syntax-number": "ansiyellow",
        "syntax-function": "ansiblue",
        "syntax-type": "ansicyan",
        "selected-bg": "reverse",
        "cursor": "reverse",
        "active": "",
    }
)
THEMES: Mapping[str, Palette] = {
    "dark": DARK,
    "light": LIGHT,
    "high-contrast": HIGH_CONTRAST,
    "ansi": ANSI,
}

_NO_COLOUR: dict[str, str] = {
    "cursor": "reverse",
    "active": "reverse",
    "chosen": "bold underline",
    "heading": "bold",
    "link": "underline",
}


def build_style(
    name: str = "dark",
    overrides: Sequence[tuple[str, str]] = (),
    *,
    no_color: bool | None = None,
) -> Style:
    """The style sheet for the flow and the settings overlay.

    Args:
        name: The theme (``[theme] name``); an unknown name gets ``dark``.
        overrides: (role, prompt_toolkit style) pairs laid over the theme
            (``[theme.styles]``); one prompt_toolkit cannot read is skipped.
        no_color: drop colours; by default read from the ``NO_COLOR`` environment variable.
            The overrides still apply: a user who sets a style asked for it.
    """
    if no_color is None:
        no_color = bool(os.environ.get("NO_COLOR"))
    rules = dict(_NO_COLOUR if no_color else THEMES.get(name, DARK).rules)
    for role, style in overrides:
        try:
            Style([(role, style)])
        except (ValueError, AssertionError):
            continue
        rules[role] = style
    return Style(list(rules.items()))


def theme_style(theme: "ThemeSettings", detected: str | None = None) -> Style:
    """The style sheet for the ``[theme]`` settings.

    ``auto`` is ``detected`` (``dark`` or ``light``, from the terminal's background), and
    ``dark`` until the terminal has said.
    """
    name = (detected or "dark") if theme.name == "auto" else theme.name
    return build_style(name, theme.styles)
