"""``[theme] name = "auto"``: dark or light, from the background colour the terminal reports.

The flow asks once, right after its first frame (OSC 11, ``ESC ] 11 ; ? ESC \\``), and draws
that frame in ``dark`` meanwhile: nothing waits for a terminal that may never answer. The
reply comes back as input; the input pre-filter (``terminal_reports``) takes it out before
prompt_toolkit's key parser for as long as the flow runs, so a reply, however late, is never
read as keys (it starts with Esc: it would cancel the ask, then type ``1``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pi_ask.faces.tui.terminal_reports import TerminalReports

QUERY = "\x1b]11;?\x1b\\"
# ``rgb:R/G/B`` with 1-4 hex digits a channel (xterm), ``rgba:`` with a fourth (some terminals).
_HEX = "([0-9a-fA-F]{1,4})"
_REPLY = re.compile(f"rgba?:{_HEX}/{_HEX}/{_HEX}(?:/[0-9a-fA-F]+)?")

Shade = Literal["dark", "light"]


def relative_luminance(red: float, green: float, blue: float) -> float:
    """WCAG relative luminance of an sRGB colour given as three fractions from 0 to 1."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def shade_of_reply(body: str) -> Shade | None:
    """``light`` or ``dark`` for an OSC 11 reply body (``rgb:1e1e/1e1e/2e2e``); else ``None``.

    Light means dark text reads better on it than light text (luminance above ~0.18).

    Example:
        >>> shade_of_reply("rgb:ffff/ffff/ffff"), shade_of_reply("rgb:1e/1e/2e")
        ('light', 'dark')
    """
    match = _REPLY.fullmatch(body.strip())
    if match is None:
        return None
    red, green, blue = (int(part, 16) / (16 ** len(part) - 1) for part in match.groups()[:3])
    level = relative_luminance(red, green, blue)
    # The background is light when black text on it has more contrast than white text.
    return "light" if (level + 0.05) / 0.05 > 1.05 / (level + 0.05) else "dark"


def ask_background(
    reports: TerminalReports, write: Callable[[str], None], on_shade: Callable[[Shade], None]
) -> Callable[[], None]:
    """Send the OSC 11 query; ``on_shade`` gets the first readable reply's shade, once.

    Returns:
        A function that stops listening (a reply after it is still taken out of the input).
    """
    stopped = False

    def stop() -> None:
        nonlocal stopped
        stopped = True
        unsubscribe()

    def on_reply(body: str) -> None:
        shade = shade_of_reply(body)
        if shade is not None and not stopped:
            stop()
            on_shade(shade)

    unsubscribe = reports.on_osc(11, on_reply)
    write(QUERY)
    return stop
