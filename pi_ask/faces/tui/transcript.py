"""What the terminal keeps after a flow: the result's transcript lines (python-port.md §10).

The flow's drawing is erased; these lines (``✓ Language: Python``, ``Cancelled``...) are
printed where it was, on the terminal and never on stdout.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import BaseStyle

from pi_ask.contract.results import ToolResult
from pi_ask.faces.tui import theme
from pi_ask.faces.tui.styled_text import Line, span
from pi_ask.i18n import gettext
from pi_ask.state.summary import TranscriptRole, transcript_lines
from pi_ask.terminal_text import sanitize_block
from pi_ask.words import DEFERRED

_ROLE_STYLE: dict[TranscriptRole, str] = {
    "text": theme.TEXT,
    "success": theme.SUCCESS,
    "warning": theme.WARNING,
    "muted": theme.MUTED,
}


def transcript(result: ToolResult) -> list[Line]:
    """The result's transcript as styled, sanitized lines (one per text line)."""
    lines: list[Line] = []
    for role, text in transcript_lines(result, gettext):
        style = _ROLE_STYLE.get(role, theme.TEXT)
        lines += [span(style, part) for part in sanitize_block(text).split("\n")]
    return lines


def print_transcript(
    result: ToolResult, output: Output, style: BaseStyle | None = None, *, deferred: bool = False
) -> None:
    """Print the transcript of ``result`` on ``output`` (the terminal), in ``style``.

    ``deferred``: the user put the ask back (the inbox's defer key): it is still pending, so
    the line says so instead of the abort that closed the flow.
    """
    fragments: list[tuple[str, str]] = []
    lines = [span(theme.WARNING, gettext(DEFERRED))] if deferred else transcript(result)
    for line in lines:
        fragments += [*line, ("", "\n")]
    if fragments:
        print_formatted_text(
            FormattedText(fragments), end="", output=output, style=style or theme.build_style()
        )
