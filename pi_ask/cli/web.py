"""``pi-ask web``: the web face's command (extra ``pi-ask[web]``).

Imported at every start of ``pi-ask`` to build the parser, so only ``argparse`` is imported at
the top; the handler imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.i18n import ngettext

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.web_server.server import WebOptions


def missing_extra() -> str:
    """The one line for a copy without the extra: the command for *this* installation."""
    from pi_ask.install_hint import extra_command

    return (
        "pi-ask web: Starlette, uvicorn and segno are not installed; add the web extra: "
        + extra_command("web")
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pi-ask web`` to the command line."""
    parser = subparsers.add_parser(
        "web",
        help="Answer pending asks from a browser or a phone (a page served here)",
        description=(
            "Serve a page listing the pending asks (those waiting for a terminal), each "
            "answered with the full flow from a browser or a phone. Private by default: "
            "loopback only, and each device pairs once with a one-time code printed here. "
            "Needs the pi-ask[web] extra. Ctrl+C stops."
        ),
    )
    add_web_options(parser)
    parser.add_argument(
        "--forget", action="store_true", help="Unpair every paired device, then exit"
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="Settings file to use")
    parser.set_defaults(handler=web_command)


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """``--host``, ``--expose`` and ``--port`` (``pi-ask web`` and ``pi-ask inbox --web``)."""
    parser.add_argument(
        "--host", metavar="H", help="Address to listen on (default: [web] host, 127.0.0.1)"
    )
    parser.add_argument(
        "--expose",
        action="store_true",
        help="Allow a --host that is not loopback (other machines can connect and try to pair)",
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="P",
        help="Port to listen on (default: [web] port; 0: a free one)",
    )


def web_options(args: argparse.Namespace, store: SettingsStore) -> WebOptions:
    """The ``WebOptions`` of the command line over the ``[web]`` settings."""
    from pi_ask.errors import UsageError
    from pi_ask.web_server.server import WebOptions

    web = store.snapshot().web
    host = args.host if args.host is not None else web.host
    port = args.port if args.port is not None else web.port
    if not 0 <= port <= 65535:
        raise UsageError(f"web: --port must be from 0 to 65535, not {port}")
    return WebOptions(
        host=host,
        port=port,
        expose=args.expose,
        public_url=web.public_url,
        tls_cert=web.tls_cert,
        tls_key=web.tls_key,
        trust_tailscale=web.trust_tailscale_headers,
    )


def extra_missing() -> bool:
    """True (and the line said) when the ``web`` extra is not installed."""
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(missing_extra(), file=sys.stderr)
        return True
    return False


@contextlib.contextmanager
def serve_beside(args: argparse.Namespace, store: SettingsStore) -> Iterator[int | None]:
    """``pi-ask inbox --web``: the web server on a thread of its own while the inbox runs;
    yields ``None`` once it listens, or the exit status when it could not start."""
    import threading

    from pi_ask.config.paths import state_dir
    from pi_ask.web_server.server import run_web

    if extra_missing():
        yield 2
        return
    options = web_options(args, store)
    stop, started = threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def serve() -> None:
        try:
            run_web(
                options,
                state_dir=state_dir(),
                behaviour=lambda: store.snapshot().behaviour,
                stop=stop,
                started=started,
            )
        except BaseException as problem:  # told to the main thread, which says it once
            failed.append(problem)
            started.set()

    thread = threading.Thread(target=serve, name="pi-ask web", daemon=True)
    thread.start()
    started.wait()
    if failed:
        raise failed[0]
    try:
        yield None
    finally:
        stop.set()
        thread.join(timeout=10)


def web_command(args: argparse.Namespace) -> int:
    """``pi-ask web``: serve until a signal; 0, or 2 without the extra."""
    from pi_ask.config.paths import state_dir

    if args.forget:
        from pi_ask.web_server.pairing import Devices

        count = Devices(state_dir()).forget()
        forgot = ngettext("forgot {count} paired device", "forgot {count} paired devices", count)
        print(f"pi-ask web: {forgot.format(count=count)}", file=sys.stderr)
        return 0
    if extra_missing():
        return 2
    from pi_ask.config.store import open_store
    from pi_ask.web_server.server import run_web

    store = open_store(args.config)
    options = web_options(args, store)
    return run_web(
        options,
        state_dir=state_dir(),
        behaviour=lambda: store.snapshot().behaviour,
        notifications=lambda: store.snapshot().notifications,
    )
