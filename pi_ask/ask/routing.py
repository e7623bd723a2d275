"""Which face an ask opens in (python-port.md §11 ``--ui auto``).

This process's own terminal, only when it is in that terminal's foreground process group (a
background child of an agent must never draw over its host or stop on SIGTTIN); else the
ask goes elsewhere (``pi_ask.relay``): a running inbox, a tmux popup, or nobody.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from pi_ask.face_table import TERMINAL_FACES, FaceName, TerminalFace, UiMode

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore

Route = Literal[FaceName, "none", "elsewhere"]
"""Where an ask goes: a face of this process, nobody, or a terminal elsewhere."""


def in_foreground_terminal() -> bool:
    """True when ``/dev/tty`` opens and this process is in its foreground process group."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def has_terminal() -> bool:
    """True when the controlling terminal can be opened for a face to draw on."""
    return terminal_problem() is None


def terminal_problem() -> str | None:
    """Why the controlling terminal cannot be opened for a face to draw on (the system's
    words), or ``None`` when it can."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError as err:
        return err.strerror or str(err)
    os.close(fd)
    return None


def terminal_face(store: SettingsStore) -> TerminalFace:
    """The face a terminal gets when none was asked for: ``[ui] face``, plain on ``TERM=dumb``."""
    return terminal_face_for(store.snapshot().ui.face)


def terminal_face_for(setting: TerminalFace) -> TerminalFace:
    """The face a terminal gets with ``[ui] face = setting``.

    A terminal that cannot move its cursor gets the line-by-line face whatever the setting.
    """
    return "plain" if os.environ.get("TERM") == "dumb" else setting


def pick_face(ui: UiMode, on_terminal: TerminalFace = "tui") -> Route:
    """Where ``--ui ui`` opens the ask: a face, ``elsewhere`` (``pi_ask.relay``), or ``none``.

    ``auto`` is the terminal's face (``on_terminal``) in the foreground of a terminal, else
    elsewhere. A terminal face asked for with no terminal there is ``none`` (the command line
    says so in its one ``no_terminal`` line on stderr).
    """
    if ui == "auto":
        # A background child of a terminal must not draw over its host (python-port.md §11).
        return on_terminal if in_foreground_terminal() else "elsewhere"
    if ui in TERMINAL_FACES and not has_terminal():
        # Asked for a terminal that is not there: the questions go back unanswered.
        return "none"
    return ui
