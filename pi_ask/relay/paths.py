"""Where pending asks live: a private folder of unix sockets (python-port.md §11).

The folder is platformdirs' ``user_runtime_path("pi-ask")`` (or ``$PI_ASK_RUNTIME_DIR``),
used only when it is a real folder owned by this user with mode 0700; otherwise a ``run``
folder in the state folder, checked the same way. Socket names are short hashes, so a path
stays under the 107-byte limit of ``sun_path`` wherever the folder is.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import stat
from pathlib import Path

RUNTIME_ENV = "PI_ASK_RUNTIME_DIR"
ASK_SUFFIX = ".ask"
INBOX_SUFFIX = ".inbox"
# sun_path holds 108 bytes on Linux (104 on macOS) including the final NUL.
MAX_SOCKET_PATH = 103


class NoPrivateFolder(OSError):
    """No folder fit for sockets: each candidate is missing, shared or too deep."""


def runtime_dir() -> Path:
    """The private folder of pending asks, created 0700 if needed.

    Raises:
        NoPrivateFolder: No candidate folder is owned by this user with mode 0700.
    """
    problems: list[str] = []
    for candidate in _candidates():
        problem = _make_private(candidate)
        if problem is None:
            return candidate
        problems.append(f"{candidate}: {problem}")
    raise NoPrivateFolder("no private folder for pending asks (" + "; ".join(problems) + ")")


def _candidates() -> list[Path]:
    named = os.environ.get(RUNTIME_ENV)
    if named:
        return [Path(named).expanduser().absolute()]
    import warnings

    import platformdirs

    from pi_ask.config.paths import state_dir

    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset; its /tmp fallback is checked below.
        warnings.simplefilter("ignore")
        runtime = platformdirs.user_runtime_path("pi-ask")
    return [runtime, state_dir() / "run"]


def _make_private(folder: Path) -> str | None:
    """Create ``folder`` 0700 if missing; why it is unfit, or ``None`` when it is fit."""
    with contextlib.suppress(FileExistsError):
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as err:
        return err.strerror or str(err)
    try:
        info = os.lstat(folder)
    except OSError as err:
        return err.strerror or str(err)
    if not stat.S_ISDIR(info.st_mode):
        return "not a folder"
    if info.st_uid != os.getuid():
        return "owned by another user"
    if stat.S_IMODE(info.st_mode) != 0o700:
        return f"mode {stat.S_IMODE(info.st_mode):04o}, not 0700"
    if len(os.fsencode(folder)) + 1 + 16 + len(ASK_SUFFIX) > MAX_SOCKET_PATH:
        return "too deep for a socket path"
    return None


def socket_name(ask_id: str, suffix: str) -> str:
    """A short, fixed-length file name for ``ask_id``: 16 hex digits of its SHA-256."""
    return hashlib.sha256(ask_id.encode("utf-8", "surrogatepass")).hexdigest()[:16] + suffix


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
    temporary = path.with_name(f".{secrets.token_hex(6)}.tmp")
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
