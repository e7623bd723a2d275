"""``pi-ask attach`` and ``pi-ask inbox``: answer pending asks from this terminal.

Imported at every start of ``pi-ask`` to build the parser, so only ``argparse`` is imported at
the top; each handler imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pi_ask.face_table import TERMINAL_FACES
from pi_ask.i18n import N_, gettext, ngettext

if TYPE_CHECKING:
    from pi_ask.relay.asks import AskSummary

EXIT_NOTHING = 1
NO_PENDING = N_("no pending asks")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``attach`` and ``inbox`` to the ``pi-ask`` parser."""
    attach = subparsers.add_parser(
        "attach",
        help="Answer a pending ask (one waiting for a terminal) here",
        description=(
            "Answer one pending ask in this terminal, then exit: the one named by ID (or a "
            "unique prefix), else the oldest. Exit status: 0 answered (or cancelled) here, "
            "1 nothing to answer or it was answered elsewhere."
        ),
    )
    attach.add_argument("id", nargs="?", metavar="ID", help="Ask id (or a unique prefix)")
    attach.add_argument("--list", action="store_true", help="List the pending asks, oldest first")
    attach.add_argument("--json", action="store_true", help="With --list: one JSON array")
    _add_common(attach)
    attach.set_defaults(handler=attach_command)

    inbox = subparsers.add_parser(
        "inbox",
        help="Wait for pending asks and answer them here, one after another",
        description=(
            "Wait in this terminal for asks that have no terminal of their own (agents' tools, "
            "CI jobs, MCP servers) and answer each with the full flow. Ctrl+C or q quits."
        ),
    )
    _add_common(inbox)
    inbox.add_argument(
        "--web",
        action="store_true",
        help="Also serve the asks to paired browsers and phones, as pi-ask web does",
    )
    from pi_ask.cli.web import add_web_options

    add_web_options(inbox)
    inbox.set_defaults(handler=inbox_command)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ui",
        choices=TERMINAL_FACES,
        help='Face to answer in (default: [ui] face, or "plain" when TERM=dumb)',
    )
    parser.add_argument("--config", metavar="FILE", help="Settings file to use")


def attach_command(args: argparse.Namespace) -> int:
    """``pi-ask attach [ID] [--list [--json]]``."""
    import sys

    from pi_ask.errors import UsageError
    from pi_ask.inbox.listing import listing_lines
    from pi_ask.relay.client import list_pending
    from pi_ask.relay.paths import NoPrivateFolder

    _speak_the_settings_language(args)
    if args.json and not args.list:
        raise UsageError(gettext("attach --json goes with --list"))
    if args.list and args.id is not None:
        raise UsageError(gettext("attach --list takes no ID"))
    try:
        found = list_pending()
    except NoPrivateFolder as err:
        print(f"pi-ask: {err}", file=sys.stderr)
        return 2
    if args.list:
        if args.json:
            from pi_ask.terminal_text import json_text

            # Titles and folders are the agent's text: escaped, so a terminal acts on none.
            print(json_text([info.to_json() for info in found]))
        else:
            for line in listing_lines(found):
                print(line)
        if not found and not args.json:
            print(f"pi-ask: {gettext(NO_PENDING)}", file=sys.stderr)
        return 0 if found else EXIT_NOTHING
    chosen = _pick(found, args.id)
    if chosen is None:
        return EXIT_NOTHING
    return _answer(chosen, args)


def _speak_the_settings_language(args: argparse.Namespace) -> None:
    """Read the settings first, so what is said comes in their ``[ui] language``."""
    from pathlib import Path

    from pi_ask.config.store import open_store

    open_store(Path(args.config) if args.config else None, create=False)


def _pick(found: list[AskSummary], wanted: str | None) -> AskSummary | None:
    import sys

    if not found:
        print(f"pi-ask: {gettext(NO_PENDING)}", file=sys.stderr)
        return None
    if wanted is None:
        return found[0]
    matches = [info for info in found if info.ask_id == wanted]
    matches = matches or [info for info in found if info.ask_id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        text = ngettext(
            "{id} matches {count} pending ask", "{id} matches {count} pending asks", len(matches)
        ).format(id=repr(wanted), count=len(matches))
    else:
        text = gettext("no pending ask {id} (see pi-ask attach --list)").format(id=repr(wanted))
    print(f"pi-ask: {text}", file=sys.stderr)
    return None


def _answer(info: AskSummary, args: argparse.Namespace) -> int:
    from pathlib import Path

    from pi_ask.ask.face import FlowInterrupted
    from pi_ask.ask.routing import terminal_face
    from pi_ask.config.store import open_store
    from pi_ask.inbox.attach import answer_one

    store = open_store(Path(args.config) if args.config else None)
    try:
        return answer_one(info, store=store, face=args.ui or terminal_face(store))
    except FlowInterrupted as stop:
        # A hang-up or a signal: nothing was sent, the ask stays pending with its drafts.
        return 128 + stop.signal_number


def inbox_command(args: argparse.Namespace) -> int:
    """``pi-ask inbox``."""
    from pathlib import Path

    from pi_ask.ask.routing import terminal_face
    from pi_ask.config.store import open_store
    from pi_ask.inbox.app import run_inbox

    store = open_store(Path(args.config) if args.config else None)
    if not args.web:
        from pi_ask.errors import UsageError

        if args.host is not None or args.port is not None or args.expose:
            raise UsageError(gettext("inbox: --host, --port and --expose go with --web"))
        return run_inbox(store=store, face=args.ui or terminal_face(store))
    from pi_ask.cli.web import serve_beside

    with serve_beside(args, store) as status:
        if status is not None:
            return status
        return run_inbox(store=store, face=args.ui or terminal_face(store))
