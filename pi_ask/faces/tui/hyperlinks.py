"""OSC 8 hyperlinks: a Markdown link's text made clickable where the terminal shows them.

``[ui] hyperlinks`` decides: ``off``; ``on``; or ``auto``, which trusts only terminals known
to show OSC 8 links (and never tmux or screen, which pass them on only when configured to).
The link's URL is drawn after its text either way (``markdown.document``); the target in the
escape is ``terminal_text.hyperlink_target``'s (http, https, mailto; every other byte
percent-encoded), carried to here in the span's style as ``[href=...]``, which
prompt_toolkit's style parser ignores.

prompt_toolkit redraws only the cells that changed, writing a zero-width escape just before
its cell. So each cell of a link is preceded by the opening escape (whichever of them are
redrawn are inside the link), and the cell after the link by the closing one; that cell's
style names the link's cells (``[link-end=...]``), so whenever a cell of the link is redrawn,
so is it, and the link is closed before anything else is written. A link that ends a line
gets one blank cell after it for that purpose (styled, or prompt_toolkit would take it for
trailing space and never draw it), or no hyperlink when the line is full.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from pi_ask.faces.tui.styled_text import Line, Span, line_width, text_width

ESCAPE = "[ZeroWidthEscape]"
CLOSE = "\x1b]8;;\x1b\\"
_HREF = re.compile(r"\[href=([^\]\s]+)\]")
# TERM_PROGRAM values and TERM names of terminals that show OSC 8 links.
_PROGRAMS = frozenset({"iTerm.app", "WezTerm", "ghostty", "vscode"})
_TERMS = frozenset({"xterm-kitty", "xterm-ghostty", "foot", "foot-extra", "wezterm"})
_VTE_WITH_LINKS = 5000  # VTE 0.50 (GNOME Terminal 3.26 and later)


class _Switch:
    on = False


def terminal_shows_hyperlinks(environ: Mapping[str, str] | None = None) -> bool:
    """True for a terminal known to show OSC 8 links, outside tmux and screen."""
    env = os.environ if environ is None else environ
    term = env.get("TERM", "")
    if env.get("TMUX") or env.get("STY") or term.startswith(("screen", "tmux")):
        return False
    if env.get("TERM_PROGRAM") in _PROGRAMS or term in _TERMS:
        return True
    if env.get("KITTY_WINDOW_ID") or env.get("WT_SESSION"):
        return True
    vte = env.get("VTE_VERSION", "")
    return vte.isdigit() and int(vte) >= _VTE_WITH_LINKS


def use_hyperlinks(mode: str, environ: Mapping[str, str] | None = None) -> bool:
    """Set the switch from ``[ui] hyperlinks`` (``auto``: ``terminal_shows_hyperlinks``)."""
    _Switch.on = mode == "on" or (mode == "auto" and terminal_shows_hyperlinks(environ))
    return _Switch.on


def hyperlinks_on() -> bool:
    return _Switch.on


def with_hyperlinks(lines: Sequence[Line], width: int) -> tuple[Line, ...]:
    """``lines`` (each at most ``width`` cells) with their links wrapped in OSC 8 escapes."""
    return tuple(_line(line, width) if _has_link(line) else line for line in lines)


def _has_link(line: Line) -> bool:
    return any("[href=" in style for style, _ in line)


def _line(line: Line, width: int) -> Line:
    out: list[Span] = []
    spans = list(line)
    column = 0
    index = 0
    while index < len(spans):
        style, text = spans[index]
        found = _HREF.search(style)
        if found is None:
            out.append((style, text))
            column += text_width(text)
            index += 1
            continue
        target = found.group(1)
        group: list[Span] = []
        while index < len(spans) and _target(spans[index][0]) == target:
            group.append(spans[index])
            index += 1
        after = [span for span in spans[index:] if span[1]]  # the next cell is a real one
        link_width = line_width(tuple(group))
        if not after and column + link_width >= width:
            out += group  # no cell left to close it in: shown without a hyperlink
            column += link_width
            continue
        token = _token(target, column, group)
        opening = f"\x1b]8;id={token};{target}\x1b\\"
        for part_style, part_text in group:
            for char in part_text:
                out += [(ESCAPE, opening), (part_style, char)]
        column += link_width
        # A blank cell after a link that ends its line: a default background (SGR 49, no
        # change to see) makes prompt_toolkit count it as drawn, not as trailing space.
        head_style, head_text = after[0] if after else ("bg:ansidefault", " ")
        marked = f"{head_style} [link-end={token}]".strip()
        out += [(ESCAPE, CLOSE), (marked, head_text[:1])]
        column += text_width(head_text[:1])
        rest = head_text[1:]
        spans = [*([(head_style, rest)] if rest else []), *after[1:]]
        index = 0
    return tuple(out)


def _target(style: str) -> str | None:
    found = _HREF.search(style)
    return found.group(1) if found else None


def _token(target: str, column: int, group: list[Span]) -> str:
    """Names the link's cells: it changes whenever a cell of the link would be redrawn (a
    hash of this process is enough: the frames compared are all drawn by it)."""
    return format(hash((target, column, tuple(group))) & 0xFFFF_FFFF_FFFF, "x")
