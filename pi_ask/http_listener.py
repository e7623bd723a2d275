"""The one HTTP listener of ``pi-ask mcp --http`` and ``pi-ask web`` (python-port.md §12).

uvicorn bounds neither the number of connections it accepts nor the time a peer may take to
send its request head, and on ``EMFILE`` asyncio's accept loop logs a traceback per attempt:
1,100 half-sent requests once starved every authenticated client and wrote 367 MB of log.
So nothing reaches uvicorn straight from the network. This module's accept loop:

- holds at most ``Limits.connections`` connections (fewer when the file descriptor limit is
  low: each costs three), and at most ``Limits.waiting`` of them still sending their request
  head; a new peer beyond that replaces the one that has waited longest, so a flood of
  half-open connections cannot keep an honest client out;
- closes a peer whose request head is not complete within ``Limits.head_timeout_s`` or
  ``Limits.head_bytes`` (431);
- on ``EMFILE`` and its kin backs off and says so in one stderr line (at most once a minute),
  never a traceback;
- with a TLS context (the user's certificate), does the TLS handshake first, within the same
  time as the request head;
- then hands the connection to uvicorn, which serves the app on a unix socket in a private
  temporary folder (``uvicorn.Server.serve(sockets=...)``, uvicorn's public way in: it takes
  listening sockets, not connections), relaying bytes both ways.

Only the first request head of a connection is timed here: an app answers a peer that has not
proven itself (no token, no paired session) with ``Connection: close`` (``CLOSE_HEADER``), so
such a peer never gets a second, untimed head. Idle keep-alive connections are closed by
uvicorn after ``Limits.idle_timeout_s``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import ssl

CLOSE_HEADER = (b"connection", b"close")


def header(scope: Any, name: bytes) -> str | None:
    """The one value of header ``name`` in an ASGI ``scope``; ``None`` when absent or given
    more than once (both apps' checks read headers through it)."""
    values = [value for key, value in scope.get("headers", ()) if key == name]
    if len(values) != 1:
        return None
    return bytes(values[0]).decode("latin-1")


"""The response header that ends a connection after the response (for unproven peers)."""

LOCALHOST_NAMES = ("localhost", "127.0.0.1", "::1")
_FDS_PER_CONNECTION = 3  # the peer's, ours to uvicorn, uvicorn's end of it
_FD_RESERVE = 48  # for everything else the process opens: logs, sockets, pipes
_RESOURCE_ERRORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
_BACKOFF_S = (0.05, 1.0)  # first and longest pause after a resource error
_SAY_EVERY_S = 60.0
_STARTING_POLL_S = 0.01
_FOLDER_PREFIX = "pi-ask-http-"
_HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_CHUNK = 64 * 1024
_HEAD_ENDS = (b"\r\n\r\n", b"\n\n")
_TOO_LARGE_TEXT = b"the request head is too large\n"
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_TOO_LARGE_TEXT), _TOO_LARGE_TEXT)
)


class Limits(NamedTuple):
    """What any one peer, and all of them together, can hold.

    Attributes:
        connections: Open connections at most (lowered to fit the file descriptor limit).
        waiting: Of those, connections still sending their first request head.
        head_timeout_s: Time from accept to a complete request head.
        head_bytes: Size of the request head at most.
        idle_timeout_s: How long uvicorn keeps a connection open between requests.
        shutdown_timeout_s: How long a signal's graceful shutdown waits for requests still
            running; a stream that never ends (a page's live list, an MCP event stream)
            is then cut, so Ctrl+C or SIGTERM always stops the server.
    """

    connections: int = 128
    waiting: int = 32
    head_timeout_s: float = 5.0
    head_bytes: int = 64 * 1024
    idle_timeout_s: int = 5
    shutdown_timeout_s: int = 3


DEFAULT_LIMITS = Limits()


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, port: int, *extra: str) -> list[str]:
    """The ``Host`` header values a listener on ``host:port`` answers: the bound address, a
    localhost name, and ``extra`` host names (a web face's public URL), each with the port."""
    names = dict.fromkeys([host, *LOCALHOST_NAMES, *extra])
    return [f"[{name}]:{port}" if ":" in name else f"{name}:{port}" for name in names]


def allowed_origins(hosts: list[str], scheme: str = "http") -> list[str]:
    """The ``Origin`` values of pages served from ``hosts`` (as ``allowed_hosts`` gives)."""
    return [f"{scheme}://{host}" for host in hosts]


def listen_tcp(host: str, port: int, backlog: int = 128) -> socket.socket:
    """A listening TCP socket on ``host:port`` (IPv6 when ``host`` has a colon).

    Raises:
        OSError: The address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(backlog)
    except OSError:
        listener.close()
        raise
    return listener


def connection_cap(limits: Limits) -> int:
    """``limits.connections``, lowered so that the connections fit the file descriptor limit."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return limits.connections
    if soft == resource.RLIM_INFINITY:
        return limits.connections
    return max(1, min(limits.connections, (soft - _FD_RESERVE) // _FDS_PER_CONNECTION))


async def serve(
    app: Any,
    listener: socket.socket,
    *,
    limits: Limits = DEFAULT_LIMITS,
    name: str = "pi-ask",
    on_ready: Callable[[], None] | None = None,
    tls: ssl.SSLContext | None = None,
) -> None:
    """Serve the ASGI ``app`` on ``listener`` (listening already) until uvicorn stops.

    uvicorn handles SIGINT and SIGTERM as ever (a graceful shutdown, then the signal again).

    Args:
        app: The ASGI application.
        listener: A listening TCP socket (``listen_tcp``); it is closed at the end.
        limits: What peers may hold.
        name: How stderr lines start (``pi-ask mcp``).
        on_ready: Called once the app has started, just before the first accept.
        tls: Serve https with this server-side context (``None``: plain http).
    """
    import uvicorn

    loop = asyncio.get_running_loop()
    say = _Say(name)
    # asyncio reports its own accept failures with a traceback each; one line here.
    loop.set_exception_handler(lambda _loop, context: say.error(context))
    config = uvicorn.Config(
        app,
        log_level="error",
        lifespan="on",
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=limits.idle_timeout_s,
        timeout_graceful_shutdown=limits.shutdown_timeout_s,
        h11_max_incomplete_event_size=limits.head_bytes,
    )
    server = uvicorn.Server(config)
    folder = _private_folder()
    inner_path = folder / "app.sock"
    inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with _signals_held(server):
            inner.bind(os.fspath(inner_path))
            inner.listen(limits.connections)
            front = _Front(listener, inner_path, limits, say, tls)
            await _serve_behind(server, inner, front, on_ready)
    finally:
        loop.set_exception_handler(None)
        inner.close()
        listener.close()
        shutil.rmtree(folder, ignore_errors=True)
        _raise_held()


async def _serve_behind(
    server: Any, inner: socket.socket, front: _Front, on_ready: Callable[[], None] | None
) -> None:
    """Run uvicorn on ``inner`` and, once it has started, the accept loop in front of it."""
    serving = asyncio.ensure_future(server.serve(sockets=[inner]))
    accepting: asyncio.Future[None] | None = None
    try:
        while not server.started and not serving.done():
            await asyncio.sleep(_STARTING_POLL_S)  # uvicorn has no "started" event
        if server.started:
            if on_ready is not None:
                on_ready()
            accepting = asyncio.ensure_future(front.accept_loop())
        await serving
    finally:
        for task in (accepting, serving):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await front.close_all()


def _private_folder() -> Path:
    """A new 0700 folder for uvicorn's socket, after removing those of dead servers."""
    base = Path(tempfile.gettempdir())
    for stale in base.glob(f"{_FOLDER_PREFIX}*-*"):
        pid = stale.name.removeprefix(_FOLDER_PREFIX).split("-", 1)[0]
        with contextlib.suppress(OSError):
            if pid.isdigit() and stale.lstat().st_uid == os.getuid() and not _alive(int(pid)):
                shutil.rmtree(stale)
    return Path(tempfile.mkdtemp(prefix=f"{_FOLDER_PREFIX}{os.getpid()}-", dir=base))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # alive, someone else's
        return True
    return True


_held: list[int] = []


@contextlib.contextmanager
def _signals_held(server: Any) -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the cleanup has run.

    uvicorn handles them while it serves, and when it has shut down raises the signal again
    for the handler it found: with the default one that ends the process at once, leaving
    the socket's folder behind. Ours records it (and stops a server still starting); the
    signal is raised again by ``_raise_held`` once everything is closed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def hold(signum: int, _frame: object) -> None:
        _held.append(signum)
        server.should_exit = True

    previous = {signum: signal.signal(signum, hold) for signum in _HELD_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_held() -> None:
    while _held:
        signal.raise_signal(_held.pop(0))


class _Say:
    """One-line stderr reports, each kind at most once a minute."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._last: dict[str, float] = {}

    def line(self, kind: str, text: str) -> None:
        now = time.monotonic()
        last = self._last.get(kind)
        if last is not None and now - last < _SAY_EVERY_S:
            return
        self._last[kind] = now
        with contextlib.suppress(OSError, ValueError):
            print(f"{self._name}: {text}", file=sys.stderr, flush=True)

    def error(self, context: dict[str, Any]) -> None:
        err = context.get("exception")
        detail = f": {_reason(err)}" if isinstance(err, BaseException) else ""
        self.line(str(context.get("message")), f"{context.get('message')}{detail}")


def _reason(err: BaseException) -> str:
    if isinstance(err, OSError) and err.errno is not None:
        return f"{err.strerror} ({errno.errorcode.get(err.errno, err.errno)})"
    return f"{type(err).__name__}: {err}"


class _Front:
    """The accept loop and the connections it holds."""

    def __init__(
        self,
        listener: socket.socket,
        inner: Path,
        limits: Limits,
        say: _Say,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self._listener = listener
        self._tls = tls
        self._inner = os.fspath(inner)
        self._limits = limits
        self._say = say
        self._cap = connection_cap(limits)
        self._waiting_cap = max(1, min(limits.waiting, self._cap))
        # Connections still sending their head, oldest first, and the ones handed over.
        self._waiting: OrderedDict[asyncio.Task[None], socket.socket] = OrderedDict()
        self._relaying: set[asyncio.Task[None]] = set()
        self._room = asyncio.Event()
        self._room.set()

    async def accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        self._listener.setblocking(False)
        pause = _BACKOFF_S[0]
        while True:
            await self._wait_for_room()
            try:
                peer, _address = await loop.sock_accept(self._listener)
            except OSError as err:
                if err.errno in _RESOURCE_ERRORS:
                    self._say.line("accept", f"cannot accept a connection now: {_reason(err)}")
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, _BACKOFF_S[1])
                # Anything else (a peer gone before accept) concerns that peer alone.
                continue
            pause = _BACKOFF_S[0]
            self._start(peer)

    async def _wait_for_room(self) -> None:
        while len(self._waiting) + len(self._relaying) >= self._cap:
            if self._waiting:
                self._evict_oldest()
                return
            self._room.clear()
            await self._room.wait()

    def _start(self, peer: socket.socket) -> None:
        if len(self._waiting) >= self._waiting_cap:
            self._evict_oldest()
        peer.setblocking(False)
        task = asyncio.ensure_future(self._serve_peer(peer))
        self._waiting[task] = peer
        task.add_done_callback(self._finished)

    def _evict_oldest(self) -> None:
        task, _peer = next(iter(self._waiting.items()))
        del self._waiting[task]
        task.cancel()

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._waiting.pop(task, None)
        self._relaying.discard(task)
        self._room.set()

    async def _serve_peer(self, peer: socket.socket) -> None:
        if self._tls is not None:
            await self._serve_tls_peer(peer, self._tls)
            return
        task = asyncio.current_task()
        try:
            head = await self._read_head(peer)
            if head is None:
                return
            assert task is not None
            # Handed over: no longer a waiting peer that a newcomer may replace.
            self._waiting.pop(task, None)
            self._relaying.add(task)
            await self._relay(peer, head)
        except OSError as err:
            if err.errno in _RESOURCE_ERRORS:
                self._say.line("relay", f"cannot serve a connection now: {_reason(err)}")
        finally:
            peer.close()

    async def _read_head(self, peer: socket.socket) -> bytes | None:
        """The bytes up to and past a complete request head; ``None``: the peer is done."""
        loop = asyncio.get_running_loop()
        received = bytearray()
        try:
            async with asyncio.timeout(self._limits.head_timeout_s):
                while not any(end in received for end in _HEAD_ENDS):
                    if len(received) > self._limits.head_bytes:
                        with contextlib.suppress(OSError):
                            peer.send(_TOO_LARGE)
                        return None
                    chunk = await loop.sock_recv(peer, _CHUNK)
                    if not chunk:
                        return None
                    received += chunk
        except TimeoutError:
            return None
        return bytes(received)

    async def _relay(self, peer: socket.socket, head: bytes) -> None:
        loop = asyncio.get_running_loop()
        inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            inner.setblocking(False)
            await loop.sock_connect(inner, self._inner)
            await loop.sock_sendall(inner, head)
            upward = asyncio.ensure_future(_pump(peer, inner))
            downward = asyncio.ensure_future(_pump(inner, peer))
            try:
                # uvicorn closing its end (a response with Connection: close, a keep-alive
                # timeout) ends the connection; the peer closing its end ends only its half.
                await downward
            finally:
                upward.cancel()
                downward.cancel()
                await asyncio.gather(upward, downward, return_exceptions=True)
        finally:
            inner.close()

    async def _serve_tls_peer(self, peer: socket.socket, tls: ssl.SSLContext) -> None:
        """As ``_serve_peer``, through TLS: the handshake and the head within the time."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        reader = asyncio.StreamReader(limit=_CHUNK)
        protocol = asyncio.StreamReaderProtocol(reader)
        writer: asyncio.StreamWriter | None = None
        try:
            async with asyncio.timeout(self._limits.head_timeout_s):
                transport, _ = await loop.connect_accepted_socket(lambda: protocol, peer, ssl=tls)
                writer = asyncio.StreamWriter(transport, protocol, reader, loop)
                head = await self._read_tls_head(reader, writer)
            if head is None:
                return
            assert task is not None
            self._waiting.pop(task, None)
            self._relaying.add(task)
            await self._relay_tls(reader, writer, head)
        except (TimeoutError, OSError, EOFError):
            # A peer that does not speak TLS, or not in time, concerns that peer alone.
            return
        finally:
            if writer is not None:
                writer.close()
            else:
                peer.close()

    async def _read_tls_head(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bytes | None:
        received = bytearray()
        while not any(end in received for end in _HEAD_ENDS):
            if len(received) > self._limits.head_bytes:
                writer.write(_TOO_LARGE)
                with contextlib.suppress(OSError):
                    await writer.drain()
                return None
            chunk = await reader.read(_CHUNK)
            if not chunk:
                return None
            received += chunk
        return bytes(received)

    async def _relay_tls(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: bytes
    ) -> None:
        loop = asyncio.get_running_loop()
        inner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)

        async def upward() -> None:
            with contextlib.suppress(ConnectionError):
                while chunk := await reader.read(_CHUNK):
                    await loop.sock_sendall(inner, chunk)
            with contextlib.suppress(OSError):
                inner.shutdown(socket.SHUT_WR)

        async def downward() -> None:
            with contextlib.suppress(ConnectionError):
                while chunk := await loop.sock_recv(inner, _CHUNK):
                    writer.write(chunk)
                    await writer.drain()

        try:
            inner.setblocking(False)
            await loop.sock_connect(inner, self._inner)
            await loop.sock_sendall(inner, head)
            up, down = asyncio.ensure_future(upward()), asyncio.ensure_future(downward())
            try:
                await down
            finally:
                up.cancel()
                down.cancel()
                await asyncio.gather(up, down, return_exceptions=True)
        finally:
            inner.close()

    async def close_all(self) -> None:
        tasks = [*self._waiting, *self._relaying]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _pump(source: socket.socket, target: socket.socket) -> None:
    """Copy ``source`` to ``target`` until ``source`` ends, then end ``target``'s write side."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(ConnectionError):
        while True:
            chunk = await loop.sock_recv(source, _CHUNK)
            if not chunk:
                break
            await loop.sock_sendall(target, chunk)
    with contextlib.suppress(OSError):
        target.shutdown(socket.SHUT_WR)
