"""Session files in pi's format: a JSONL tree under a version-3 header (protocols.md §3).

Reading is tolerant: a line that is not a JSON object, or a torn last line left by a writer
that died, is skipped and reported, never fatal. Appending takes a file lock so concurrent
``pi-ask`` processes each add a whole line under the entry that was last when they wrote.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pi_ask.contract.results import JsonObject
from pi_ask.guarded_parse import load_json
from pi_ask.session.file_lock import LockTimeout, exclusive_lock

SESSION_VERSION = 3
LOCK_TIMEOUT_S = 5.0


class SessionWriteError(OSError):
    """An entry could not be appended: the folder or file cannot be written or locked."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One tree entry: its id, its parent's id, its type and the whole raw object."""

    id: str
    parent_id: str | None
    type: str
    raw: JsonObject
    # 1-based line number in the file, for reports.
    line: int = 0

    @property
    def custom_type(self) -> str | None:
        """``customType`` of a ``custom`` entry, else ``None``."""
        value = self.raw.get("customType") if self.type == "custom" else None
        return value if isinstance(value, str) else None

    @property
    def data(self) -> object:
        """``data`` of a custom entry (``None`` when absent)."""
        return self.raw.get("data")


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """A line the reader could not use, and why."""

    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class SessionFile:
    """What a session file holds: its header, its entries in file order, what was skipped."""

    path: Path
    header: JsonObject | None = None
    entries: tuple[Entry, ...] = ()
    skipped: tuple[SkippedLine, ...] = ()
    by_id: Mapping[str, Entry] = field(default_factory=dict)

    def branch(self) -> tuple[Entry, ...]:
        """The current branch, root first: the last entry in file order and its ancestors."""
        if not self.entries:
            return ()
        path: list[Entry] = []
        seen: set[str] = set()
        entry: Entry | None = self.entries[-1]
        while entry is not None and entry.id not in seen:
            seen.add(entry.id)
            path.append(entry)
            entry = self.by_id.get(entry.parent_id) if entry.parent_id is not None else None
        path.reverse()
        return tuple(path)


def read_session(path: Path) -> SessionFile:
    """Read a pi-format session file; a missing file reads as empty.

    Args:
        path: the JSONL file.

    Returns:
        The header (``None`` when the first usable line is not one), the entries, and the
        lines that were skipped with the reason.

    Raises:
        OSError: the file exists but cannot be read.
    """
    try:
        blob = path.read_bytes()
    except FileNotFoundError:
        return SessionFile(path)
    header, objects, skipped = _parse_lines(blob)
    entries = _entries_from(objects, header)
    return SessionFile(path, header, entries, tuple(skipped), {e.id: e for e in entries})


def _parse_lines(
    blob: bytes,
) -> tuple[JsonObject | None, list[tuple[int, JsonObject]], list[SkippedLine]]:
    header: JsonObject | None = None
    objects: list[tuple[int, JsonObject]] = []
    skipped: list[SkippedLine] = []
    lines = blob.split(b"\n")
    torn = not blob.endswith(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        last = number == len(lines)
        try:
            value = load_json(raw)
        except (ValueError, UnicodeDecodeError) as err:
            why = "torn last line (no newline at the end)" if last and torn else str(err)
            skipped.append(SkippedLine(number, why))
            continue
        if not isinstance(value, dict):
            skipped.append(SkippedLine(number, "not a JSON object"))
            continue
        if header is None and not objects and value.get("type") == "session":
            header = value
            continue
        objects.append((number, value))
    return header, objects, skipped


def _entries_from(
    objects: list[tuple[int, JsonObject]], header: JsonObject | None
) -> tuple[Entry, ...]:
    # Version 1 files have no ids: pi gives them ids and chains them in file order.
    legacy = header is not None and header.get("version") == 1
    entries: list[Entry] = []
    previous: str | None = None
    for number, value in objects:
        kind = value.get("type")
        if not isinstance(kind, str):
            continue
        entry_id = value.get("id")
        parent = value.get("parentId")
        if legacy or not isinstance(entry_id, str):
            entry_id, parent = f"line-{number}", previous
        entries.append(
            Entry(entry_id, parent if isinstance(parent, str) else None, kind, value, number)
        )
        previous = entry_id
    return tuple(entries)


def random_uuid() -> str:
    """A random (version 4) UUID in the text form ``str(uuid.uuid4())`` gives.

    Made from ``os.urandom`` because importing ``uuid`` loads ``platform`` (about 4 ms), and
    the first append runs before the first frame (python-port.md §8).
    """
    value = int.from_bytes(os.urandom(16), "big")
    value = value & ~(0xF000 << 64 | 0xC000 << 48) | 0x4000 << 64 | 0x8000 << 48
    digits = f"{value:032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def iso_now() -> str:
    """The current UTC time as pi writes it: ISO 8601 with milliseconds and ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class _Tail:
    """What an appender knows of its file: how far it has read, the last id, all ids."""

    offset: int = 0
    last_id: str | None = None
    ids: set[str] = field(default_factory=set)
    has_header: bool = False
    ends_with_newline: bool = True


class SessionLog:
    """An appendable session file of ours.

    Appends read only the bytes added since this object's last look, so a long log does not
    make every draft slower.
    """

    def __init__(self, path: Path, *, cwd: Path | None = None) -> None:
        self.path = path
        self._cwd = cwd or Path.cwd()
        self._tail = _Tail()

    def append_custom(self, custom_type: str, data: JsonObject) -> Entry:
        """Append a ``custom`` entry under the current leaf.

        Args:
            custom_type: the entry's ``customType`` (``ask:payload``, ``ask:draft``, ...).
            data: the entry's ``data`` object.

        Returns:
            The entry as written.

        Raises:
            SessionWriteError: the folder, lock or file cannot be written.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with exclusive_lock(Path(f"{self.path}.lock"), LOCK_TIMEOUT_S):
                return self._append_locked(custom_type, data)
        except LockTimeout as err:
            raise SessionWriteError(
                f"{self.path}: could not lock the file within {LOCK_TIMEOUT_S:g} s"
            ) from err
        except OSError as err:
            if isinstance(err, SessionWriteError):
                raise
            raise SessionWriteError(f"{self.path}: {err.strerror or err}") from err

    def _append_locked(self, custom_type: str, data: JsonObject) -> Entry:
        self._catch_up()
        lines: list[bytes] = []
        if not self._tail.has_header:
            lines.append(_line(self._header()))
        entry_id = self._new_id()
        raw: JsonObject = {
            "type": "custom",
            "customType": custom_type,
            "data": data,
            "id": entry_id,
            "parentId": self._tail.last_id,
            "timestamp": iso_now(),
        }
        lines.append(_line(raw))
        blob = b"".join(lines)
        if not self._tail.ends_with_newline:
            blob = b"\n" + blob
        _write_all(self.path, blob)
        self._tail.offset += len(blob)
        self._tail.has_header = True
        self._tail.ends_with_newline = True
        self._tail.last_id = entry_id
        self._tail.ids.add(entry_id)
        return Entry(
            entry_id, raw["parentId"] if isinstance(raw["parentId"], str) else None, "custom", raw
        )

    def _catch_up(self) -> None:
        """Read what other writers appended since our last look (all of it if the file shrank)."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            self._tail = _Tail()
            return
        if size < self._tail.offset:
            self._tail = _Tail()
        if size == self._tail.offset:
            return
        with self.path.open("rb") as handle:
            handle.seek(self._tail.offset)
            fresh = handle.read(size - self._tail.offset)
        for value in _complete_objects(fresh):
            if (
                value.get("type") == "session"
                and not self._tail.has_header
                and self._tail.last_id is None
            ):
                self._tail.has_header = True
                continue
            entry_id = value.get("id")
            if isinstance(entry_id, str) and isinstance(value.get("type"), str):
                self._tail.ids.add(entry_id)
                self._tail.last_id = entry_id
        self._tail.offset = size
        self._tail.ends_with_newline = fresh.endswith(b"\n")
        if not self._tail.has_header and size > 0:
            # A file written by someone else without a header: never prepend one into it.
            self._tail.has_header = True

    def _header(self) -> JsonObject:
        return {
            "type": "session",
            "version": SESSION_VERSION,
            "id": random_uuid(),
            "timestamp": iso_now(),
            "cwd": str(self._cwd),
        }

    def _new_id(self) -> str:
        while True:
            candidate = os.urandom(4).hex()
            if candidate not in self._tail.ids:
                return candidate


def _complete_objects(blob: bytes) -> Iterator[JsonObject]:
    for raw in blob.split(b"\n"):
        if not raw.strip():
            continue
        try:
            value = load_json(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(value, dict):
            yield value


def _line(value: JsonObject) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _write_all(path: Path, blob: bytes) -> None:
    """Append ``blob`` with O_APPEND in as few writes as the OS allows, then fsync."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        view = memoryview(blob)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
