"""Pairing a device once, and knowing it again (python-port.md §12).

A one-time code (``CODE_TTL_S``, used once) goes to the terminal; the page that brings it back
gets a session: a random token in an HttpOnly cookie, kept here only as its SHA-256, with a
CSRF token of its own for state-changing requests. Paired devices live in the state folder
(``web-devices.json``, 0600) until ``pi-ask web --forget``. Wrong codes are rate-limited:
``MAX_TRIES`` per ``TRIES_WINDOW_S`` for the whole server (behind a proxy every peer has one
address), so guessing a code of ~40 bits before it expires is hopeless.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pi_ask.guarded_parse import load_json
from pi_ask.regular_files import read_regular
from pi_ask.relay.asks import write_file

DEVICES_FILE = "web-devices.json"
CODE_TTL_S = 300.0
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off a screen
CODE_LENGTH = 8
MAX_TRIES = 5
TRIES_WINDOW_S = 60.0
NEW_CODE_EVERY_S = 60.0
MAX_DEVICES = 64
_MAX_FILE_BYTES = 256 * 1024


class Device(NamedTuple):
    """One paired device: the hash of its session token, its CSRF token, when it paired."""

    device_id: str
    token_sha256: str
    csrf: str
    paired_ms: int
    agent: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """What the user typed, as a code: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in text.upper() if ch not in " -")[:64]


Signature = tuple[int, int, int, int] | None
"""What ``stat`` says of the devices file (device, inode, size, mtime); ``None``: absent."""


def _signature(path: Path) -> Signature:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


class Devices:
    """The paired devices of one state folder, written on every change and read again
    whenever the file changed: ``pi-ask web --forget`` from another process (or a second
    server pairing a device) takes effect on the next request of a running server."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / DEVICES_FILE
        self._lock = threading.Lock()
        self._seen: Signature = None
        self._devices: list[Device] = []
        with self._lock:
            self._refresh()

    def _refresh(self) -> None:
        """Read the file again if it changed since it was last read (the lock is held).

        The signature is taken before reading: a file replaced in between is read again
        next time, never trusted with an older signature."""
        signature = _signature(self.path)
        if signature == self._seen:
            return
        self._seen = signature
        self._devices = self._read() if signature is not None else []

    def _read(self) -> list[Device]:
        try:
            raw = load_json(read_regular(self.path, _MAX_FILE_BYTES))
        except (OSError, ValueError):
            return []
        entries = raw.get("devices") if isinstance(raw, dict) else None
        found = []
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            fields = [entry.get(name) for name in ("id", "token_sha256", "csrf", "agent")]
            paired = entry.get("paired_ms")
            if all(isinstance(value, str) for value in fields) and type(paired) is int:
                device_id, token, csrf, agent = (str(value) for value in fields)
                found.append(Device(device_id, token, csrf, paired, agent))
        return found

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        document = {
            "devices": [
                {
                    "id": d.device_id,
                    "token_sha256": d.token_sha256,
                    "csrf": d.csrf,
                    "paired_ms": d.paired_ms,
                    "agent": d.agent,
                }
                for d in self._devices
            ]
        }
        write_file(self.path, json.dumps(document, indent=1).encode())

    def __len__(self) -> int:
        with self._lock:
            self._refresh()
            return len(self._devices)

    def add(self, agent: str) -> tuple[str, Device]:
        """Pair a new device; its session token (only its hash is kept) and its record."""
        token = secrets.token_urlsafe(32)
        device = Device(
            secrets.token_hex(8),
            _digest(token),
            secrets.token_urlsafe(24),
            time.time_ns() // 1_000_000,
            agent[:200],
        )
        with self._lock:
            # The oldest device makes room: a stolen code cannot grow the file without end.
            self._refresh()
            self._devices = [*self._devices[-(MAX_DEVICES - 1) :], device]
            self._write()
        return token, device

    def find(self, token: str | None) -> Device | None:
        """The device whose session token this is, if any."""
        if not token or len(token) > 200:
            return None
        digest = _digest(token)
        with self._lock:
            self._refresh()
            for device in self._devices:
                if hmac.compare_digest(device.token_sha256, digest):
                    return device
        return None

    def still_paired(self, device: Device) -> bool:
        """Whether ``device`` (found earlier) is still paired: an open event stream asks
        this as it goes, so ``--forget`` closes it too. One Tailscale vouches for (no token
        of ours) is not ours to forget."""
        if not device.token_sha256:
            return True
        with self._lock:
            self._refresh()
            return any(known.device_id == device.device_id for known in self._devices)

    def forget(self) -> int:
        """Unpair every device; how many there were."""
        with self._lock:
            self._refresh()
            count = len(self._devices)
            self._devices = []
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            self._seen = None
        return count


class Codes:
    """The one pairing code in force, and the rate limit on tries."""

    def __init__(
        self, ttl_s: float = CODE_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._code: str | None = None
        self._expires = 0.0
        self._issued = clock() - NEW_CODE_EVERY_S
        self._used = False
        self._tries: deque[float] = deque()

    def issue(self) -> str:
        """A new code, valid ``ttl_s`` from now; any earlier one stops working."""
        with self._lock:
            self._code = new_code()
            self._used = False
            self._issued = self._clock()
            self._expires = self._issued + self._ttl_s
            return self._code

    def wanted(self) -> bool:
        """True when no code works any more and another may be made: the last one was used
        (the next device pairs at once), or it expired over a minute ago (an unpaired page
        asks for one, so at most one a minute goes to the terminal)."""
        now = self._clock()
        with self._lock:
            live = self._code is not None and now < self._expires
            return not live and (self._used or now - self._issued >= NEW_CODE_EVERY_S)

    def redeem(self, text: str) -> bool | None:
        """``True`` when ``text`` is the code in force (which is then used up), ``False``
        when not, ``None`` when too many tries came lately (nothing was compared)."""
        now = self._clock()
        with self._lock:
            while self._tries and now - self._tries[0] > TRIES_WINDOW_S:
                self._tries.popleft()
            if len(self._tries) >= MAX_TRIES:
                return None
            code = self._code
            given = normalize_code(text)
            if code is not None and now < self._expires and hmac.compare_digest(given, code):
                self._code = None
                self._used = True
                return True
            self._tries.append(now)
            return False
