"""Write docs/themes.md from the themes as drawn: ``uv run python -m tests.faces.tui.themes_page``.

``tests/faces/tui/test_themes.py`` checks that the page holds what this writes, so the colours and
ratios it shows are the ones measured.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui import theme
from tests.faces.tui.test_themes import screen_legend, theme_table

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "themes.md"

MADE_FOR = {
    "dark": (
        "the default: the reference's look, made for a dark background "
        "(declared `#1d1f21`, text `#c5c8c6`)"
    ),
    "light": (
        "for light terminals (declared background `#ffffff`, text `#1d1f21`); every colour is "
        "one of the xterm 256 colours, so a 256-colour terminal shows exactly these"
    ),
    "high-contrast": (
        "bright colours on black (declared background `#000000`, text `#ffffff`); what stands "
        "out is also bold or underlined, and the active tab and the focused setting are black "
        "on white"
    ),
    "ansi": (
        "the terminal's own 16 colours: it follows whatever palette you set, light or dark, so "
        "it is not measured here (your palette decides)"
    ),
}

INTRO = """# Themes

The TUI's colours come from a theme: `[theme] name` in the config file, or the **Theme** row
of the settings overlay (`?` in an ask, or `pi-ask settings`), which steps through them. A
change applies to an open ask at once, whether made in the overlay or saved in the file.

```toml
[theme]
name = "light"          # "dark" (default), "light", "high-contrast", "ansi", "auto"

[theme.styles]           # optional: per-role overrides, prompt_toolkit style syntax
accent = "#005f87 bold"
selected-bg = "bg:#eeeeee"
```

`auto` is `dark` or `light`, by the background colour the terminal reports. The ask asks
the terminal once (OSC 11), right after its first frame, which it draws in `dark` meanwhile:
nothing waits for a terminal that never answers (it stays `dark`). The reply arrives as
input; pi-ask takes it out before the key reader for as long as the ask is open, so a reply,
however late, is never read as keys. A terminal that answers only after the ask has closed
would leave the reply to the shell; terminals answer within milliseconds.

Roles: `accent`, `muted`, `dim`, `text`, `success`, `chosen`, `warning`, `error`,
`syntax-string`, `selected-bg`, `cursor`, `active`. An override prompt_toolkit cannot read
(`accent = "blod"`) is skipped and the theme's own style stays; an unknown role or a
malformed style (`#12`, `fg:`) makes the whole table an error that `pi-ask config validate`
reports, and the theme is used without overrides. `NO_COLOR` turns every theme's colours off (the
active tab and focused setting are then reversed, a chosen option bold and underlined);
overrides still apply, since you asked for them.

Meaning does not rest on colour: the recommended option says `(recommended)`, chosen
options are `[x]` on multi-select questions (and a chosen one-answer option is bold in
`light`, `ansi` and under `NO_COLOR`, bold and underlined in `high-contrast`; `dark` keeps
the reference's colour-only look there), answered tabs are `☒` and open ones `☐`, notices
are words, an unanswered question says `→ unanswered`. For no colour and no cursor
movement at all, use the plain face ([accessibility.md](accessibility.md)).

## Contrast

`light` and `high-contrast` (and `dark`) meet WCAG AA on the background they are made for:
4.5:1 for text, 3:1 for muted text (descriptions, hints). It is measured on what reaches the
terminal: prompt_toolkit maps colours to the 256-colour palette on an `xterm-256color`
terminal and sends them exactly at 24-bit (`PROMPT_TOOLKIT_COLOR_DEPTH=DEPTH_24_BIT`);
`tests/faces/tui/test_themes.py` renders every role at both depths, reads the cells back with pyte
and computes the ratios below. A 16-colour terminal (`TERM=linux`) maps every theme to its
own palette, like `ansi`.

## Each theme, as drawn

Every theme draws the same text (screen S1 of the reference, below); only the colours
differ. Under each theme: every look on that screen, read back from the terminal at 256
colours, with where it shows, then the measured contrast of each role.

```text
"""

AFTER_SCREEN = """
```
"""


def page_text() -> str:
    """The whole page."""
    os.environ.pop("NO_COLOR", None)
    folder = Path(tempfile.mkdtemp())
    screen = (ROOT / "tests/faces/tui/fixtures/screens/S1.txt").read_text(encoding="utf-8")
    parts = [INTRO, screen.rstrip("\n"), AFTER_SCREEN]
    for name, palette in theme.THEMES.items():
        made_for = MADE_FOR[name]
        parts.append(f"\n### {name}\n\n{made_for[0].upper()}{made_for[1:]}.\n\n")
        parts.append(screen_legend(name, SettingsStore(folder / f"{name}.toml")))
        if palette.background is not None:
            parts.append("\n" + theme_table(name))
    return "".join(parts)


if __name__ == "__main__":
    PAGE.write_text(page_text(), encoding="utf-8")
