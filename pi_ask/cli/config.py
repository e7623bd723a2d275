"""``pi-ask config path|show|validate|edit|reset|schema|import``.

``pi_ask.cli.main`` imports this module on every start to build its parser, so it imports only
``argparse``; each handler imports what it needs. Handlers return the exit status. None of
them creates the config file except ``edit`` (and ``import``, which writes it on purpose).
Bad input gives one line on stderr and status 2, never a traceback.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pi_ask.config.problems import ConfigProblem
    from pi_ask.config.report import FileReport

    Handler = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``config`` command and its verbs to the ``pi-ask`` parser.

    Every parser gets ``handler`` (``Namespace -> int``) as a default.
    """
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="Settings file to use (default: $PI_ASK_CONFIG, else the platform's config folder)",
    )
    config = subparsers.add_parser(
        "config",
        parents=[common],
        help="Show, check and edit the settings file",
        description="Show, check and edit the pi-ask settings file (config.toml).",
    )
    config.set_defaults(handler=_guarded("config", lambda _args: _missing_verb(config)))
    verbs = config.add_subparsers(title="verbs", metavar="VERB")
    _add(verbs, common, "path", "Print where the settings file is", _run_path)
    _add(verbs, common, "show", "Print the effective settings and where each came from", _run_show)
    _add(verbs, common, "validate", "Check the file and the PI_ASK_* variables", _run_validate)
    _add(verbs, common, "edit", "Open the file in $VISUAL or $EDITOR, then check it", _run_edit)
    reset = _add(verbs, common, "reset", "Put every setting back to its default", _run_reset)
    reset.add_argument("--yes", action="store_true", help="Do not ask for confirmation")
    schema = _add(
        verbs, common, "schema", "Print the JSON Schema of the settings file", _run_schema
    )
    schema.add_argument(
        "--write",
        action="store_true",
        help="Write it beside the settings file instead, where its #:schema line points",
    )
    imported = _add(
        verbs, common, "import", "Convert a pi-ask JSON config (eko24ive-pi-ask.json)", _run_import
    )
    imported.add_argument("file", metavar="FILE", help="The JSON config to import")
    imported.add_argument("--force", action="store_true", help="Replace an existing config")


def _add(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser],
    common: argparse.ArgumentParser,
    name: str,
    summary: str,
    run: Handler,
) -> argparse.ArgumentParser:
    parser = verbs.add_parser(name, parents=[common], help=summary, description=summary + ".")
    parser.set_defaults(handler=_guarded(name, run))
    return parser


def _guarded(verb: str, run: Handler) -> Handler:
    """The handler with expected failures turned into one stderr line and status 2."""

    def handler(args: argparse.Namespace) -> int:
        import sys

        from pi_ask.errors import PiAskError

        try:
            return run(args)
        except (PiAskError, OSError) as err:
            print(f"pi-ask config {verb}: {_reason(err)}", file=sys.stderr)
            return 2

    return handler


def _reason(err: Exception) -> str:
    if isinstance(err, OSError) and err.strerror:
        return f"{err.strerror}: {err.filename}" if err.filename else err.strerror
    return str(err)


def _missing_verb(parser: argparse.ArgumentParser) -> int:
    import sys

    from pi_ask.i18n import gettext

    parser.print_usage(sys.stderr)
    verbs = "path, show, validate, edit, reset, schema, import"
    print(
        "pi-ask config: " + gettext("choose a VERB ({verbs})").format(verbs=verbs),
        file=sys.stderr,
    )
    return 2


def _path_of(args: argparse.Namespace) -> Path:
    from pathlib import Path

    from pi_ask.config.paths import config_path

    explicit = getattr(args, "config", None)
    return config_path(Path(explicit) if explicit else None)


def _run_path(args: argparse.Namespace) -> int:
    print(_path_of(args))
    return 0


def _run_show(args: argparse.Namespace) -> int:
    from pi_ask.config.report import effective_toml, evaluate_file

    path = _path_of(args)
    result = evaluate_file(path)
    print(effective_toml(path, result), end="")
    return 0


def _run_validate(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from pi_ask.config.report import evaluate_file, validation_lines
    from pi_ask.terminal_text import sanitize_line

    path = _path_of(args)
    report = evaluate_file(path)
    report = replace(report, problems=report.problems + _apprise_problems(report))
    lines, status = validation_lines(path, report)
    for line in lines:
        # Key names and ids come from the file: shown, never acted on by the terminal.
        print(sanitize_line(line))
    return status


def _apprise_problems(report: FileReport) -> tuple[ConfigProblem, ...]:
    """Ask apprise about each URL channel (python-port.md §10): slow, so only here."""
    from pi_ask.config.problems import ConfigProblem, describe
    from pi_ask.notifications.channels.apprise_channels import describe_apprise_url_problem

    found: list[ConfigProblem] = []
    for channel in report.evaluation.settings.notifications.channels:
        url = channel.get("url") if not isinstance(channel, str) else channel
        if isinstance(url, str) and "://" in url:
            problem = describe_apprise_url_problem(url)
            if problem is not None:
                message = f"{describe(url)}: {problem}; it will fail when used"
                found.append(ConfigProblem("notifications.channels", message, "warning"))
    return tuple(found)


def _run_edit(args: argparse.Namespace) -> int:
    import os
    import shlex
    import shutil
    import subprocess
    import sys

    from pi_ask.config.store import SettingsStore
    from pi_ask.errors import UsageError
    from pi_ask.i18n import gettext

    path = _path_of(args)
    store = SettingsStore(path, create=True)
    if store.file_status == "absent":
        cannot = gettext("cannot create {path}").format(path=path)
        raise UsageError(store.notice.text if store.notice else cannot)
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or shutil.which("vi")
    if not editor:
        raise UsageError(gettext("no editor: set $VISUAL or $EDITOR"))
    try:
        status = subprocess.call([*shlex.split(editor), str(path)])
    except FileNotFoundError as err:
        missing = gettext("cannot run the editor {editor}: not found")
        raise UsageError(missing.format(editor=repr(editor))) from err
    if status != 0:
        exited = gettext("the editor exited with status {status}").format(status=status)
        print(f"pi-ask config edit: {exited}", file=sys.stderr)
        return 1
    return _run_validate(args)


def _run_reset(args: argparse.Namespace) -> int:
    import sys

    from pi_ask.config.reset import backup_names, reset_file
    from pi_ask.errors import UsageError
    from pi_ask.i18n import gettext

    path = _path_of(args)
    if not path.exists() and not path.is_symlink():
        print(f"{path}: " + gettext("no config file; the defaults already apply"))
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError(gettext("no terminal to confirm on; pass --yes to reset"))
        question = gettext(
            "Reset every setting in {path} to its default? Comments and unknown keys are kept."
        )
        # The answer keys stay y / N in every language: they are what is typed.
        sys.stderr.write(question.format(path=path) + " [y/N] ")
        sys.stderr.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            print(gettext("Nothing changed."), file=sys.stderr)
            return 1
    backup = reset_file(path)
    if backup is not None:
        older = [name.name for name in backup_names(path)[1:] if name.is_file()]
        kept = gettext("was not valid TOML; kept it as {backup}").format(backup=backup)
        if older:
            kept += " " + gettext("(earlier copies: {names})").format(names=", ".join(older))
        print(f"{path}: {kept}")
    print(f"{path}: " + gettext("every setting is back to its default"))
    return 0


def _run_schema(args: argparse.Namespace) -> int:
    import json

    from pi_ask.config.model import json_schema

    text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
    if not args.write:
        print(text, end="")
        return 0
    from pi_ask.config.storage import write_atomic
    from pi_ask.config.toml_text import SCHEMA_NAME

    target = _path_of(args).parent / SCHEMA_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, text.encode("utf-8"))
    print(target)
    return 0


def _run_import(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from pi_ask.config.json_import import ImportFailed, import_json
    from pi_ask.config.loading import MAX_CONFIG_BYTES
    from pi_ask.config.report import evaluate_file, validation_lines
    from pi_ask.config.storage import locked, target_of, write_atomic
    from pi_ask.errors import UsageError
    from pi_ask.i18n import gettext
    from pi_ask.regular_files import read_regular
    from pi_ask.terminal_text import sanitize_line

    source = Path(args.file)
    try:
        data = read_regular(source, MAX_CONFIG_BYTES)
    except IsADirectoryError as err:
        folder = gettext("{file} is a folder, not a JSON file").format(file=source)
        raise UsageError(folder) from err
    path = _path_of(args)
    try:
        imported = import_json(data)
    except ImportFailed as err:
        raise UsageError(f"{source}: {err}") from err
    with locked(path) as lock_note:
        if (path.exists() or path.is_symlink()) and not args.force:
            exists = gettext("{path} already exists; pass --force to replace it")
            raise UsageError(exists.format(path=path))
        write_atomic(target_of(path), imported.text.encode("utf-8"))
    if lock_note:
        print(f"note: {lock_note}", file=sys.stderr)
    for note in imported.notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"{path}: " + gettext("imported {file}").format(file=source))
    lines, _status = validation_lines(path, evaluate_file(path), quiet=True)
    for line in lines:
        print(sanitize_line(line), file=sys.stderr)
    return 0
