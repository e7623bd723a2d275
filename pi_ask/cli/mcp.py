"""``pi-ask mcp``: the subcommand this face adds to the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pi_ask.config.catalogue import MCP_FACES
from pi_ask.errors import UsageError


def missing_sdk() -> str:
    """The one line for a copy without the extra: the command for *this* installation."""
    from pi_ask.install_hint import extra_command

    return f"pi-ask mcp: the MCP SDK is not installed; add the mcp extra: {extra_command('mcp')}"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pi-ask mcp`` to the command line."""
    parser = subparsers.add_parser(
        "mcp",
        help="Serve ask_user to an MCP host (Claude Code, Codex, Cursor, ...) on stdio",
        description=(
            "Run an MCP server on standard input and output with the tool ask_user and its "
            "non-blocking pair ask_user_start / ask_user_result. It asks through the host's own "
            "form (elicitation) or pi-ask's terminal UI in a running inbox or a tmux popup, never "
            "on the host's terminal. Needs the pi-ask[mcp] extra."
        ),
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="Settings file to use")
    parser.add_argument(
        "--session", type=Path, metavar="FILE", help="Session log to record the asks into"
    )
    parser.add_argument(
        "--face",
        choices=MCP_FACES,
        help="How asks reach the user; overrides [mcp] face (default: the setting, auto)",
    )
    parser.add_argument(
        "--tool-name",
        metavar="NAME",
        help=(
            "Publish the tools as NAME, NAME_start and NAME_result; overrides [mcp] tool_name "
            "(default: ask_user; Gemini CLI needs another name)"
        ),
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help=(
            "Serve streamable HTTP on HOST:PORT instead of stdio (e.g. 127.0.0.1:8765), "
            "behind a bearer token (PI_ASK_MCP_TOKEN, or one written to the state folder)"
        ),
    )
    parser.add_argument(
        "--expose",
        action="store_true",
        help="With --http: allow a HOST that is not loopback (other machines can connect)",
    )
    parser.set_defaults(handler=run_mcp_command)


def run_mcp_command(args: argparse.Namespace) -> int:
    """Serve until stdin closes (over HTTP: until a signal); 0, or 2 without the SDK.

    On stdio the front answers the handshake and ``tools/list`` before the SDK is imported
    (``pi_ask.mcp_server.front``); the SDK loads when a message needs it.
    """
    if not _sdk_installed():
        print(missing_sdk(), file=sys.stderr)
        return 2
    tool_name = _tool_name(args)
    if args.http is None:
        if args.expose:
            raise UsageError("mcp: --expose goes with --http HOST:PORT")
        from pi_ask.mcp_server import front
        from pi_ask.mcp_server.tool_table import published_tools

        def hand_over(wire: front.Wire, handover: front.Handover) -> None:
            import anyio

            from pi_ask.mcp_server.handover import serve_handed_over
            from pi_ask.mcp_server.server import build_server

            server = build_server(
                args.config, session=args.session, face=args.face, tool_name=tool_name
            )
            anyio.run(serve_handed_over, server.server, wire, handover)

        return front.serve(published_tools(tool_name), hand_over)

    import anyio

    from pi_ask.config.paths import state_dir
    from pi_ask.mcp_server.http import check_exposure, parse_address, serve_http
    from pi_ask.mcp_server.server import build_server

    host, port = parse_address(args.http)
    warning = check_exposure(host, expose=args.expose)
    server = build_server(args.config, session=args.session, face=args.face, tool_name=tool_name)
    anyio.run(serve_http, server, host, port, state_dir(), warning)
    return 0


def _tool_name(args: argparse.Namespace) -> str:
    """``--tool-name`` when given (checked), else ``[mcp] tool_name``."""
    from pi_ask.config.catalogue import KEYS_BY_NAME, is_valid

    if args.tool_name is None:
        from pi_ask.config.store import open_store

        return open_store(args.config).snapshot().mcp.tool_name
    if not is_valid("tool_name", args.tool_name):
        accepts = KEYS_BY_NAME["mcp.tool_name"].expected
        raise UsageError(f"mcp: --tool-name {args.tool_name!r} is not a tool name: {accepts}")
    return str(args.tool_name)


def _sdk_installed() -> bool:
    """True when the extra's packages can be imported (found, not loaded)."""
    from importlib.util import find_spec

    try:
        return find_spec("mcp") is not None and find_spec("anyio") is not None
    except (ImportError, ValueError):
        return False
