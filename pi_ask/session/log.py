"""Session files in pi's format: a JSONL tree under a version-3 header (protocols.md §3).

Reading is tolerant: a line that is not a JSON object, or a torn last line left by a writer
that died, is skipped and reported, never fatal. Appending takes a file lock so concurrent
``pi-ask`` processes each add a whole line under the entry that was last when they wrote. A
write that fails (a full disk) takes back what it wrote, and the next append repairs a torn
last line a dead writer left, so neither is reported on every later read; a compaction that
fails removes its temporary file.
"""

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import BinaryIO, NamedTuple

from pi_ask.contract.kinds import JsonObject
from pi_ask.guarded_parse import load_json
from pi_ask.regular_files import MIB, open_regular, read_regular
from pi_ask.session.file_lock import LockTimeout, exclusive_lock

SESSION_VERSION = 3
LOCK_TIMEOUT_S = 5.0
# Reading backwards from the end: the first chunk, and the most one read may grow to.
TAIL_CHUNK = 64 * 1024
# Known ids a ``<log>.leaf`` hint keeps, at most, for the collision check of new ids.
LEAF_IDS = 256
MAX_CHUNK = 8 * 1024 * 1024
# The largest session file read whole (pi's own; ours are read from the end). A larger one,
# a FIFO or a device is an OSError like an unreadable file.
MAX_WHOLE_READ = 512 * MIB
_MAX_HINT = 64 * 1024


class SessionWriteError(OSError):
    """An entry could not be appended: the folder or file cannot be written or locked."""


class Entry(NamedTuple):
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


class SkippedLine(NamedTuple):
    """A line the reader could not use, and why."""

    line: int
    reason: str


class SessionFile(NamedTuple):
    """What a session file holds: its header, its entries in file order, what was skipped."""

    path: Path
    header: JsonObject | None = None
    entries: tuple[Entry, ...] = ()
    skipped: tuple[SkippedLine, ...] = ()
    by_id: Mapping[str, Entry] = MappingProxyType({})

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
        blob = read_regular(path, MAX_WHOLE_READ)
    except FileNotFoundError:
        return SessionFile(path)
    return _session_file(path, *_parse_lines(blob))


def read_tail(
    path: Path, *, starts: Callable[[JsonObject], bool], count: int, max_bytes: int
) -> SessionFile:
    """The end of a session file: its last ``count`` entries that ``starts`` picks and all
    that follows them, read backwards from the end, stopping early at the first such entry
    found past ``max_bytes`` from the end; the whole file when it holds fewer.

    A reader that only needs the recent asks (replay, resume) costs the same whatever the
    file's length. Skipped lines of a partial read are numbered from the end (-1 is the
    last line), since the lines before the part read were never counted.

    Args:
        path: the JSONL file.
        starts: picks the entries counted (for us: ``ask:payload`` entries).
        count: how many of them to read back to.
        max_bytes: how far back to read, unless no such entry was found by then.

    Raises:
        OSError: the file exists but cannot be read.
    """
    try:
        handle = _open_for_reading(path)
    except FileNotFoundError:
        return SessionFile(path)
    with handle:
        pieces, whole = recent_lines(handle, starts=starts, count=count, max_bytes=max_bytes)
        if whole:
            return _session_file(path, *_parse_lines(b"\n".join(reversed(pieces))))
        handle.seek(0)
        first = _object(handle.readline(TAIL_CHUNK))
    header = first if first is not None and first.get("type") == "session" else None
    objects, skipped = _parse_pieces(pieces)
    return _session_file(path, header, objects, skipped)


def recent_lines(
    handle: BinaryIO, *, starts: Callable[[JsonObject], bool], count: int, max_bytes: int
) -> tuple[list[bytes], bool]:
    """The lines of ``read_tail``, last first, and whether they are the whole file."""
    size = os.fstat(handle.fileno()).st_size
    pieces: list[bytes] = []
    found = taken = 0
    for raw in lines_from_end(handle, size):
        pieces.append(raw)
        taken += len(raw) + 1
        value = _object(raw)
        if value is not None and starts(value):
            found += 1
            if found == count or taken > max_bytes:
                return pieces, False
    return pieces, True


def _parse_pieces(
    pieces: list[bytes],
) -> tuple[list[tuple[int, JsonObject]], list[SkippedLine]]:
    """Lines read backwards (last first) as objects in file order, numbered from the end."""
    objects: list[tuple[int, JsonObject]] = []
    skipped: list[SkippedLine] = []
    # The first piece is what follows the last newline: empty, or a torn line.
    torn = bool(pieces[0].strip())
    for back, raw in enumerate(pieces, start=0 if torn else -1):
        if not raw.strip():
            continue
        parsed = _classify(raw)
        if isinstance(parsed, str):
            why = "torn last line (no newline at the end)" if back == 0 and torn else parsed
            skipped.append(SkippedLine(-(back + 1), why))
        else:
            objects.append((-(back + 1), parsed))
    objects.reverse()
    skipped.reverse()
    return objects, skipped


def _session_file(
    path: Path,
    header: JsonObject | None,
    objects: list[tuple[int, JsonObject]],
    skipped: list[SkippedLine],
) -> SessionFile:
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
        value = _classify(raw)
        if isinstance(value, str):
            why = "torn last line (no newline at the end)" if last and torn else value
            skipped.append(SkippedLine(number, why))
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
    # Not datetime: the session log is written by every ask, and datetime costs a start
    # ~1 ms to import for what ``time`` says as well (milliseconds cut, not rounded).
    seconds, nanoseconds = divmod(time.time_ns(), 1_000_000_000)
    moment = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{moment}.{nanoseconds // 1_000_000:03d}Z"


class _Tail:
    """What an appender knows of its file: how far it has read, the last id, all ids.

    A plain mutable class: the only one a start builds, where a dataclass costs ~0.4 ms.
    """

    __slots__ = ("ends_with_newline", "has_header", "ids", "inode", "last_id", "offset")

    def __init__(
        self,
        offset: int = 0,
        last_id: str | None = None,
        ids: set[str] | None = None,
        *,
        has_header: bool = False,
        inode: int = 0,
    ) -> None:
        self.offset = offset
        self.last_id = last_id
        self.ids: set[str] = ids if ids is not None else set()
        self.has_header = has_header
        self.ends_with_newline = True
        # The file looked at: a compaction (ours or another process's) replaces it.
        self.inode = inode

    def hint(self) -> bytes:
        """What ``<log>.leaf`` holds after an append of ours (see ``SessionLog``)."""
        fields = {
            "size": self.offset,
            "inode": self.inode,
            "leaf": self.last_id,
            "ids": sorted(self.ids)[:LEAF_IDS],
        }
        return json.dumps(fields, separators=(",", ":")).encode()


def _tail_from_hint(raw: bytes, size: int, inode: int) -> _Tail | None:
    """The tail a ``<log>.leaf`` hint describes, if it is whole and still about this file."""
    try:
        hint = load_json(raw)
    except ValueError:
        return None
    if not isinstance(hint, dict) or hint.get("size") != size or hint.get("inode") != inode:
        return None
    leaf, ids = hint.get("leaf"), hint.get("ids")
    if not isinstance(leaf, str) or not isinstance(ids, list):
        return None
    if not all(isinstance(entry_id, str) for entry_id in ids):
        return None
    return _Tail(size, leaf, {*ids, leaf}, has_header=True, inode=inode)


class SessionLog:
    """An appendable session file of ours.

    Each append leaves a small ``<log>.leaf`` hint beside the file: its size and inode then,
    the last entry's id and up to 256 known ids. The next appender (another process,
    usually) takes the parent id from it without reading the log at all when the file is
    still that size; otherwise (a hint missing, damaged or stale after another writer or a
    compaction) it reads only the file's last entry. Later appends read only the bytes
    added since this object's last look. A long log, or a long last line, makes no append
    slower.
    """

    def __init__(self, path: Path, *, cwd: Path | None = None) -> None:
        self.path = path
        self._leaf_path = Path(f"{path}.leaf")
        self._cwd = cwd or Path.cwd()
        self._tail = _Tail()

    def append_custom(self, custom_type: str, data: JsonObject, *, sync: bool = True) -> Entry:
        """Append a ``custom`` entry under the current leaf.

        Args:
            custom_type: the entry's ``customType`` (``ask:payload``, ``ask:draft``, ...).
            data: the entry's ``data`` object.
            sync: fsync the file before returning; ``False`` leaves that to ``sync()`` (the
                entry is written either way, so a killed process loses nothing of it).

        Returns:
            The entry as written.

        Raises:
            SessionWriteError: the folder, lock or file cannot be written.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with exclusive_lock(Path(f"{self.path}.lock"), LOCK_TIMEOUT_S):
                return self._append_locked(custom_type, data, sync)
        except LockTimeout as err:
            raise SessionWriteError(
                f"{self.path}: could not lock the file within {LOCK_TIMEOUT_S:g} s"
            ) from err
        except OSError as err:
            if isinstance(err, SessionWriteError):
                raise
            raise SessionWriteError(f"{self.path}: {err.strerror or err}") from err

    def compact(
        self, *, starts: Callable[[JsonObject], bool], count: int, max_bytes: int, above: int
    ) -> bool:
        """Once the file is larger than ``above`` bytes, rewrite it as its header and what
        ``read_tail`` (same arguments) reads of it; the rest is dropped.

        The work is bounded by what is kept, not by the file's length. The new file replaces
        the old one by a rename, under the append lock: a reader sees one or the other.

        Returns:
            True when the file was rewritten.

        Raises:
            SessionWriteError: the file or its folder cannot be read, locked or written.
        """
        try:
            if self.path.stat().st_size <= above:
                return False
            with exclusive_lock(Path(f"{self.path}.lock"), LOCK_TIMEOUT_S):
                kept = self._kept_lines(starts, count, max_bytes)
                if kept is None:
                    return False
                _replace(self.path, b"".join(line + b"\n" for line in kept))
                self._tail = _Tail()
                return True
        except FileNotFoundError:
            return False
        except LockTimeout as err:
            raise SessionWriteError(
                f"{self.path}: could not lock the file within {LOCK_TIMEOUT_S:g} s"
            ) from err
        except OSError as err:
            raise SessionWriteError(f"{self.path}: {err.strerror or err}") from err

    def _kept_lines(
        self, starts: Callable[[JsonObject], bool], count: int, max_bytes: int
    ) -> list[bytes] | None:
        """The header line and the entry lines ``compact`` keeps; ``None``: keep all."""
        with _open_for_reading(self.path) as handle:
            pieces, whole = recent_lines(handle, starts=starts, count=count, max_bytes=max_bytes)
            handle.seek(0)
            header = handle.readline(TAIL_CHUNK).rstrip(b"\n")
        first = _object(header)
        if whole or first is None or first.get("type") != "session":
            return None  # nothing to drop, or not a file of ours
        kept = [raw for raw in reversed(pieces) if _object(raw) is not None]
        # The oldest entry kept becomes a root: its parent is gone.
        oldest = _object(kept[0]) or {}
        kept[0] = _line({**oldest, "parentId": None}).rstrip(b"\n")
        return [header, *kept]

    def sync(self) -> None:
        """fsync the file: entries appended with ``sync=False`` survive a power cut too.

        Raises:
            SessionWriteError: the file cannot be opened or synced.
        """
        try:
            fd = open_regular(self.path)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            raise SessionWriteError(f"{self.path}: {err.strerror or err}") from err

    def _append_locked(self, custom_type: str, data: JsonObject, sync: bool) -> Entry:
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
        if not self._tail.ends_with_newline and self._repair_torn_end():
            blob = b"\n" + blob
        _write_all(self.path, blob, sync=sync)
        self._tail.offset += len(blob)
        self._tail.has_header = True
        self._tail.ends_with_newline = True
        self._tail.last_id = entry_id
        self._tail.ids.add(entry_id)
        self._write_hint()
        return Entry(
            entry_id, raw["parentId"] if isinstance(raw["parentId"], str) else None, "custom", raw
        )

    def _catch_up(self) -> None:
        """Learn what other writers appended since our last look.

        The first look (and one after the file shrank) reads only the file's last entry, so
        an append costs the same whatever the log's length; later looks read the bytes added
        since.
        """
        try:
            status = self.path.stat()
        except FileNotFoundError:
            self._tail = _Tail()
            return
        size = status.st_size
        if size < self._tail.offset or status.st_ino != self._tail.inode:
            self._tail = _Tail(inode=status.st_ino)
        if size == self._tail.offset:
            return
        if self._tail.offset == 0:
            self._tail = self._hinted_tail(size, status.st_ino) or self._look_at_tail(size)
            return
        with _open_for_reading(self.path) as handle:
            handle.seek(self._tail.offset)
            fresh = handle.read(size - self._tail.offset)
        for value in _complete_objects(fresh):
            entry_id = value.get("id")
            if isinstance(entry_id, str) and isinstance(value.get("type"), str):
                self._tail.ids.add(entry_id)
                self._tail.last_id = entry_id
        self._tail.offset = size
        self._tail.ends_with_newline = fresh.endswith(b"\n")

    def _repair_torn_end(self) -> bool:
        """Mend a file that does not end with a newline (a writer died mid-line).

        Returns:
            True when the last line is a whole entry that only lacks its newline (the caller
            writes one before its own line); False when the torn piece was cut off here.
        """
        with _open_for_reading(self.path) as handle:
            torn = next(lines_from_end(handle, self._tail.offset))
        if _object(torn) is not None:
            return True
        keep = self._tail.offset - len(torn)
        os.truncate(self.path, keep)
        self._tail.offset = keep
        self._tail.ends_with_newline = True
        if keep == 0:
            self._tail.has_header = False
        return False

    def _write_hint(self) -> None:
        """Leave ``<log>.leaf`` for the next appender; without it, that one reads the tail."""
        with contextlib.suppress(OSError):
            if not self._tail.inode:
                self._tail.inode = self.path.stat().st_ino
            fd = open_regular(self._leaf_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            try:
                os.write(fd, self._tail.hint())
            finally:
                os.close(fd)

    def _hinted_tail(self, size: int, inode: int) -> _Tail | None:
        """The tail ``<log>.leaf`` describes, when our last append is still the file's end."""
        try:
            raw = read_regular(self._leaf_path, _MAX_HINT)
        except OSError:
            return None
        return _tail_from_hint(raw, size, inode)

    def _look_at_tail(self, size: int) -> _Tail:
        """Find the last entry (the leaf) reading backwards from the end.

        The ids of the entries in the last ``TAIL_CHUNK`` bytes join the collision check of
        new ids; the file is never read whole to append to it.
        """
        # A file that is not empty has its header, or was written by someone else without
        # one: a header is never put into the middle of it.
        tail = _Tail(offset=size, has_header=True, inode=self._tail.inode)
        start = max(0, size - TAIL_CHUNK)
        with _open_for_reading(self.path) as handle:
            handle.seek(start)
            block = handle.read(size - start)
            tail.ends_with_newline = block.endswith(b"\n")
            lines = block.split(b"\n")
            # Before the chunk's first newline is part of a line that began earlier.
            partial = lines.pop(0) if start > 0 else b""
            for raw in lines:
                entry_id = _entry_id(raw)
                if entry_id is not None:
                    tail.ids.add(entry_id)
                    tail.last_id = entry_id
            if tail.last_id is None and start > 0:
                for raw in lines_from_end(handle, start + len(partial)):
                    tail.last_id = _entry_id(raw)
                    if tail.last_id is not None:
                        tail.ids.add(tail.last_id)
                        break
        return tail

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
        value = _object(raw)
        if value is not None:
            yield value


def _object(raw: bytes) -> JsonObject | None:
    """The JSON object on one line; ``None`` for a blank, damaged or non-object line."""
    value = _classify(raw) if raw.strip() else None
    return value if isinstance(value, dict) else None


def _classify(raw: bytes) -> JsonObject | str:
    """The JSON object on a line that is not blank, or why it is not one."""
    try:
        value = load_json(raw)
    except ValueError as err:  # not JSON, not UTF-8, nested too deeply
        return str(err)
    return value if isinstance(value, dict) else "not a JSON object"


def _entry_id(raw: bytes) -> str | None:
    """The id of the tree entry on one line (not the header); ``None`` when it is none."""
    value = _object(raw)
    if value is None:
        return None
    entry_id, kind = value.get("id"), value.get("type")
    if isinstance(entry_id, str) and isinstance(kind, str) and kind != "session":
        return entry_id
    return None


def lines_from_end(handle: BinaryIO, end: int) -> Iterator[bytes]:
    """The lines of ``handle`` before byte ``end``, last first, read backwards in chunks.

    The first line yielded is whatever follows the last newline (empty when the file ends
    with one, else a torn line). The chunk doubles as it goes, so one long line costs
    its length, never more.
    """
    position, carry, chunk = end, b"", TAIL_CHUNK
    while position > 0:
        start = max(0, position - chunk)
        handle.seek(start)
        lines = (handle.read(position - start) + carry).split(b"\n")
        position, carry = start, lines[0]
        yield from reversed(lines[1:])
        chunk = min(chunk * 2, MAX_CHUNK)
    yield carry


def _open_for_reading(path: Path) -> BinaryIO:
    """``path`` open for reading, when it is a regular file (never blocking on a FIFO)."""
    return os.fdopen(open_regular(path), "rb")


def _line(value: JsonObject) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _replace(path: Path, blob: bytes) -> None:
    """Write ``blob`` to a temporary file beside ``path``, fsync it, rename it over ``path``.

    A failure (a full disk) removes the temporary file: it would hold what space was left.
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = open_regular(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        try:
            view = memoryview(blob)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _write_all(path: Path, blob: bytes, *, sync: bool) -> None:
    """Append ``blob`` with O_APPEND in as few writes as the OS allows (then fsync).

    Called under the append lock: when a write fails part way (a full disk), the file is cut
    back to its size before, so no torn line is left behind.
    """
    fd = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        start = os.fstat(fd).st_size
        try:
            view = memoryview(blob)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
            raise
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
