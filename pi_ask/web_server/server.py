"""``pi-ask web``: listen, say where and how to pair, serve until stopped (python-port.md §12).

Loopback by default; any other host needs ``--expose`` and gets a warning. The listen address
and the pairing link go to stderr, with a QR code of the link for a phone's camera: the code
is in the link's fragment, which a browser never sends, so it appears in no request line, log
or proxy. Connections come through the one listener (``pi_ask.http_listener``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO
from urllib.parse import urlsplit

from pi_ask.errors import UsageError
from pi_ask.http_listener import allowed_hosts, allowed_origins, is_loopback, listen_tcp, serve
from pi_ask.state.model import Behaviour
from pi_ask.web_server.app import WebParts, build_app
from pi_ask.web_server.board import Board
from pi_ask.web_server.guard import Names
from pi_ask.web_server.holds import Holds
from pi_ask.web_server.pairing import CODE_TTL_S, Codes, Devices

if TYPE_CHECKING:
    import socket
    import ssl

    from pi_ask.config.settings import NotificationSettings
    from pi_ask.relay.asks import AskSummary

NAME = "pi-ask web"


class WebOptions(NamedTuple):
    """Where and how ``pi-ask web`` serves."""

    host: str = "127.0.0.1"
    port: int = 0
    expose: bool = False
    public_url: str = ""
    tls_cert: str = ""
    tls_key: str = ""
    trust_tailscale: bool = False


def check_exposure(host: str, *, expose: bool) -> str | None:
    """The warning for serving ``host``; ``None`` for loopback; a usage error for any other
    host without ``--expose``."""
    if is_loopback(host):
        return None
    if not expose:
        raise UsageError(
            f"web: {host} is not a loopback address; pass --expose to serve other machines "
            "(then prefer SSH forwarding, Tailscale serve or a TLS proxy: see docs/web.md)"
        )
    return (
        f"warning: serving on {host} to other machines: anyone who can reach it may try to "
        "pair; only a device with the pairing code gets in. Without TLS the session cookie "
        "crosses the network in clear"
    )


def link_warning(host: str, public_url: str) -> str | None:
    """The warning for a wildcard address without ``public_url``: links then name loopback,
    which no other device can open. (Taking the machine's interface addresses as names
    instead would widen the ``Host`` check; naming the address is left to the user.)"""
    if host not in ("0.0.0.0", "::") or public_url:
        return None
    return (
        "warning: links point to 127.0.0.1, which only this machine can open; set [web] "
        "public_url to the address other devices use (then it is accepted as Host too)"
    )


def public_parts(public_url: str) -> tuple[str, str] | None:
    """``[web] public_url``'s origin and host, or ``None`` when it is empty.

    Raises:
        UsageError: It is not an http(s) URL with a host.
    """
    if not public_url:
        return None
    parts = urlsplit(public_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"web: public_url must be an http(s) URL with a host, not {public_url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower(), parts.netloc.lower()


def names_for(host: str, port: int, public_url: str, *, secure: bool = False) -> Names:
    """The ``Host`` values and page origins a server on ``host:port`` accepts (``secure``:
    the page is reached over https, here or at ``public_url``, so the cookie is Secure)."""
    hosts = allowed_hosts(host, port)
    origins = allowed_origins(hosts, "http") + allowed_origins(hosts, "https")
    public = public_parts(public_url)
    if public is not None:
        origins.append(public[0])
        hosts.append(public[1])
    return Names(frozenset(h.lower() for h in hosts), frozenset(o.lower() for o in origins), secure)


def base_url(host: str, port: int, public_url: str, *, secure: bool = False) -> str:
    """Where the page is: ``public_url`` when set, else the bound address."""
    if public_url:
        return public_url if public_url.endswith("/") else public_url + "/"
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"{'https' if secure else 'http'}://{shown}:{port}/"


def pairing_lines(link_base: str, code: str, *, qr: bool = True) -> str:
    """What the terminal shows for a new pairing code: the code, the link, its QR code."""
    import io

    link = f"{link_base}#pair={code}"
    shown = f"{code[:4]}-{code[4:]}"
    minutes = int(CODE_TTL_S // 60)
    text = (
        f"{NAME}: pairing code {shown} (valid {minutes} minutes, once); "
        f"open on the device: {link}\n"
    )
    if qr:
        import segno

        out = io.StringIO()
        segno.make(link, error="m").terminal(out=out, compact=True)
        text += out.getvalue()
    return text


def tls_context(options: WebOptions) -> ssl.SSLContext | None:
    """The server-side TLS context of ``[web] tls_cert`` and ``tls_key`` (``None``: plain).

    Raises:
        UsageError: One is set without the other, or they cannot be loaded.
    """
    if not options.tls_cert and not options.tls_key:
        return None
    if not (options.tls_cert and options.tls_key):
        raise UsageError("web: tls_cert and tls_key go together; set both or neither")
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(
            Path(options.tls_cert).expanduser(), Path(options.tls_key).expanduser()
        )
    except (OSError, ssl.SSLError) as problem:
        raise UsageError(f"web: cannot load tls_cert / tls_key: {problem}") from None
    return context


def run_web(
    options: WebOptions,
    *,
    state_dir: Path,
    behaviour: Callable[[], Behaviour],
    err: TextIO | None = None,
    stop: threading.Event | None = None,
    started: threading.Event | None = None,
    notifications: Callable[[], NotificationSettings] | None = None,
) -> int:
    """Serve until a signal (or ``stop``, set from another thread); the exit status.

    ``started`` is set once the server listens and has said so (or has failed to start).
    With ``notifications``, each ask that arrives rings the "question waiting" channels, as
    an inbox does (``pi-ask inbox --web`` leaves that to the inbox).
    """
    err = err if err is not None else sys.stderr
    from pi_ask.relay.paths import NoPrivateFolder, asks_dir, runtime_dir

    warning = check_exposure(options.host, expose=options.expose)
    tls = tls_context(options)
    if options.trust_tailscale and not is_loopback(options.host):
        raise UsageError(
            "web: trust_tailscale_headers needs a loopback host (tailscale serve in front)"
        )
    try:
        asks = asks_dir()
        runtime: Path | None = runtime_dir()
    except NoPrivateFolder as problem:
        print(f"{NAME}: {problem}", file=err)
        return 2
    try:
        listener = listen_tcp(options.host, options.port)
    except OSError as problem:
        raise UsageError(
            f"web: cannot listen on {options.host}:{options.port}: {problem.strerror}"
        ) from None
    server = _Server(options, listener, tls, err, started)
    holds = Holds(asks, behaviour)
    board = Board(asks, runtime, holds.sweep, _ringer(notifications, server.link_base))
    parts = WebParts(
        Devices(state_dir),
        Codes(),
        holds,
        board,
        server.names,
        server.announce,
        lambda: _publish(runtime, server.link_base),
    )
    try:
        asyncio.run(server.run(build_app(parts), parts, warning, stop))
    finally:
        board.stop()
        holds.close()
        if started is not None:
            started.set()
    return 0


def _publish(runtime: Path | None, link_base: str) -> Callable[[], None]:
    """Say where the page is, for the notifications of askers and inboxes (``web_link``)."""
    from pi_ask.relay.web_link import publish

    if runtime is None:
        return lambda: None
    try:
        return publish(runtime, link_base)
    except OSError:
        return lambda: None


def _ringer(
    notifications: Callable[[], NotificationSettings] | None, link_base: str
) -> Callable[[list[AskSummary]], None] | None:
    """One "question waiting" notification per batch of new asks, with the link of the one
    ask's page, or of the list for several (``None``: no ringing)."""
    if notifications is None:
        return None

    def ring(new: list[AskSummary]) -> None:
        from pi_ask.notifications.message import waiting_message
        from pi_ask.notifications.waiting import notify_waiting
        from pi_ask.relay.web_link import waiting_link

        subject = new[0].title or "a question from your agent"
        link = waiting_link([info.ask_id for info in new], link_base)
        # Sent off the board's thread and left to finish: the list never waits for it.
        notify_waiting(notifications(), waiting_message(subject), write_terminal=None, link=link)

    return ring


class _Server:
    """One run's listener, names and terminal lines."""

    def __init__(
        self,
        options: WebOptions,
        listener: socket.socket,
        tls: ssl.SSLContext | None,
        err: TextIO,
        started: threading.Event | None = None,
    ) -> None:
        self.options = options
        self.started = started
        self.listener = listener
        self.tls = tls
        self.err = err
        self.port = int(listener.getsockname()[1])
        secure = tls is not None or options.public_url.startswith("https://")
        names = names_for(options.host, self.port, options.public_url, secure=secure)
        self.names = names._replace(tailscale=options.trust_tailscale)
        self.link_base = base_url(options.host, self.port, options.public_url, secure=bool(tls))

    def say(self, text: str) -> None:
        self.err.write(text)
        self.err.flush()

    def announce(self, code: str) -> None:
        self.say(pairing_lines(self.link_base, code))

    async def run(
        self, app: Any, parts: WebParts, warning: str | None, stop: threading.Event | None
    ) -> None:
        def ready() -> None:
            for said in (warning, link_warning(self.options.host, self.options.public_url)):
                if said is not None:
                    self.say(f"{NAME}: {said}\n")
            host = self.options.host
            shown = f"[{host}]" if ":" in host else host
            count = len(parts.devices)
            paired = f"; {count} paired device(s)" if count else ""
            scheme = "https" if self.tls is not None else "http"
            where = f"{scheme}://{shown}:{self.port}/"
            self.say(f"{NAME}: listening on {where}{paired} (Ctrl+C stops)\n")
            self.announce(parts.codes.issue())
            if self.started is not None:
                self.started.set()

        serving = asyncio.ensure_future(
            serve(app, self.listener, name=NAME, on_ready=ready, tls=self.tls)
        )
        if stop is None:
            await serving
            return
        while not serving.done() and not stop.is_set():
            # A thread's event, looked at a few times a second: nothing here may block the loop.
            await asyncio.wait([serving], timeout=0.2)
        if not serving.done():
            serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
