"""The face table: every face an ask can open in, named once.

``--ui`` of every command, the faces ``attach`` and ``inbox`` answer in, ``[ui] face``, the
MCP server's terminal route and the docs all take their names from here. A face named here
lives in ``pi_ask/faces/<name>/`` and its ``face.py`` has the one entry ``run(state,
request)`` (``pi_ask.ask.face``). Adding a face is adding its folder and its row here.
"""

from __future__ import annotations

from typing import Literal, get_args

TerminalFace = Literal["tui", "plain"]
"""The faces that draw on a terminal: any command's ``--ui``, ``[ui] face``, ``attach``,
``inbox`` and the MCP terminal route (a terminal elsewhere) can open them."""
FaceName = Literal[TerminalFace, "rpc"]
"""Every interactive face: the terminal ones, and the pi RPC dialogs on stdin/stdout."""
UiMode = Literal["auto", FaceName, "none"]
"""What ``--ui`` takes: a face, ``auto`` (routing picks one) or ``none`` (nobody is asked)."""
TmuxMode = Literal["popup", "window", "off"]
"""How an ask with no terminal of its own opens inside tmux (``[inbox] tmux``)."""
NoTerminal = Literal["answer", "wait"]
"""What an ask does when nobody can be reached: answer ``no_terminal`` at once, or wait for
``pi-ask attach`` (``[behaviour] no_terminal``)."""

TERMINAL_FACES: tuple[TerminalFace, ...] = get_args(TerminalFace)
FACE_NAMES: tuple[FaceName, ...] = get_args(FaceName)
UI_MODES: tuple[UiMode, ...] = get_args(UiMode)


FACE_HELP: dict[FaceName, str] = {
    "tui": "",
    "plain": "line by line: screen readers, dumb terminals",
    "rpc": "pi RPC dialogs on stdin/stdout",
}
"""What each face is, in ``--ui``'s help (empty: its name says it)."""


def face_module(name: FaceName) -> str:
    """The module holding face ``name``'s ``run(state, request)``."""
    return f"pi_ask.faces.{name}.face"
