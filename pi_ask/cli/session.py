"""``pi-ask replay``, ``pi-ask resume`` and ``pi-ask answer``.

Imported at every start of ``pi-ask`` to build the parser, so only ``argparse`` is imported at
the top; each handler imports what it needs when it runs. Output follows python-port.md §10:
the result JSON on stdout; "nothing to open" is one stderr line and exit 1; "cannot even
try" is stderr and exit 2; info lines (``Replaying previous ...``) go to stderr.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pi_ask.face_table import UI_MODES
from pi_ask.i18n import gettext, ngettext

if TYPE_CHECKING:
    from pathlib import Path

    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.loading import LoadedPayload
    from pi_ask.contract.results import ToolResult
    from pi_ask.session.drafts import AnswerMap
    from pi_ask.session.entries import PayloadSource
    from pi_ask.session.log import SessionFile
    from pi_ask.session.resume import Resumable

EXIT_NOTHING = 1
EXIT_CANNOT = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay``, ``resume`` and ``answer`` to the ``pi-ask`` parser."""
    replay = subparsers.add_parser(
        "replay",
        help="Reopen the latest ask_user form asked in this folder",
        description=(
            "Reopen the latest ask_user form that is still valid: from this folder's log, "
            "--session when given, or with --all every folder's log."
        ),
    )
    _add_all(replay)
    _add_common(replay)
    replay.set_defaults(handler=replay_command)

    resume = subparsers.add_parser(
        "resume",
        help="Reopen an unanswered ask with its draft answers",
        description=(
            "Reopen the newest ask that was never submitted or cancelled (or the one named by "
            "ID), with the answers, notes and text it had: from this folder's log, --session "
            "when given, or with --all every folder's log. Without ID it opens the newest ask "
            "--list shows, so not one that reached no terminal over a day ago and has no draft "
            "(--stale, or its ID, opens that)."
        ),
    )
    resume.add_argument("id", nargs="?", metavar="ID", help="Ask id (or a unique prefix)")
    resume.add_argument("--list", action="store_true", help="List the unanswered asks")
    resume.add_argument(
        "--stale",
        action="store_true",
        help=(
            "Also list (with --list) or open (without ID) asks that reached no terminal over a"
            " day ago"
        ),
    )
    _add_all(resume)
    _add_common(resume)
    resume.set_defaults(handler=resume_command)

    answer = subparsers.add_parser(
        "answer",
        help="Turn the agent's last message into a form",
        description=(
            "Find the questions of the latest finished assistant message (a pi session, a "
            "Claude Code transcript, or text) and open them as a form."
        ),
    )
    answer.add_argument("--again", action="store_true", help="Reopen the last extracted form")
    answer.add_argument("--text", metavar="FILE", help="Read the message from FILE (- for stdin)")
    _add_common(answer)
    answer.set_defaults(handler=answer_command)


def _add_all(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--all",
        action="store_true",
        help="Look in the logs of every folder, not only this one's",
    )


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session", metavar="FILE", help="A pi session or pi-ask log to read")
    parser.add_argument(
        "--ui", choices=UI_MODES, default="auto", help="Face to open (default: %(default)s)"
    )
    parser.add_argument("--config", metavar="FILE", help="Settings file to use")


def replay_command(args: argparse.Namespace) -> int:
    """``pi-ask replay``: the latest valid ask_user payload on the branch, opened again."""
    return _replay(args, "tool", "ask:replay")


def resume_command(args: argparse.Namespace) -> int:
    """``pi-ask resume [ID] [--list] [--stale]``: an unfinished ask with its latest draft."""
    import sys

    from pi_ask.session.resume import NO_RESUME, find_resumables, listed, pick, unknown_id_message

    store = _store(args)
    files = _files(args)
    found = find_resumables(
        files, present_single_as_multi=store.snapshot().behaviour.present_single_as_multi
    )
    if getattr(args, "list", False):
        return _list(args, files, found)
    wanted, stale = getattr(args, "id", None), getattr(args, "stale", False)
    chosen = pick(found, wanted, stale=stale)
    if chosen is None:
        message = unknown_id_message(wanted) if wanted else gettext(NO_RESUME)
        print(f"{message} {_looked_in(args, files)}", file=sys.stderr)
        passed_over = 0 if wanted else len(found) - len(listed(found, stale=stale))
        if passed_over:
            text = ngettext(
                "{count} ask that reached no terminal over a day ago was passed over; --stale"
                " or its ID opens it.",
                "{count} asks that reached no terminal over a day ago were passed over; --stale"
                " or an ID opens them.",
                passed_over,
            )
            print(text.format(count=passed_over), file=sys.stderr)
        return EXIT_NOTHING
    return _resume(args, store, chosen)


def _list(
    args: argparse.Namespace, files: tuple[SessionFile, ...], found: tuple[Resumable, ...]
) -> int:
    """``resume --list``: one line per ask; old asks that reached no terminal only with
    ``--stale``, and a line on stderr says how many were left out."""
    import sys

    from pi_ask.session.resume import NO_RESUME, listed

    shown = listed(found, stale=getattr(args, "stale", False))
    hidden = len(found) - len(shown)
    if not shown:
        print(f"{gettext(NO_RESUME)} {_looked_in(args, files)}", file=sys.stderr)
    folders = _folders(files) if getattr(args, "all", False) else {}
    for resumable in shown:
        print(_describe(resumable, folders.get(resumable.path)))
    if hidden:
        text = ngettext(
            "{count} ask that reached no terminal over a day ago is not listed; --stale lists it.",
            "{count} asks that reached no terminal over a day ago are not listed; --stale lists"
            " them.",
            hidden,
        )
        print(text.format(count=hidden), file=sys.stderr)
    return 0 if shown else EXIT_NOTHING


def answer_command(args: argparse.Namespace) -> int:
    """``pi-ask answer``: the questions of the latest assistant message, as a form."""
    import sys
    from pathlib import Path

    from pi_ask.answer.extraction import CANCELLED, NO_QUESTIONS, ExtractorUnavailable
    from pi_ask.answer.form import extract_form
    from pi_ask.answer.message_blocks import NestedTooDeep
    from pi_ask.answer.source import NoAssistantMessage, find_message
    from pi_ask.contract.loading import InvalidPayload, load_payload
    from pi_ask.contract.rejection import invalid_result

    if args.again:
        return _replay(args, "answer-extraction", "answer:again")
    store = _store(args)
    settings = store.snapshot()
    try:
        message = find_message(
            text=args.text,
            session=_path(args.session),
            stdin=None if args.ui == "rpc" else sys.stdin,
            cwd=Path.cwd(),
        )
        params = extract_form(message, settings.answer, notify=_notify)
    except (NoAssistantMessage, ExtractorUnavailable, NestedTooDeep) as err:
        print(err, file=sys.stderr)
        return EXIT_CANNOT
    except KeyboardInterrupt:
        print(CANCELLED, file=sys.stderr)
        return 130
    if not params.get("questions"):
        print(NO_QUESTIONS, file=sys.stderr)
        return EXIT_NOTHING
    loaded = load_payload(
        params,
        present_single_as_multi=settings.behaviour.present_single_as_multi,
        allow_freeform=True,
    )
    if isinstance(loaded, InvalidPayload):
        print(invalid_result(loaded).text, file=sys.stderr)
        return EXIT_CANNOT
    return _flow(args, store, loaded, source="answer")[1]


def _replay(args: argparse.Namespace, wanted: PayloadSource, source: str) -> int:
    import sys

    from pi_ask.session.replay import NothingToReplay, find_replay, replaying_notice

    store = _store(args)
    files = _files(args)
    found = find_replay(
        files,
        wanted,
        present_single_as_multi=store.snapshot().behaviour.present_single_as_multi,
    )
    if isinstance(found, NothingToReplay):
        print(f"{gettext(found.message)} {_looked_in(args, files)}", file=sys.stderr)
        return EXIT_NOTHING
    print(
        replaying_notice(wanted, len(found.loaded.payload.questions), found.path), file=sys.stderr
    )
    return _flow(args, store, found.loaded, source=source)[1]


def _resume(args: argparse.Namespace, store: SettingsStore, chosen: Resumable) -> int:
    import sys

    from pi_ask.session.resume import RESUME_CANCELLED, reopening_notice, restore

    loaded, answers = restore(chosen.loaded, chosen.draft)
    print(reopening_notice(len(loaded.payload.questions)), file=sys.stderr)
    result, status = _flow(
        args,
        store,
        loaded,
        source="ask:resume",
        ask_id=chosen.ask_id,
        initial_answers=answers,
    )
    # Nobody asked, a deadline or an abort leave the ask pending; only a real cancel dismisses it.
    if result.details.reason == "cancelled":
        print(gettext(RESUME_CANCELLED), file=sys.stderr)
    return status


def _flow(
    args: argparse.Namespace,
    store: SettingsStore,
    loaded: LoadedPayload,
    *,
    source: str,
    ask_id: str | None = None,
    initial_answers: AnswerMap = (),
) -> tuple[ToolResult, int]:
    """Run the flow (recording a new ask, or continuing ``ask_id``) and print the result."""
    import sys

    from pi_ask.api import run_flow
    from pi_ask.terminal_text import json_text, result_indent

    result, status = run_flow(
        loaded,
        ui=args.ui,
        store=store,
        session=_path(args.session),
        source=source,
        ask_id=ask_id,
        initial_answers=initial_answers,
    )
    print(json_text(result.to_json(), indent=result_indent(sys.stdout, args.ui)), flush=True)
    return result, status


def _describe(resumable: Resumable, folder: str | None = None) -> str:
    """One ``resume --list`` line: id, time, size, what it asks, how far the draft got, and
    (with ``--all``) the folder it was asked in."""
    from datetime import datetime

    from pi_ask.terminal_text import clean_line

    payload = resumable.loaded.payload
    when = datetime.fromtimestamp(resumable.timestamp_ms / 1000).strftime("%Y-%m-%d %H:%M")
    subject = payload.title or payload.questions[0].prompt
    subject = subject if len(subject) <= 60 else subject[:59] + "…"
    # Payload text on a terminal: controls and bidi marks as visible escapes (§10).
    subject = clean_line(subject)
    answered = sum(a.is_answered for _, a in resumable.draft.answers) if resumable.draft else 0
    count = len(payload.questions)
    line = f"{resumable.ask_id}  {when}  {answered}/{count} answered  {' '.join(subject.split())}"
    return f"{line}  ({clean_line(folder)})" if folder else line


def _folders(files: tuple[SessionFile, ...]) -> dict[Path, str]:
    """The folder each log was written for, from its header (``cwd``), for ``--all`` lines."""
    from pathlib import Path

    from pi_ask.config.paths import display_path

    found: dict[Path, str] = {}
    for read in files:
        cwd = (read.header or {}).get("cwd")
        if isinstance(cwd, str) and cwd:
            found[read.path] = display_path(Path(cwd))
    return found


def _looked_in(args: argparse.Namespace, files: tuple[SessionFile, ...]) -> str:
    """Where replay and resume looked, for the "nothing found" line."""
    from pi_ask.config.paths import display_path
    from pi_ask.session.locations import sessions_dir

    if getattr(args, "all", False):
        where = display_path(sessions_dir())
        text = ngettext(
            "Looked in {count} log in {where}.", "Looked in {count} logs in {where}.", len(files)
        )
        return text.format(count=len(files), where=where)
    names = gettext(" and ").join(display_path(read.path) for read in files)
    return gettext("Looked in {names}; pass --all to look in every folder's log.").format(
        names=names
    )


def _files(args: argparse.Namespace) -> tuple[SessionFile, ...]:
    from pathlib import Path

    from pi_ask.session.locations import every_log, read_paths
    from pi_ask.session.replay import read_files

    session = _path(args.session)
    if session is not None:
        _check_session_file(session)
    paths = read_paths(session, Path.cwd())
    if getattr(args, "all", False):
        paths = tuple(dict.fromkeys([*(p for p in paths if p.exists()), *every_log()]))
    files = read_files(paths)
    for read in files:
        if read.skipped:
            _report_skipped(read)
    return files


def _check_session_file(session: Path) -> None:
    """A usage error unless ``--session`` names a regular file (a FIFO is never opened)."""
    import os

    from pi_ask.errors import UsageError
    from pi_ask.regular_files import check_regular

    try:
        check_regular(session, os.stat(session))
    except FileNotFoundError:
        raise UsageError(f"--session {session}: no such file") from None
    except OSError as err:
        raise UsageError(f"--session {session}: {err.strerror or err}") from None


def _report_skipped(read: SessionFile) -> None:
    """One stderr line naming the lines a session file had that could not be read."""
    import sys

    lines = ", ".join(str(s.line) for s in read.skipped[:5])
    more = f" (+{len(read.skipped) - 5} more)" if len(read.skipped) > 5 else ""
    count = len(read.skipped)
    skipped = ngettext(
        "skipped {count} unreadable line: {lines}",
        "skipped {count} unreadable lines: {lines}",
        count,
    )
    print(f"pi-ask: {read.path}: {skipped.format(count=count, lines=lines)}{more}", file=sys.stderr)


def _store(args: argparse.Namespace) -> SettingsStore:
    from pi_ask.config.store import open_store

    return open_store(_path(args.config))


def _path(value: str | None) -> Path | None:
    from pathlib import Path

    return Path(value).expanduser() if value else None


def _notify(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)
