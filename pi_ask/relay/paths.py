"""Where pending asks live (python-port.md §11, §12).

Each ask is a folder ``<state>/asks/<id>/`` (``asks_dir``); a live asker and every running
inbox also listen on a unix socket in the runtime folder (``runtime_dir``). Both are used only
when they are real folders owned by this user with mode 0700, checked with ``lstat`` (a
planted symlink is never followed). Socket names are short hashes, so a path stays under the
107-byte limit of ``sun_path``.

The runtime folder is found without trusting what a host passes on, so an asker and an inbox
agree on it whatever their environments: ``$PI_ASK_RUNTIME_DIR`` when set, else
``/run/user/<uid>/pi-ask`` when ``/run/user/<uid>`` is this user's private folder, else
``run/`` in the state folder. ``$XDG_RUNTIME_DIR`` is only a last resort (a state folder too
deep for a socket path): hosts pass it or drop it at will (Codex drops it), and an inbox
started with it must still be found by an asker started without it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.private_folders import make_private, unfit_reason

if TYPE_CHECKING:
    import socket

# socket loads where it is used: an asker with nobody to reach answers no_terminal without
# it. Random names come from os.urandom, not secrets: secrets imports hmac, which maps
# OpenSSL's libcrypto (3.4 MiB resident) into every waiting asker.

RUNTIME_ENV = "PI_ASK_RUNTIME_DIR"
ASK_SUFFIX = ".ask"
INBOX_SUFFIX = ".inbox"
# sun_path holds 108 bytes on Linux (104 on macOS) including the final NUL.
MAX_SOCKET_PATH = 103
# systemd-logind's per-user runtime folders (XDG_RUNTIME_DIR's usual value).
USER_RUN = Path("/run/user")


class NoPrivateFolder(OSError):
    """No folder fit for sockets: each candidate is missing, shared or too deep."""


def runtime_dir() -> Path:
    """The private folder of the askers' and inboxes' sockets, created 0700 if needed.

    A candidate that is unfit (a symlink, another user's, open to others) is passed over,
    and the folder used instead is said once on stderr, with why.

    Raises:
        NoPrivateFolder: No candidate folder is owned by this user with mode 0700.
    """
    problems: list[str] = []
    for candidate in _candidates():
        problem = _make_private(candidate)
        if problem is None:
            if problems and candidate not in _said:
                _said.add(candidate)
                _say(f"sockets of pending asks are kept in {candidate} ({'; '.join(problems)})")
            return candidate
        problems.append(f"{candidate}: {problem}")
    raise NoPrivateFolder("no private folder for pending asks (" + "; ".join(problems) + ")")


_said: set[Path] = set()


def _say(text: str) -> None:
    import sys

    with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing to say
        print(f"pi-ask: {text}", file=sys.stderr, flush=True)


def _candidates() -> list[Path]:
    named = os.environ.get(RUNTIME_ENV)
    if named:
        return [Path(named).expanduser().absolute()]
    from pi_ask.config.paths import state_dir

    found = []
    user_run = USER_RUN / str(os.getuid())
    if _is_own_private_folder(user_run):
        found.append(user_run / "pi-ask")
    found.append(state_dir() / "run")
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and Path(xdg).is_absolute() and Path(xdg) / "pi-ask" not in found:
        found.append(Path(xdg) / "pi-ask")
    return found


def asks_dir() -> Path:
    """``<state>/asks``: one private folder per pending ask, created 0700 if needed.

    Raises:
        NoPrivateFolder: The folder is not a real folder owned by this user with mode 0700.
    """
    from pi_ask.config.paths import state_dir

    folder = state_dir() / "asks"
    problem = _make_private(folder, sockets=False)
    if problem is not None:
        raise NoPrivateFolder(f"no private folder for pending asks ({folder}: {problem})")
    return folder


def _is_own_private_folder(folder: Path) -> bool:
    try:
        return unfit_reason(os.lstat(folder)) is None
    except OSError:
        return False


def _make_private(folder: Path, *, sockets: bool = True) -> str | None:
    """Create ``folder`` 0700 if missing; why it is unfit, or ``None`` when it is fit.

    ``sockets``: it must also be shallow enough for a socket path.
    """
    with contextlib.suppress(FileExistsError):
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    problem = make_private(folder)
    if (
        problem is None
        and sockets
        and len(os.fsencode(folder)) + 1 + 16 + len(ASK_SUFFIX) > MAX_SOCKET_PATH
    ):
        return "too deep for a socket path"
    return problem


def fresh_socket_name(suffix: str) -> str:
    """A new socket file name: 16 random hex digits, so a path stays under ``sun_path``."""
    return random_hex(8) + suffix


def random_hex(size: int) -> str:
    """``size`` random bytes as hex, for names nobody may guess or repeat."""
    return os.urandom(size).hex()


def is_own_socket(path: Path) -> bool:
    """True for a socket (not a link) owned by this user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISSOCK(info.st_mode) and info.st_uid == os.getuid()


def listen_at(path: Path, backlog: int) -> socket.socket:
    """A listening unix socket at ``path``, mode 0600, that is never seen half-made.

    It is bound and set listening under a temporary name first, then renamed into place:
    a peer that finds ``path`` can always connect, so a refused connection reliably means
    a dead owner (whose file may then be removed).
    """
    import socket

    temporary = path.with_name(f".{random_hex(6)}.tmp")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(os.fspath(temporary))
        os.chmod(temporary, 0o600)
        server.listen(backlog)
        os.replace(temporary, path)
    except OSError:
        server.close()
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return server
