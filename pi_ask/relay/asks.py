"""Pending asks on disk: one private folder per ask (python-port.md §12).

``<state>/asks/<id>/`` (0700) holds:

- ``payload.json``: the ask's params, as the asker loaded them;
- ``summary.json``: what a listing reads (title, folder, created, deadline, questions, the
  asker's socket when it waits for the answer itself, ``detached`` when nobody does, the
  asker's limits on attached files);
- ``draft.json``: the answers an answering terminal committed last (the draft form);
- ``claim``: the answer that won — created once, atomically, by a link (first wins); its
  claimer built the result from ``payload.json`` with the contract code first;
- ``result.json``: that result; ``fetched`` once a detached ask's result was handed out;
- ``attachments/``: the files an answering terminal attached (``relay.attached_files``).

A folder is made under a hidden name and renamed into place, so a listing never sees one
half-made; every file is written under a temporary name and renamed (or linked) in, so the
folder's watchers (``relay.watch``) see every change as an entry event. Reading is bounded
and never follows a link: a file another program swapped for a FIFO, a device or a huge file
is not read.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pi_ask.guarded_parse import load_json
from pi_ask.regular_files import read_regular
from pi_ask.relay.paths import random_hex
from pi_ask.relay.watch import nudge

if TYPE_CHECKING:
    from pi_ask.relay.attached_files import AskFiles

PAYLOAD = "payload.json"
SUMMARY = "summary.json"
DRAFT = "draft.json"
CLAIM = "claim"
RESULT = "result.json"
FETCHED = "fetched"
ATTACHMENTS = "attachments"
# A payload is at most 1 MiB of JSON; its params may be escaped further.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_SUMMARY_BYTES = 64 * 1024
KEEP_AFTER_FETCH_S = 24 * 3600
KEEP_AT_MOST_S = 7 * 24 * 3600
_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")


class AskSummary(NamedTuple):
    """A pending ask as a listing sees it."""

    ask_id: str
    folder: Path
    title: str | None
    cwd: str
    created_ms: int
    questions: int
    deadline_ms: int | None
    socket: Path | None
    """The asker's socket (its whole path: another process's runtime folder may differ)
    while it waits itself."""
    detached: bool
    log: Path | None = None
    """A detached ask's session log, settled by whoever fetches its result first."""
    max_files: int | None = None
    max_bytes: int | None = None
    """The asker's limits on attached files (``[attachments]``), when it said them."""

    def files(self) -> AskFiles:
        """Where the ask's attached files are, and its limits (the defaults when unsaid)."""
        from pi_ask.relay.attached_files import ask_files

        return ask_files(self.folder / ATTACHMENTS, self.max_files, self.max_bytes)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "id": self.ask_id,
            "cwd": self.cwd,
            "createdAt": self.created_ms,
            "questions": self.questions,
        }
        if self.title is not None:
            out["title"] = self.title
        if self.deadline_ms is not None:
            out["deadline"] = self.deadline_ms
        if self.detached:
            out["detached"] = True
        return out


def is_ask_id(name: str) -> bool:
    """True for a name an ask id can have: letters, digits, - and _ (a UUID), not too long."""
    return 0 < len(name) <= 64 and set(name) <= _ID_CHARS


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of the regular file ``path``, or ``None``: missing, not a regular file (a
    FIFO is never waited on), or larger than ``limit``."""
    try:
        return read_regular(path, limit)
    except OSError:
        return None


def read_json(path: Path, limit: int = MAX_FILE_BYTES) -> object:
    """The JSON value of ``path``, or ``None`` when it is absent or not readable JSON."""
    data = read_bounded(path, limit)
    if data is None:
        return None
    try:
        return load_json(data)
    except ValueError:
        return None


def write_file(path: Path, data: bytes, *, sync: bool = False) -> None:
    """Replace ``path`` with ``data`` at once (a temporary file renamed over it), 0600."""
    temp = path.with_name(f".{path.name}.{random_hex(6)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _json_bytes(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class AskFolder:
    """One pending ask's folder (it may be gone: every read then says ``None``)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        self.ask_id = folder.name

    @classmethod
    def create(
        cls, asks: Path, ask_id: str, params: object, summary: dict[str, object]
    ) -> AskFolder:
        """Make the ask's folder with its payload and summary, all at once.

        Raises:
            OSError: It cannot be written (the disk is full, the folder is read-only).
            FileExistsError: An ask with this id is pending already.
        """
        staging = asks / f".{ask_id}.{random_hex(4)}.new"
        staging.mkdir(mode=0o700)
        try:
            write_file(staging / PAYLOAD, _json_bytes(params))
            write_file(staging / SUMMARY, _json_bytes({**summary, "id": ask_id}))
            os.rename(staging, asks / ask_id)
        except BaseException:
            _remove_tree(staging)
            raise
        return cls(asks / ask_id)

    # --- reading ---------------------------------------------------------------------

    def summary(self) -> AskSummary | None:
        """The summary, checked field by field; ``None`` when it is missing or malformed."""
        raw = read_json(self.path / SUMMARY, MAX_SUMMARY_BYTES)
        return _summary(self.path, raw) if isinstance(raw, dict) else None

    def params(self) -> object:
        return read_json(self.path / PAYLOAD)

    def draft(self) -> dict[str, object] | None:
        raw = read_json(self.path / DRAFT)
        return raw if isinstance(raw, dict) else None

    def claim(self) -> dict[str, object] | None:
        """The winning answer (``{"outcome": ..., "answers": ..., "types": ...}``), if any."""
        raw = read_json(self.path / CLAIM)
        return raw if isinstance(raw, dict) else None

    def is_claimed(self) -> bool:
        return os.path.lexists(self.path / CLAIM)

    def result(self) -> dict[str, object] | None:
        raw = read_json(self.path / RESULT)
        return raw if isinstance(raw, dict) else None

    def exists(self) -> bool:
        return self.path.is_dir()

    @property
    def attachments(self) -> Path:
        """Where answering terminals copy the files they attach (made on the first)."""
        return self.path / ATTACHMENTS

    # --- writing ---------------------------------------------------------------------

    def write_draft(self, form: dict[str, object]) -> None:
        """The answers committed last (best effort: a closed ask ignores it)."""
        with contextlib.suppress(OSError):
            write_file(self.path / DRAFT, _json_bytes(form))

    def take(self, answer: dict[str, object], result: dict[str, object] | None) -> bool:
        """Claim the ask with ``answer`` and store its ``result``; ``False`` when it was
        claimed already (or is gone): the first claim wins, whoever makes it."""
        temp = self.path / f".claim.{random_hex(6)}.tmp"
        try:
            write_file(temp, _json_bytes(answer), sync=True)
        except OSError:
            return False
        try:
            os.link(temp, self.path / CLAIM)
        except OSError:
            return False
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if result is not None:
            with contextlib.suppress(OSError):
                write_file(self.path / RESULT, _json_bytes(result), sync=True)
        nudge(self.path.parent)
        return True

    def drop_claim(self) -> None:
        """Remove a claim that is no answer (the asker found it malformed)."""
        with contextlib.suppress(OSError):
            os.unlink(self.path / CLAIM)
        with contextlib.suppress(OSError):
            os.unlink(self.path / RESULT)

    def store_result(self, result: dict[str, object]) -> None:
        """Write the result of the claim (a reader rebuilt it from a claim without one)."""
        with contextlib.suppress(OSError):
            write_file(self.path / RESULT, _json_bytes(result))

    def mark_fetched(self) -> bool:
        """Record when the result was first handed out (it is kept a day from then); ``True``
        for that first time."""
        try:
            fd = os.open(self.path / FETCHED, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:
            return False
        os.close(fd)
        return True

    def remove(self) -> None:
        """Remove the folder (a hidden rename first, so a listing never sees it half gone)."""
        gone = self.path.with_name(f".{self.ask_id}.{random_hex(4)}.gone")
        try:
            os.rename(self.path, gone)
        except OSError:
            return
        _remove_tree(gone)

    def expired(self, now: int) -> bool:
        """A detached ask past its keeping: a day after its result was fetched, a week in all."""
        try:
            created = os.lstat(self.path).st_mtime
        except OSError:
            return False
        summary = self.summary()
        if summary is not None:
            created = summary.created_ms / 1000
        if now / 1000 - created > KEEP_AT_MOST_S:
            return True
        try:
            fetched = os.lstat(self.path / FETCHED).st_mtime
        except OSError:
            return False
        return now / 1000 - fetched > KEEP_AFTER_FETCH_S


def _summary(folder: Path, raw: dict[str, object]) -> AskSummary | None:
    ask_id, cwd, created = raw.get("id"), raw.get("cwd", ""), raw.get("createdAt")
    count, title, deadline = raw.get("questions", 0), raw.get("title"), raw.get("deadline")
    sock = raw.get("socket")
    limits = raw.get("attachments")
    max_files = limits.get("maxFiles") if isinstance(limits, dict) else None
    max_bytes = limits.get("maxBytes") if isinstance(limits, dict) else None
    if ask_id != folder.name or not isinstance(cwd, str):
        return None
    if type(created) is not int or type(count) is not int:
        return None
    return AskSummary(
        ask_id=folder.name,
        folder=folder,
        title=title if isinstance(title, str) else None,
        cwd=cwd,
        created_ms=created,
        questions=count,
        deadline_ms=deadline if type(deadline) is int else None,
        socket=Path(sock) if isinstance(sock, str) and Path(sock).is_absolute() else None,
        detached=raw.get("detached") is True,
        log=Path(log)
        if isinstance(log := raw.get("log"), str) and Path(log).is_absolute()
        else None,
        max_files=max_files if type(max_files) is int and max_files >= 0 else None,
        max_bytes=max_bytes if type(max_bytes) is int and max_bytes >= 0 else None,
    )


def ask_folders(asks: Path) -> list[AskFolder]:
    """Every ask folder in ``asks`` (hidden names are folders being made or removed)."""
    try:
        names = os.listdir(asks)
    except OSError:
        return []
    return [AskFolder(asks / name) for name in sorted(names) if is_ask_id(name)]


def _remove_tree(folder: Path) -> None:
    # shutil (with zlib, bz2 and lzma) only when a folder goes: not in every waiting asker.
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
