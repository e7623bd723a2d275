"""Files attached to a pending ask's answers (python-port.md §12).

An answering terminal copies each file into the ask's own folder, ``<asks>/<id>/attachments/``
(``AskFolder.attachments``), and its drafts and claim carry the attachment records (path,
name, size, media type) in the draft form. Whoever reads them back — the asker, a fetch of a
detached ask's result, the answering terminal itself — keeps only the records that name a
file the ask really holds (``checked``): a regular file, not a link, directly in that folder,
of the size recorded, within the ask's limits counted over every answer in question order.
Anything else is dropped, so a claim can never hand the agent a path outside the ask.

A live asker removes the ask's folder once the ask ends; before it does, ``moved`` takes the
files to where the asker keeps them (``<state>/attachments/<id>/``) and points the records
there.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pi_ask.contract.attachments import DEFAULT_MAX_FILES, DEFAULT_MAX_MB, Attachment
from pi_ask.state.model import Answer, AskState

MAX_FIELD_CHARS = 255
"""A name or media type longer than this is no record a face wrote."""


class AskFiles(NamedTuple):
    """Where an ask's attached files must be, and how many it takes.

    Attributes:
        folder: The ask's attachments folder (``<asks>/<id>/attachments``).
        max_files: Files in all, over every answer.
        max_bytes: Bytes in all.
    """

    folder: Path
    max_files: int = DEFAULT_MAX_FILES
    max_bytes: int = DEFAULT_MAX_MB * 1_000_000


def checked(state: AskState, files: AskFiles | None) -> AskState:
    """``state`` with only the attachment records that name a file the ask holds (all of
    them dropped when ``files`` is ``None``: the reader takes no files)."""
    if not any(answer.attachments for _, answer in state.answers):
        return state
    seen: set[str] = set()
    total = 0

    def held(answer: Answer) -> tuple[Attachment, ...]:
        nonlocal total
        kept: list[Attachment] = []
        for item in answer.attachments:
            if files is None or item.path in seen or not _held(item, files.folder):
                continue
            if len(seen) + 1 > files.max_files or total + item.size > files.max_bytes:
                continue
            seen.add(item.path)
            total += item.size
            kept.append(item)
        return tuple(kept)

    return _refitted(state, held)


def _refitted(state: AskState, files_of: Callable[[Answer], tuple[Attachment, ...]]) -> AskState:
    """``state`` with each answer's attachments replaced by ``files_of(answer)``, in question
    order; an answer left empty goes."""
    answers: list[tuple[str, Answer]] = []
    for question_id, answer in state.answers:
        fitted = answer._replace(attachments=files_of(answer))
        if not fitted.is_empty:
            answers.append((question_id, fitted))
    return state._replace(answers=tuple(answers))


def _held(item: Attachment, folder: Path) -> bool:
    """True when ``item`` names a regular file of its size directly in ``folder``."""
    if len(item.name) > MAX_FIELD_CHARS or len(item.media_type) > MAX_FIELD_CHARS:
        return False
    path = Path(item.path)
    if not path.is_absolute() or os.path.normpath(item.path) != item.path:
        return False  # one spelling per file, so a file counts once
    try:
        info = os.lstat(path)
        parent = os.stat(path.parent)  # the same folder, however each process spells it
        own = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(own.st_mode) or own.st_uid != os.getuid():
        return False
    if (parent.st_dev, parent.st_ino) != (own.st_dev, own.st_ino):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == item.size


def moved(state: AskState, source: Path, destination: Path) -> AskState:
    """Move the ask's attachments folder ``source`` to ``destination`` (0700) and point the
    records of ``state`` (already ``checked`` against ``source``) there.

    The folder moves by one rename when it can (both are under the state folder), else file
    by file; a record whose file could not be moved is dropped. Nothing to move: ``state``.
    """
    if not any(answer.attachments for _, answer in state.answers):
        return state
    with contextlib.suppress(FileExistsError):
        destination.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.rename(source, destination)
    except OSError:
        _copy_files(state, source, destination)

    def there(answer: Answer) -> tuple[Attachment, ...]:
        return tuple(
            item._replace(path=str(destination / Path(item.path).name))
            for item in answer.attachments
            if (destination / Path(item.path).name).is_file()
        )

    return _refitted(state, there)


def _copy_files(state: AskState, source: Path, destination: Path) -> None:
    """The files of ``state``'s records copied one by one (another file system, or a
    destination that exists already: a resumed ask's)."""
    import shutil  # only once there is a file to copy: a waiting asker loads none

    try:
        destination.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return
    for _, answer in state.answers:
        for item in answer.attachments:
            name = Path(item.path).name
            with contextlib.suppress(OSError):
                if not (destination / name).exists():
                    shutil.copyfile(source / name, destination / name, follow_symlinks=False)
                    os.chmod(destination / name, 0o600)
