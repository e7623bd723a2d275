"""Attaching a file to an answer: the I/O every face shares (python-port.md §12).

A face hands in the path the user typed; the file must be a regular file under the working
folder or the home folder, within the ask's limits (its asker's ``[attachments] max_files``
and ``max_mb``, counted over every answer; an answering terminal reads them from the pending
ask's summary, ``FaceRequest.file_limits``). It is copied into the ask's private folder (0700,
the copy 0600) under a safe name, and the ``Attachment`` record returned goes into the state
with ``AttachFile`` (``attach_command`` builds it). Every refusal is one ``AttachRefused``
whose message names the problem in the user's language (it is shown to them, never handed to
the model); nothing already attached or typed is lost. A file that arrives as bytes (the web
page's upload, checked against ``relay.attached_files`` first) is kept the same way
(``keep_copy``). The terminal faces say what became of a file in the same words: the message
ids here (each face draws them its own way).
"""

from __future__ import annotations

import contextlib
import mimetypes
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.contract.attachments import Attachment, LimitProblem, attachment_problem, size_text
from pi_ask.i18n import N_, gettext, ngettext
from pi_ask.private_folders import make_private, new_private_file
from pi_ask.regular_files import FileTooLarge, NotRegularFile, read_regular

if TYPE_CHECKING:
    from pi_ask.contract.attachments import FileLimits
    from pi_ask.contract.results import ToolResult
    from pi_ask.state.commands import AttachFile
    from pi_ask.state.model import AskState

# What the terminal faces say about an answer's files (English message ids).
CANNOT_ATTACH = N_("Files cannot be attached to an ask answered from here.")
NOTHING_ATTACHED = N_("This answer has no attached file.")
ATTACHED = N_("Attached {file} to this answer.")
REMOVED = N_("Removed {file} from this answer.")
NOT_ATTACHED = N_("Not attached: {why}.")
ATTACHED_LINE = N_("Attached {number}: {file}")

_NAME_LIMIT = 120
# Controls, path separators and the characters shells and terminals trip over.
_UNSAFE_NAME = r"[\x00-\x1f\x7f-\x9f/\\:*?\"<>|\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


class AttachRefused(Exception):
    """Why a file was not attached, in the user's language (the message is shown as it is)."""


def safe_name(name: str) -> str:
    """``name`` as a file name that is inert everywhere: no separators, controls or bidi
    marks, no leading dots, at most 120 characters.

    Example:
        >>> safe_name("../../etc/pass\\nwd"), safe_name(".bashrc")
        ('_.._etc_pass_wd', 'bashrc')
    """
    cleaned = re.sub(_UNSAFE_NAME, "_", name).strip().lstrip(".") or "file"
    if len(cleaned) > _NAME_LIMIT:
        stem, dot, suffix = cleaned.rpartition(".")
        keep = suffix[:16] if dot and stem else ""
        cleaned = cleaned[: _NAME_LIMIT - len(keep) - 1] + ("." + keep if keep else "")
    return cleaned


def keep_copy(folder: Path, name: str, data: bytes) -> Attachment:
    """Keep ``data`` (a file read here, or one sent to us: the web page's upload) in
    ``folder`` (the ask's attachments folder) under ``safe_name(name)``, and describe the copy.

    Raises:
        AttachRefused: The folder is not usable or cannot be written.
    """
    safe = safe_name(name)
    destination = _store(folder, safe, data)
    media_type = mimetypes.guess_type(safe)[0] or "application/octet-stream"
    return Attachment(str(destination), safe, len(data), media_type)


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def attach_file(
    typed: str,
    *,
    attached: tuple[Attachment, ...],
    folder: Path,
    limits: FileLimits,
    cwd: Path,
    home: Path | None = None,
) -> Attachment:
    """Copy the file the user named into ``folder`` and describe the copy.

    Args:
        typed: The path as typed (``~`` and relative paths allowed, from ``cwd``).
        attached: Every attachment the ask holds already (the limits count them).
        folder: The ask's attachments folder (created 0700 when missing).
        limits: The ask's limits: the asker's ``[attachments]`` (``FaceRequest.file_limits``).
        cwd: The working folder; files must be under it or ``home``.
        home: The home folder (``Path.home()`` by default).

    Raises:
        AttachRefused: The file cannot be attached; the message says why.
    """
    text = typed.strip()
    if not text:
        raise AttachRefused(gettext("name a file to attach"))
    source = Path(text).expanduser()
    if not source.is_absolute():
        source = cwd / source
    try:
        resolved = source.resolve(strict=True)
    except (OSError, RuntimeError):
        raise AttachRefused(gettext("{file}: no such file").format(file=text)) from None
    roots = tuple(root.resolve() for root in (cwd, home or Path.home()))
    if not _inside(resolved, roots):
        raise AttachRefused(
            gettext("{file}: only files under the working folder or home can be attached").format(
                file=text
            )
        )
    if resolved == folder.resolve() or folder.resolve() in resolved.parents:
        raise AttachRefused(gettext("{file}: that file is attached already").format(file=text))
    try:
        size = resolved.stat().st_size
    except OSError as err:
        raise AttachRefused(f"{text}: {err.strerror or err}") from None
    problem = attachment_problem(attached, size, limits.max_files, limits.max_bytes)
    if problem is not None:
        raise AttachRefused(f"{text}: {limit_text(problem)}")
    room = limits.max_bytes - sum(item.size for item in attached)
    try:
        data = read_regular(resolved, room)
    except FileTooLarge:
        raise AttachRefused(
            gettext("{file}: it grew past the ask's limit").format(file=text)
        ) from None
    except IsADirectoryError:
        raise AttachRefused(
            gettext("{file}: a folder cannot be attached; name a file").format(file=text)
        ) from None
    except NotRegularFile:
        raise AttachRefused(
            gettext("{file}: not a regular file (a named pipe, a device or a socket)").format(
                file=text
            )
        ) from None
    except OSError as err:
        why = err.strerror or str(err)
        raise AttachRefused(
            gettext("{file}: cannot be read ({why})").format(file=text, why=why)
        ) from None
    return keep_copy(folder, resolved.name, data)


def attach_command(
    typed: str, state: AskState, question_id: str, *, folder: Path, limits: FileLimits, cwd: Path
) -> AttachFile:
    """The command putting a copy of the file ``typed`` (``attach_file``) on the answer to
    ``question_id``, the files ``state`` holds counted against ``limits``.

    Raises:
        AttachRefused: The file is not attached; the message is the refusal as the terminals
            say it (``NOT_ATTACHED``).
    """
    # Imported here: the asker settling an ask's files (settle_attachments) needs neither,
    # and the engine's commands bring dataclasses, which a lean asker does without.
    from pi_ask.state.attachments import all_attachments
    from pi_ask.state.commands import AttachFile

    try:
        item = attach_file(
            typed, attached=all_attachments(state), folder=folder, limits=limits, cwd=cwd
        )
    except AttachRefused as refused:
        raise AttachRefused(gettext(NOT_ATTACHED).format(why=refused)) from None
    return AttachFile(question_id, item)


def _store(folder: Path, name: str, data: bytes) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    unfit = make_private(folder)
    if unfit is not None:
        raise AttachRefused(
            gettext("the ask's attachments folder {folder} is not usable: {why}").format(
                folder=folder, why=unfit
            )
        )
    try:
        fd, path = new_private_file(folder, name)
    except FileExistsError:
        raise AttachRefused(
            gettext("{folder} holds too many files named {name}").format(folder=folder, name=name)
        ) from None
    except OSError as err:
        raise AttachRefused(_cannot_copy(folder, err)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as err:
        path.unlink(missing_ok=True)
        raise AttachRefused(_cannot_copy(folder, err)) from None
    return path


def _cannot_copy(folder: Path, err: OSError) -> str:
    why = err.strerror or str(err)
    return gettext("cannot copy into {folder}: {why}").format(folder=folder, why=why)


def limit_text(problem: LimitProblem) -> str:
    """Which of the ask's limits a file would pass, in the user's language."""
    if problem.kind == "files":
        return ngettext(
            "an ask takes at most {count} attached file",
            "an ask takes at most {count} attached files",
            problem.limit,
        ).format(count=problem.limit)
    return gettext("the attached files would take {total}; an ask takes at most {limit}").format(
        total=size_text(problem.total), limit=size_text(problem.limit)
    )


def room_text(room: int) -> str:
    """How many more bytes of files the ask takes, in the user's language: why a file of a
    size not said beforehand (the web page's upload, sent in chunks) was refused once it
    went past that."""
    return gettext("the ask has room for {size} more of attached files").format(
        size=size_text(max(room, 0))
    )


def not_attached(file: str, why: str) -> str:
    """``Not attached: FILE: WHY.``, as the terminals say a refusal, for a file another
    face was sent (the web page's upload); ``why`` from ``limit_text`` or ``room_text``."""
    return gettext(NOT_ATTACHED).format(why=f"{file}: {why}")


KEEP_S = 7 * 24 * 3600
"""How long an answered ask's files are kept for the agent to read (a week, as long as a
detached ask is kept at most)."""


def settle_attachments(folder: Path, result: ToolResult, *, now_s: float | None = None) -> None:
    """The ask is over: keep in ``folder`` only the copies its result lists (a file taken
    off again, or every file of a cancelled ask, goes now), drop the folder when nothing is
    left, and remove the kept folders of other asks older than ``KEEP_S``.

    Best effort: a file that cannot be removed stays, and is swept later.
    """
    listed = {
        Path(item.path).name
        for record in result.details.answers.values()
        for item in record.attachments
        if Path(item.path).parent == folder
    }
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name not in listed:
                _remove(Path(entry.path))
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when empty
    _sweep(folder.parent, folder, time.time() if now_s is None else now_s)


def _sweep(root: Path, current: Path, now_s: float) -> None:
    """Remove the folders in ``root`` (the kept attachments) not touched for ``KEEP_S``."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        if path == current or entry.is_symlink():
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False) and now_s - entry.stat().st_mtime > KEEP_S:
                _remove(path)


def _remove(path: Path) -> None:
    import shutil  # only with something to remove: every ask ends through settle_attachments

    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
