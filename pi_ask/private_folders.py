"""Folders private to this user, made or checked without trusting what another user planted.

In a shared folder such as ``/tmp`` another user can create our folder's name first: as a
folder of theirs (any mode), a folder open to everyone, or a symlink to a place they control.
``make_private`` creates the folder (0700) or looks at what is there with ``lstat`` (a
symlink is never followed) and says why it is unfit: the caller then falls back to a folder
under the user's own state folder and says which it uses. Once a folder in a sticky ``/tmp``
is ours, nobody else can rename or replace it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_MODE = 0o700


def make_private(folder: Path) -> str | None:
    """Create ``folder`` with mode 0700 when it is missing; why it is unfit, or ``None``.

    Its parent must exist. Fit means: a real folder (not a symlink), owned by this user,
    that no group or other user may enter.
    """
    try:
        folder.mkdir(mode=PRIVATE_MODE)
    except FileExistsError:
        pass
    except OSError as err:
        return err.strerror or str(err)
    try:
        info = os.lstat(folder)
    except OSError as err:
        return err.strerror or str(err)
    return unfit_reason(info)


def unfit_reason(info: os.stat_result) -> str | None:
    """Why the folder ``info`` (from ``lstat``) is not private to this user, or ``None``."""
    if stat.S_ISLNK(info.st_mode):
        return "a symlink"
    if not stat.S_ISDIR(info.st_mode):
        return "not a folder"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return "owned by another user"
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        return f"open to others (mode {mode:04o})"
    return None


def new_private_file(folder: Path, name: str) -> tuple[int, Path]:
    """Create a file only this user may read (0600) in ``folder``, named ``name`` or, when
    that is taken, ``stem-2.suffix``, ``stem-3.suffix`` and so on: nothing is overwritten and
    no link followed. Its descriptor, open for writing, and its path.

    Raises:
        FileExistsError: A thousand names are taken.
        OSError: It cannot be created.
    """
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        stem, suffix = name, ""
    for number in range(1, 1000):
        candidate = name if number == 1 else f"{stem}-{number}{'.' + suffix if suffix else ''}"
        path = folder / candidate
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            continue
        return fd, path
    raise FileExistsError(f"{folder} holds too many files named {name}")
