"""The running ``pi-ask inbox`` terminals, as an asker finds them.

Each inbox listens on ``<runtime>/<hash>.inbox``; a poke makes it look for new asks at once.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from pi_ask.relay.paths import INBOX_SUFFIX, is_own_socket

if TYPE_CHECKING:
    from pathlib import Path


def inbox_sockets(folder: Path) -> list[Path]:
    """The inbox sockets in ``folder`` (live or not: ``poke_inboxes`` finds out)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / n for n in names if n.endswith(INBOX_SUFFIX) and is_own_socket(folder / n)]


def poke_inboxes(folder: Path) -> int:
    """Tell every running inbox to look for new asks; how many were reached.

    An inbox socket nobody listens on (its inbox died) is removed when seen.
    """
    from pi_ask.relay import wire

    reached = 0
    for path in inbox_sockets(folder):
        try:
            connection = wire.connect(os.fspath(path), timeout_s=2.0)
        except (ConnectionRefusedError, FileNotFoundError):
            with contextlib.suppress(OSError):
                os.unlink(path)
            continue
        except OSError:
            continue
        try:
            if connection.send({"type": "poke"}):
                reached += 1
        finally:
            connection.close()
    return reached
