"""Files attached to a pending ask's answers (python-port.md §12).

An answering terminal copies each file into the ask's own folder, ``<asks>/<id>/attachments/``
(``AskFolder.attachments``), and its drafts and claim carry the attachment records (path,
name, size, media type) in the draft form. Whoever reads them back — the asker, a fetch of a
detached ask's result, the answering terminal itself — keeps only the records that name a
file the ask really holds (``checked``): a regular file, not a link, directly in that folder,
of the size recorded, with a name that is one inert line (``name_problem``), within the
ask's limits counted over every answer in question order. Anything else is dropped, so a
claim can never hand the agent a path outside the ask, nor a name that reads as more lines
of the result's text.

A file sent to the ask (the web page's upload) is held to the same rules before a byte is
kept: its name must pass ``name_problem`` (it is refused, not renamed), and it must fit the
ask's ``room`` (``AskFiles.problem``), read no further than that.

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

from pi_ask.contract.attachments import (
    DEFAULT_MAX_FILES,
    DEFAULT_MAX_MB,
    Attachment,
    LimitProblem,
    attachment_problem,
)
from pi_ask.private_folders import new_private_file
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

    def problem(self, attached: tuple[Attachment, ...], size: int) -> LimitProblem | None:
        """Which limit one more file of ``size`` bytes would pass joining ``attached`` (the
        ask's files, every answer's), or ``None`` when it fits."""
        return attachment_problem(attached, size, self.max_files, self.max_bytes)

    def room(self, attached: tuple[Attachment, ...]) -> int:
        """How many more bytes of files the ask takes beside ``attached`` (0 when full)."""
        return max(self.max_bytes - sum(item.size for item in attached), 0)


def ask_files(folder: Path, max_files: int | None = None, max_bytes: int | None = None) -> AskFiles:
    """The files of the ask whose attachments folder is ``folder``, held to the limits the
    asker said (the default for each it did not)."""
    defaults = AskFiles(folder)
    return AskFiles(
        folder,
        defaults.max_files if max_files is None else max_files,
        defaults.max_bytes if max_bytes is None else max_bytes,
    )


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name an attached file (``None``: it can): empty, a path, a line
    break or another control character, or too long. (In English: said to the sender of a
    file, and the reason a record is dropped.)"""
    if not name or name in (".", ".."):
        return "it is empty"
    if "/" in name or "\\" in name:
        return "it is a path, not a file name"
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in name):
        return "it holds a line break or another control character"
    if len(name) > MAX_FIELD_CHARS:
        return f"it is longer than {MAX_FIELD_CHARS} characters"
    return None


def checked(state: AskState, files: AskFiles | None) -> AskState:
    """``state`` with only the attachment records that name a file the ask holds (all of
    them dropped when ``files`` is ``None``: the reader takes no files)."""
    if not any(answer.attachments for _, answer in state.answers):
        return state
    own = None if files is None else _own_folder(files.folder)
    if files is None or own is None:
        return _refitted(state, lambda _answer: ())
    seen: set[str] = set()
    kept: list[Attachment] = []  # every answer's so far: the limits count them all

    def held(answer: Answer) -> tuple[Attachment, ...]:
        its: list[Attachment] = []
        for item in answer.attachments:
            if item.path in seen or not _held(item, own):
                continue
            if files.problem(tuple(kept), item.size) is not None:
                continue
            seen.add(item.path)
            kept.append(item)
            its.append(item)
        return tuple(its)

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


def _own_folder(folder: Path) -> os.stat_result | None:
    """``folder`` as ``lstat`` sees it when it is a folder of this user's, else ``None``."""
    try:
        own = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(own.st_mode) or own.st_uid != os.getuid():
        return None
    return own


def _held(item: Attachment, own: os.stat_result) -> bool:
    """True when ``item`` names a regular file of its size directly in the folder ``own``
    (``_own_folder``)."""
    if name_problem(item.name) is not None or len(item.media_type) > MAX_FIELD_CHARS:
        return False
    path = Path(item.path)
    if not path.is_absolute() or os.path.normpath(item.path) != item.path:
        return False  # one spelling per file, so a file counts once
    try:
        info = os.lstat(path)
        parent = os.stat(path.parent)  # the same folder, however each process spells it
    except OSError:
        return False
    if (parent.st_dev, parent.st_ino) != (own.st_dev, own.st_ino):
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == item.size


def moved(state: AskState, source: Path, destination: Path) -> AskState:
    """Move the ask's attachments folder ``source`` to ``destination`` (0700) and point the
    records of ``state`` (already ``checked`` against ``source``) there.

    The folder moves by one rename when it can (both are under the state folder), else file
    by file, a name taken there already giving way to the next free one (nothing is
    overwritten); a record whose file could not be moved is dropped. Nothing to move:
    ``state``.
    """
    if not any(answer.attachments for _, answer in state.answers):
        return state
    with contextlib.suppress(FileExistsError):
        destination.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    names = {Path(item.path).name for _, answer in state.answers for item in answer.attachments}
    try:
        os.rename(source, destination)
        placed = {name: destination / name for name in names}
    except OSError:
        placed = _copy_files(names, source, destination)

    def there(answer: Answer) -> tuple[Attachment, ...]:
        kept: list[Attachment] = []
        for item in answer.attachments:
            path = placed.get(Path(item.path).name)
            with contextlib.suppress(OSError):
                if path is not None and os.lstat(path).st_size == item.size:
                    kept.append(item._replace(path=str(path)))
        return tuple(kept)

    return _refitted(state, there)


def _copy_files(names: set[str], source: Path, destination: Path) -> dict[str, Path]:
    """The files ``names`` of ``source`` copied one by one into ``destination`` (another
    file system, or a destination that exists already: a resumed ask's); where each went.
    A file no longer in ``source`` that ``destination`` holds was moved there before (the
    claim read again)."""
    try:
        destination.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return {}
    placed: dict[str, Path] = {}
    for name in sorted(names):
        if not os.path.lexists(source / name):
            placed[name] = destination / name
            continue
        with contextlib.suppress(OSError):
            placed[name] = _copy_file(source / name, destination, name)
    return placed


def _copy_file(source: Path, destination: Path, name: str) -> Path:
    import shutil  # only once there is a file to copy: a waiting asker loads none

    fd, path = new_private_file(destination, name)
    try:
        with (
            os.fdopen(fd, "wb") as out,
            open(os.open(source, os.O_RDONLY | os.O_NOFOLLOW), "rb") as read,
        ):
            shutil.copyfileobj(read, out)
    except OSError:
        path.unlink(missing_ok=True)
        raise
    return path
