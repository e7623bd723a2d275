"""The stdio front of ``pi-ask mcp``: the standard library answers until the SDK is needed.

A host lists our tool long before it calls it, and importing the MCP SDK takes most of half a
second (issue 28). So a small reader sits in front of the SDK for the whole session:

- it reads standard input itself and caps a line at ``MAX_LINE_BYTES``; a longer line gets a
  JSON-RPC error (with its id when one can be found) and the session goes on;
- it answers malformed messages itself (a request whose ``params`` is not an object, a
  message that is not JSON-RPC), which the SDK drops without a word on stdio (issue 31 #14);
- until a message needs the SDK, it answers ``initialize`` / ``server/discover``,
  ``tools/list`` and ``ping`` from the one tool table (``tool_table.py``), as the SDK would
  in the same era (a test compares the two answers);
- then it hands the session over (``handover.py``): the messages that settled the era are
  replayed into the SDK's streams first, under private ids whose answers are dropped, then
  every later line in the order it came. A ``tools/call`` arriving meanwhile waits in that
  queue and is answered normally.

Standard library only: nothing here may import the SDK, pydantic or anyio.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple, TypeGuard

from pi_ask.contract.kinds import JsonObject
from pi_ask.mcp_server.tool_table import (
    INSTRUCTIONS,
    MODERN_VERSION,
    SERVER_NAME,
    SERVER_TITLE,
    SERVER_VERSION,
    TASKS_EXTENSION,
)

MAX_LINE_BYTES: Final = 1 << 20  # the CLI's payload cap (1 MiB)
TAIL_BYTES: Final = 64 * 1024  # kept from an over-long line's end, to find its id there
READ_CHUNK: Final = 64 * 1024
MAX_BUFFERED: Final = 256  # notifications held for the SDK before it is started anyway
LEGACY_VERSIONS: Final = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
META_VERSION: Final = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES: Final = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602

Id = str | int
Era = Literal["legacy", "modern"]


class Oversized(NamedTuple):
    """A line longer than the cap: its first ``MAX_LINE_BYTES`` and its last bytes."""

    head: bytes
    tail: bytes


Item = bytes | Oversized | None  # a line, an over-long line, or the end of input


class LineReader:
    """Lines of a file descriptor, read by a thread into a queue (``None`` at the end)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: queue.Queue[Item] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="pi-ask-mcp-stdin", daemon=True)
        self._thread.start()

    def get(self) -> Item:
        """The next line (without its newline); blocks until there is one."""
        return self._queue.get()

    def _run(self) -> None:
        pending = bytearray()
        head: bytes | None = None  # set while an over-long line is being skipped
        tail = bytearray()
        while True:
            try:
                chunk = os.read(self._fd, READ_CHUNK)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                if head is None and pending.strip():
                    self._queue.put(bytes(pending))
                elif head is not None:
                    self._queue.put(Oversized(head, bytes(tail)))
                self._queue.put(None)
                return
            start = 0
            while start < len(chunk):
                newline = chunk.find(b"\n", start)
                end = len(chunk) if newline < 0 else newline
                piece = chunk[start:end]
                if head is None:
                    pending += piece
                    if len(pending) > MAX_LINE_BYTES:
                        head = bytes(pending[:MAX_LINE_BYTES])
                        tail = bytearray(pending[-TAIL_BYTES:])
                        pending.clear()
                else:
                    tail += piece
                    del tail[:-TAIL_BYTES]
                if newline < 0:
                    break
                if head is not None:
                    self._queue.put(Oversized(head, bytes(tail)))
                    head, tail = None, bytearray()
                elif pending.strip():
                    self._queue.put(bytes(pending))
                pending.clear()
                start = newline + 1


class HostGone(Exception):
    """The host closed our standard output: nobody is left to answer."""


class Output:
    """Whole lines to the wire, one writer at a time (the front, then the hand-over)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()

    def write_line(self, data: bytes) -> None:
        with self._lock:
            view = memoryview(data + b"\n")
            while view:
                try:
                    written = os.write(self._fd, view)
                except InterruptedError:
                    continue
                except OSError as err:
                    raise HostGone(str(err)) from err
                view = view[written:]

    def send(self, message: JsonObject) -> None:
        self.write_line(dump(message))


def dump(message: JsonObject) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def error(message_id: Id | None, code: int, text: str, data: Any = None) -> JsonObject:
    body: JsonObject = {"code": code, "message": text}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": message_id, "error": body}


def valid_id(value: object) -> TypeGuard[Id]:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class Checked(NamedTuple):
    """A line checked as JSON-RPC: the message to act on, or the reply it gets, or neither."""

    message: JsonObject | None
    reply: JsonObject | None


def check_line(line: bytes) -> Checked:
    """Parse a line and answer what the SDK would drop without a word."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as err:
        return Checked(None, error(None, PARSE_ERROR, f"Parse error: {_short(err)}"))
    if not isinstance(message, dict):
        return Checked(None, error(None, INVALID_REQUEST, "Invalid Request: not a JSON object"))
    message_id = message.get("id")
    has_id = "id" in message
    known_id = message_id if valid_id(message_id) else None
    if message.get("jsonrpc") != "2.0":
        text = 'Invalid Request: jsonrpc is not "2.0"'
        return Checked(None, error(known_id, INVALID_REQUEST, text))
    if "method" in message:
        if not isinstance(message["method"], str):
            return Checked(None, error(known_id, INVALID_REQUEST, "Invalid Request: bad method"))
        if has_id and known_id is None:
            return Checked(None, error(None, INVALID_REQUEST, "Invalid Request: bad id"))
        params = message.get("params")
        if "params" in message and not isinstance(params, dict):
            if not has_id:
                return Checked(None, None)  # a notification cannot be answered
            text = "Invalid request parameters: params must be an object"
            return Checked(None, error(known_id, INVALID_PARAMS, text))
        return Checked(message, None)
    if known_id is not None and ("result" in message or "error" in message):
        return Checked(message, None)  # the host's reply to one of our requests
    return Checked(None, error(known_id, INVALID_REQUEST, "Invalid Request: no method"))


# A top-level id at the very end of an object (how some SDKs order their keys).
_TAIL_ID = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$')
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def oversized_reply(line: Oversized) -> JsonObject:
    """The error an over-long line gets, with the request's id when it can be found."""
    return too_large(_oversized_id(line), MAX_LINE_BYTES)


def too_large(message_id: Id | None, limit: int) -> JsonObject:
    """The error a message over ``limit`` bytes gets (a stdio line, an HTTP body)."""
    text = f"Request too large: a message may be at most {limit} bytes; it was not read"
    return error(message_id, INVALID_REQUEST, text)


def _oversized_id(line: Oversized) -> Id | None:
    # Walk the head's tokens, tracking depth, for a key "id" of the top-level object.
    depth = 0
    state = "none"  # "key": a key comes next; "id": the key was "id"; "value": its value
    for match in _TOKEN.finditer(line.head):
        token = match.group()
        if state == "value":
            return _id_value(token)
        if token in (b"{", b"["):
            depth += 1
            state = "key" if token == b"{" and depth == 1 else "none"
        elif token in (b"}", b"]"):
            depth -= 1
            state = "none"
        elif depth != 1:
            continue
        elif token == b",":
            state = "key"
        elif state == "key":
            state = "id" if token == b'"id"' else "none"
        elif state == "id" and token == b":":
            state = "value"
        else:
            state = "none"
    found = _TAIL_ID.search(line.tail)
    return _id_value(found.group(1)) if found else None


def _id_value(token: bytes) -> Id | None:
    try:
        value = json.loads(token)
    except ValueError:
        return None
    return value if valid_id(value) else None


def _short(err: BaseException) -> str:
    return str(err)[:200]


@dataclass
class Handover:
    """What the SDK must see first: the era's messages (private ids) and the held messages."""

    replay: list[bytes]
    private_ids: set[str] = field(default_factory=set)


class Front:
    """Answers the handshake, ``tools/list`` and ``ping`` until a message needs the SDK."""

    def __init__(self, lines: LineReader, out: Output, tools: list[JsonObject]) -> None:
        self._lines = lines
        self._out = out
        self._tools = tools
        self._era: Era | None = None
        self._handover = Handover(replay=[])
        self._private = 0

    def run(self) -> Handover | None:
        """Serve until a message needs the SDK (its hand-over) or the input ends (``None``)."""
        while True:
            item = self._lines.get()
            if item is None:
                return None
            if isinstance(item, Oversized):
                self._out.send(oversized_reply(item))
                continue
            checked = check_line(item)
            if checked.reply is not None:
                self._out.send(checked.reply)
            message = checked.message
            if message is None:
                continue
            if "id" not in message or "method" not in message:
                # Notifications and the host's replies wait for the SDK, in order.
                self._handover.replay.append(item)
                if len(self._handover.replay) > MAX_BUFFERED:
                    return self._handover
                continue
            answer = self._answer(message)
            if answer is None:
                self._handover.replay.append(item)
                return self._handover
            self._out.send({"jsonrpc": "2.0", "id": message["id"], **answer})

    def _answer(self, message: JsonObject) -> JsonObject | None:
        """``{"result": …}`` or ``{"error": …}`` as the SDK would give; ``None``: the SDK's."""
        method = message["method"]
        raw_params = message.get("params")
        params: JsonObject = raw_params if isinstance(raw_params, dict) else {}
        if method == "initialize" and self._era != "modern":
            result = self._initialize(params)
            if result is not None:
                self._era = "legacy"
                self._remember(message)
            return result
        if method == "server/discover" and self._era != "legacy" and _modern(params):
            self._era = "modern"
            self._remember(message)
            return {"result": self._stamped({**self._discover()})}
        if self._era == "legacy" and not _modern_meta(params):
            if method == "tools/list" and "cursor" not in params:
                return {"result": {"tools": self._tools}}
            if method == "ping":
                return {"result": {}}
        if self._era == "modern" and _modern(params):
            if method == "tools/list" and "cursor" not in params:
                return {"result": self._stamped({"tools": self._tools})}
            if method == "ping":
                unknown = {"code": METHOD_NOT_FOUND, "message": "Method not found", "data": "ping"}
                return {"error": unknown}
        return None

    def _initialize(self, params: JsonObject) -> JsonObject | None:
        version = params.get("protocolVersion")
        info = params.get("clientInfo")
        if not (
            isinstance(version, str)
            and version != MODERN_VERSION
            and isinstance(params.get("capabilities"), dict)
            and isinstance(info, dict)
            and isinstance(info.get("name"), str)
            and isinstance(info.get("version"), str)
        ):
            return None
        agreed = version if version in LEGACY_VERSIONS else LEGACY_VERSIONS[-1]
        return {
            "result": {
                "capabilities": {"tools": {"listChanged": False}},
                "instructions": INSTRUCTIONS,
                "protocolVersion": agreed,
                "serverInfo": _server_info(),
            }
        }

    def _discover(self) -> JsonObject:
        return {
            "capabilities": {
                "extensions": {TASKS_EXTENSION: {}},
                "tools": {"listChanged": False},
            },
            "instructions": INSTRUCTIONS,
            "supportedVersions": [MODERN_VERSION],
        }

    def _stamped(self, result: JsonObject) -> JsonObject:
        # Every 2026-07-28 result carries these, as the SDK stamps them.
        return {
            "cacheScope": "private",
            **result,
            "resultType": "complete",
            "ttlMs": 0,
            "_meta": {META_SERVER_INFO: _server_info()},
        }

    def _remember(self, message: JsonObject) -> None:
        """Replay an era-settling request into the SDK under a private id (answer dropped)."""
        self._private += 1
        private_id = f"pi-ask-front-{os.getpid()}-{self._private}"
        self._handover.private_ids.add(private_id)
        self._handover.replay.append(dump({**message, "id": private_id}))


def _server_info() -> JsonObject:
    return {"name": SERVER_NAME, "title": SERVER_TITLE, "version": SERVER_VERSION}


def _modern_meta(params: JsonObject) -> bool:
    meta = params.get("_meta")
    return isinstance(meta, dict) and META_VERSION in meta


def _modern(params: JsonObject) -> bool:
    meta = params.get("_meta")
    return (
        isinstance(meta, dict)
        and meta.get(META_VERSION) == MODERN_VERSION
        and isinstance(meta.get(META_CAPABILITIES), dict)
    )


class Wire(NamedTuple):
    """The session's input lines and output, once the standard streams are claimed."""

    lines: LineReader
    out: Output


def claim_stdio() -> Wire:
    """Take the protocol's streams onto private descriptors.

    Standard input then reads the null device and standard output goes to stderr, so
    nothing the process or its children print can tear a protocol line (as the SDK's own
    stdio transport does).
    """
    try:
        wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
    except OSError:
        wire_in, wire_out = 0, 1
    return Wire(LineReader(wire_in), Output(wire_out))


def serve(tools: list[JsonObject], hand_over: Callable[[Wire, Handover], None]) -> int:
    """Serve stdio: answer from the front, then ``hand_over`` the rest to the SDK; exit 0."""
    wire = claim_stdio()
    try:
        handover = Front(wire.lines, wire.out, tools).run()
        if handover is not None:
            hand_over(wire, handover)
    except HostGone:
        pass
    sys.stdout.flush()
    return 0
