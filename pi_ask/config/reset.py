"""Put the config file back to its defaults (the settings overlay's reset, ``config reset``).

A valid file keeps its comments, its layout and its unknown keys: only the values that differ
from their defaults are rewritten. A file that is not TOML cannot be edited, so it is kept as
``config.toml.bak`` and replaced by the commented default file (python-port.md §10); the
backups of earlier resets move down to ``.bak.1`` .. ``.bak.4`` (the oldest goes), so a second
reset never overwrites the first one's copy (python-port.md §12).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from pi_ask.config.loading import MAX_CONFIG_BYTES, read_file
from pi_ask.config.storage import check_writable, locked, target_of, write_atomic
from pi_ask.config.toml_edit import reset_values
from pi_ask.config.toml_text import default_text
from pi_ask.regular_files import read_regular


def reset_file(path: Path) -> Path | None:
    """Put every setting of the file back to its default (see ``request_reset``).

    Returns:
        The backup of an unparsable file, or ``None``.

    Raises:
        OSError: The file cannot be read or written.
    """
    target = target_of(path)
    with locked(path):
        content = read_file(path)
        if content.status == "unreadable":
            raise OSError(content.detail)
        check_writable(target)
        if content.status != "parsed":
            backup = None
            if content.status == "not_toml":
                broken = read_regular(target, MAX_CONFIG_BYTES)
                backup = shift_backups(path)
                write_atomic(backup, broken)
            write_atomic(target, default_text().encode("utf-8"))
            return backup
        old = content.text
        new = reset_values(old)
        if new != old:
            write_atomic(target, new.encode("utf-8"))
        return None


KEPT_BACKUPS = 4
"""Older backups kept besides the newest: ``.bak.1`` (newer) .. ``.bak.4`` (oldest)."""


def backup_names(path: Path) -> list[Path]:
    """``config.toml.bak`` then ``.bak.1`` .. ``.bak.4``, newest first."""
    newest = path.with_name(path.name + ".bak")
    return [newest, *(newest.with_name(f"{newest.name}.{n}") for n in range(1, KEPT_BACKUPS + 1))]


def shift_backups(path: Path) -> Path:
    """Move each backup one place older (the oldest is dropped) and return the free newest
    name, ``config.toml.bak``."""
    names = backup_names(path)
    for newer, older in reversed(list(pairwise(names))):
        if newer.is_file() and not newer.is_symlink():
            newer.replace(older)
    return names[0]
