"""The ``pi-ask`` command.

Each subcommand's handler imports what it needs when it runs, so ``pi-ask ask`` pays only
for the face it opens. Areas with several verbs (``config``, ``settings``, ``replay``...) add
their own parsers through a ``register(subparsers)`` function in their ``commands`` module.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

from pi_ask.errors import PiAskError, UsageError

# Not typing's: what this module loads comes before ``main`` pauses the cyclic collector, and
# typing (with re and enum) would be collected over a few times on the way. Type checkers
# read any ``TYPE_CHECKING`` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from pi_ask.contract.results import ToolResult
    from pi_ask.relay.pending import PendingAsk

AREA_COMMANDS = (
    "pi_ask.cli.config",
    "pi_ask.cli.settings",
    "pi_ask.cli.session",
    "pi_ask.cli.mcp",
    "pi_ask.cli.inbox",
    "pi_ask.cli.web",
)
# Kept here, not imported from contract.tool, so building the parser loads no contract code.
TOOL_FORMATS = ("pi", "mcp", "openai", "anthropic")
CONFIG_HELP = "Settings file to use (default: $PI_ASK_CONFIG, else the platform's config folder)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if argv is None and "_ARGCOMPLETE" in os.environ:
        # A shell asks for completions (pi-ask completion): answer and exit.
        from pi_ask.cli.completion import complete

        complete(build_parser())
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] and arguments[0] in _RESULT_COMMANDS:
        # What start-up allocates (modules, classes, the payload) lives for the whole run, so
        # the cyclic collector's ~90 passes over it find nothing and cost the first frame
        # ~8 ms. It is back on once the face opens: at the TUI's first frame, else when the
        # face is picked (api.run_flow) or the ask waits, at the latest when the command
        # returns. Paused first: even the signal latch's imports would be collected over.
        gc.disable()
        from pi_ask.signal_latch import held_signal, hold_ending_signals

        hold_ending_signals()
        try:
            status = _run(arguments)
        finally:
            if argv is None:
                # The command is over and its process ends next: what is alive now lives
                # until then, so the interpreter's shutdown need not search it for cycles
                # (three full collections, ~0.4x a bare ``python -c pass`` after an ask).
                gc.freeze()
            gc.enable()
        held = held_signal()
        status = 128 + held if held is not None and status < 128 else status
        if argv is None:
            _end_now_if_nothing_is_left(status)
        return status
    return _run(arguments)


def _end_now_if_nothing_is_left(status: int) -> None:
    """End the process with ``status`` at once when nothing is left to run at exit.

    The interpreter's teardown (every module's namespace cleared, every object freed) costs
    an ask that answers at once about a third of a bare ``python -c pass``. With no other
    thread alive and no exit handler registered there is nothing for it to do that anyone
    could see: the output is flushed here, and the session log is written unbuffered. When
    anything is left (a thread, an ``atexit`` handler, output that cannot be flushed), the
    process ends the usual way.
    """
    import atexit
    import threading

    if threading.active_count() > 1 or atexit._ncallbacks():
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


# Commands that owe stdout one result line: a signal during their start-up is held for the
# face (pi_ask.signal_latch), and their start-up runs without the cyclic collector. Not
# ``answer``, whose model call may run for a long time.
_RESULT_COMMANDS = frozenset({"ask", "demo", "resume"})


def _run(arguments: list[str]) -> int:
    from pi_ask.cli.ask_line import read_plain_ask

    # ``ask`` is what agents run for every question: its plain lines skip argparse.
    plain = read_plain_ask(arguments[1:]) if arguments[:1] == ["ask"] else None
    args: argparse.Namespace
    handler: Callable[[argparse.Namespace], int] | None
    if plain is not None:
        # The same attributes argparse would set (tests/cli/test_ask_line.py).
        from typing import cast

        args, handler = cast("argparse.Namespace", plain), _run_ask
    else:
        parser = build_parser(arguments[0] if arguments else None)
        args = parser.parse_args(arguments)
        handler = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return 2
    try:
        status: int = handler(args)
    except PiAskError as err:
        print(f"pi-ask: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        import signal

        return 128 + signal.SIGINT
    except BrokenPipeError:
        # The reader of stdout went away; nothing more can be said there.
        return 1
    return status


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``pi-ask`` parser: every command, or only ``command`` when it is a built-in one.

    A command's own parser (its options, its ``--help``, its errors) is the same either way;
    only ``pi-ask --help`` lists the others. Building one takes about 1 ms, building all of
    them about 12 ms (every area's parsers), and ``pi-ask ask`` pays it before its first frame.

    Args:
        command: The first command-line argument, when there is one.
    """
    import argparse
    import importlib
    from typing import cast

    from pi_ask.cli.help import CommandParser, RootParser
    from pi_ask.version import __version__

    parser = RootParser(
        prog="pi-ask",
        description=(
            "Ask the user structured questions in the terminal and print the answers as JSON."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"pi-ask {__version__}",
        help="Show the version and exit",
    )
    subparsers = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=CommandParser),
    )
    add_alone = _BUILT_IN.get(command) if command is not None else None
    if add_alone is not None:
        add_alone(subparsers)
        return parser
    for add in _BUILT_IN.values():
        add(subparsers)
    for module_name in AREA_COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name != module_name:
                raise
            continue
        module.register(subparsers)
    return parser


def _add_ask(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pathlib import Path

    ask = subparsers.add_parser(
        "ask",
        help="Ask the questions of an ask_user payload",
        description=(
            "Open the ask flow on PAYLOAD (a JSON file with the ask_user tool input; - or nothing "
            "reads standard input). The result JSON goes to stdout; the UI draws on the terminal. "
            "Exit status: 0 submitted, 1 cancelled or no UI, 2 invalid payload or bad usage."
        ),
    )
    ask.add_argument(
        "payload",
        nargs="?",
        default="-",
        metavar="PAYLOAD",
        help="JSON file with the ask_user tool input, or - for standard input (default: -)",
    )
    _add_face_options(ask)
    ask.add_argument("--title", help="Replace the payload's title")
    ask.add_argument(
        "--session",
        type=Path,
        metavar="FILE",
        help="Session log to record into (default: this directory's log in $PI_ASK_STATE_DIR)",
    )
    ask.add_argument(
        "--wait",
        action="store_true",
        help="With no terminal and no inbox or tmux to reach, wait for `pi-ask attach`",
    )
    ask.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="End the ask after S seconds with reason timeout (default: no deadline)",
    )
    ask.add_argument(
        "--detach",
        action="store_true",
        help=(
            "Do not wait: keep the ask pending for an inbox, attach or a tmux popup, print "
            '{"id": ..., "status": "pending"} and exit 0; pi-ask result ID fetches the answer'
        ),
    )
    ask.add_argument(
        "--resume",
        action="store_true",
        help="Reopen the newest unfinished ask with its draft answers instead (= pi-ask resume)",
    )
    ask.set_defaults(handler=_run_ask)


def _seconds(text: str) -> float:
    import argparse

    from pi_ask.cli.ask_line import seconds_above_zero

    try:
        float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    value = seconds_above_zero(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _add_demo(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    demo = subparsers.add_parser(
        "demo",
        help="Open the flow on a built-in example",
        description="Open the ask flow on a built-in three-question example and print the result.",
    )
    _add_face_options(demo)
    demo.set_defaults(handler=_run_demo)


def _add_face_options(parser: argparse.ArgumentParser) -> None:
    from pathlib import Path

    from pi_ask.face_table import FACE_HELP, FACE_NAMES, UI_MODES

    parser.add_argument(
        "--ui",
        choices=UI_MODES,
        default="auto",
        help=(
            "Face to open: auto (the TUI, or plain when TERM=dumb, when this process is in the "
            "terminal's foreground; else a running inbox or a tmux popup; else none), "
            + ", ".join(
                f"{name} ({FACE_HELP[name]})" if FACE_HELP[name] else name for name in FACE_NAMES
            )
            + ", none (default: %(default)s)"
        ),
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help=CONFIG_HELP)


def _add_schema(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schema = subparsers.add_parser(
        "schema",
        help="Print the tool's input (or result) JSON Schema",
        description=(
            "Print the JSON Schema of the ask_user input, or with --result of the result "
            "that ask prints (its details are the MCP tool's output schema)."
        ),
    )
    schema.add_argument(
        "--result", action="store_true", help="The result's schema instead of the input's"
    )
    schema.set_defaults(handler=_run_schema)


def _add_tool(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tool = subparsers.add_parser(
        "tool",
        help="Print the tool definition for registering ask_user in an agent",
        description=(
            "Print the ask_user tool definition as JSON, in the shape a host registers tools "
            "in: pi (name, description, prompt snippet, guidelines, schema), an MCP Tool, an "
            "OpenAI function tool or an Anthropic tool."
        ),
    )
    tool.add_argument(
        "--format",
        choices=TOOL_FORMATS,
        default="pi",
        help="Host whose shape to print (default: %(default)s)",
    )
    tool.set_defaults(handler=_run_tool)


def _add_skill(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pathlib import Path

    skill = subparsers.add_parser(
        "skill",
        help="Print the ask-user skill for skill-aware agents, or install it",
        description=(
            "Print the ask-user agent skill (SKILL.md: when to ask, how to call pi-ask ask and "
            "read its result). With --install DIR, write it to DIR/ask-user/SKILL.md."
        ),
    )
    skill.add_argument(
        "--install",
        type=Path,
        metavar="DIR",
        help="Skills folder to write it to, such as ~/.claude/skills or .claude/skills",
    )
    skill.add_argument("--force", action="store_true", help="Replace a different SKILL.md there")
    skill.set_defaults(handler=_run_skill)


def _add_notify(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from pathlib import Path

    notify = subparsers.add_parser(
        "notify",
        help="Send a test notification through the configured channels",
        description=(
            "Send a test notification through every configured channel and report each outcome."
        ),
    )
    # Testing is all the command does, so the flag is optional (kept for older scripts).
    notify.add_argument(
        "--test", action="store_true", help="Send a test notification (the default)"
    )
    notify.add_argument("--config", type=Path, metavar="FILE", help=CONFIG_HELP)
    notify.set_defaults(handler=_run_notify)


def _add_completion(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse

    from pi_ask.cli.completion import INSTALL, SHELLS

    completion = subparsers.add_parser(
        "completion",
        help="Print the shell completion script for bash, zsh or fish",
        description="Print a script that completes pi-ask's commands, options and files.",
        epilog=INSTALL,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    completion.add_argument(
        "shell", choices=SHELLS, metavar="SHELL", help="The shell: bash, zsh or fish"
    )
    completion.set_defaults(handler=_run_completion)


def _run_ask(args: argparse.Namespace) -> int:
    if args.resume:
        if args.payload != "-":
            raise UsageError("ask --resume takes no PAYLOAD: it reopens the newest unfinished ask")
        from pi_ask.cli.session import resume_command

        args.id, args.list = None, False
        return resume_command(args)
    if args.wait and args.ui == "none":
        raise UsageError("ask --wait --ui none: nobody could answer; drop one of them")
    if args.detach and (args.wait or args.ui != "auto"):
        raise UsageError("ask --detach goes with neither --wait nor --ui: nobody waits here")
    if args.detach:
        return _detach(_read_payload(args.payload), args)
    if args.ui == "rpc" and args.payload == "-":
        raise UsageError(
            "ask --ui rpc needs a PAYLOAD file: standard input carries the dialog responses"
        )
    return _ask(_read_payload(args.payload), args)


def _run_demo(args: argparse.Namespace) -> int:
    import json

    from pi_ask.config.store import open_store
    from pi_ask.demo import demo_payload
    from pi_ask.i18n import gettext

    args.title, args.session = None, None
    open_store(args.config)  # its [ui] language says the demo's language too (loaded once)
    return _ask(json.dumps(demo_payload(gettext)), args)


def _ask(source: str | bytes, args: argparse.Namespace) -> int:
    import functools

    from pi_ask.api import ask_with_status

    result, status = ask_with_status(
        source,
        ui=args.ui,
        config=args.config,
        session=args.session,
        title=args.title,
        wait=getattr(args, "wait", False),
        timeout=getattr(args, "timeout", None),
        unknown="stderr",
        rest=functools.partial(_rest_in_waiting_process, ui=args.ui, config=args.config),
    )
    return report_result(result, status, args.ui, args.config)


def report_result(result: ToolResult, status: int, ui: str, config: Path | None = None) -> int:
    """Print ``result`` as ``pi-ask ask --ui UI --config CONFIG`` does (stdout, and a line on
    stderr when it says why); returns ``status``."""
    from pi_ask.terminal_text import result_indent

    _say_invalid(result)
    if result.details.reason == "no_terminal" and ui != "none":
        # --ui none asked for exactly this result: nothing to explain.
        from pi_ask.face_table import TERMINAL_FACES
        from pi_ask.words import NO_TERMINAL_LINE, NO_TERMINAL_REACHED, NO_TERMINAL_TO_DRAW_ON

        # The JSON tells the agent; whoever runs it at a shell reads this one line.
        if ui in TERMINAL_FACES:
            why = NO_TERMINAL_TO_DRAW_ON
        else:
            from pi_ask.config.remembered import asker_settings  # as the ask just read them
            from pi_ask.relay.elsewhere import why_unreached

            tmux = asker_settings(config).tmux
            why = f"{NO_TERMINAL_REACHED} ({why_unreached(tmux)})"
        print(NO_TERMINAL_LINE.format(why=why), file=sys.stderr)
    _print_json(result.to_json(), indent=result_indent(sys.stdout, ui))
    return status


def _rest_in_waiting_process(
    pending: PendingAsk, log: Path | None, *, ui: str, config: Path | None
) -> None:
    """``run_flow``'s ``rest``: this process becomes the small waiting one
    (``cli/waiting.py``) once its ask is published; returns only when it cannot."""
    from pi_ask.cli.waiting import exec_waiting

    server, watch = pending.descriptors()
    if server < 0 or watch < 0 or not sys.platform.startswith("linux"):
        return  # a kqueue or polling watch does not outlive execv: wait in this process
    assert pending.path is not None  # it listens: a socket in the runtime folder
    values = {
        "ask_id": pending.ask_id,
        "asks": os.fspath(pending.asks),
        "runtime": os.fspath(pending.path.parent),  # for the notification's page
        "log": "" if log is None else os.fspath(log),
        "server": str(server),
        "watch": str(watch),
        "deadline_ms": "" if pending.deadline_ms is None else str(pending.deadline_ms),
        "ui": ui,
        "config": "" if config is None else os.fspath(config),
    }
    exec_waiting(values, (server, watch))


def _say_invalid(result: ToolResult) -> None:
    """One readable stderr line for an invalid payload; the JSON on stdout has every issue."""
    issues = result.details.error_issues
    if not issues:
        return
    from pi_ask.terminal_text import sanitize_line

    first = issues[0]
    where = f"{first.path}: " if first.path else ""
    more = f" (+{len(issues) - 1} more in the result)" if len(issues) > 1 else ""
    print(f"pi-ask: invalid payload: {sanitize_line(where + first.message)}{more}", file=sys.stderr)


def _detach(source: str | bytes, args: argparse.Namespace) -> int:
    from pi_ask.api import detach_with_status
    from pi_ask.terminal_text import result_indent

    started, status = detach_with_status(
        source,
        config=args.config,
        session=args.session,
        title=args.title,
        timeout=args.timeout,
        unknown="stderr",
    )
    if not isinstance(started, str):
        _say_invalid(started)
    shown = {"id": started, "status": "pending"} if isinstance(started, str) else started.to_json()
    _print_json(shown, indent=result_indent(sys.stdout, "auto"))
    return status


def _add_result(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    result = subparsers.add_parser(
        "result",
        help="Print the result of a detached ask (pi-ask ask --detach)",
        description=(
            "Print the result JSON of the detached ask ID once it is answered, with the exit "
            'status of pi-ask ask (0 submitted, 1 cancelled); while it is pending, {"id": ..., '
            '"status": "pending"} and exit status 75. An unknown ID is exit status 2.'
        ),
    )
    result.add_argument("id", metavar="ID", help="The ask id pi-ask ask --detach printed")
    result.add_argument(
        "--wait",
        type=_wait_seconds,
        default=0.0,
        metavar="S",
        help="Wait up to S seconds for the answer (default: %(default)s, do not wait)",
    )
    result.set_defaults(handler=_run_result)


def _wait_seconds(text: str) -> float:
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds, 0 or more")
    return value


def _run_result(args: argparse.Namespace) -> int:
    from pi_ask.api import EXIT_PENDING, ask_result, exit_code
    from pi_ask.terminal_text import result_indent

    result = ask_result(args.id, wait_s=args.wait)
    indent = result_indent(sys.stdout, "auto")
    if result is None:
        _print_json({"id": args.id, "status": "pending"}, indent=indent)
        return EXIT_PENDING
    _print_json(result.to_json(), indent=indent)
    return exit_code(result)


# A payload is at most 1 MiB (the contract says so, with its size); past this much a file or a
# stream is not read on, so /dev/zero or a huge file ends in a message, not MemoryError.
MAX_PAYLOAD_READ = 16 * 1024 * 1024


def _read_payload(name: str) -> bytes:
    from pi_ask.regular_files import read_regular, size_text

    if name == "-":
        if sys.stdin.isatty():
            raise UsageError(
                "ask: no PAYLOAD given: pass a JSON file or pipe the payload on standard input"
            )
        data = sys.stdin.buffer.read(MAX_PAYLOAD_READ + 1)
        if len(data) > MAX_PAYLOAD_READ:
            raise UsageError(
                f"ask: the payload on standard input is larger than {size_text(MAX_PAYLOAD_READ)}"
            )
        return data
    try:
        return read_regular(name, MAX_PAYLOAD_READ)
    except FileNotFoundError:
        raise UsageError(f"ask: payload file {name!r} does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"ask: payload {name!r} is a folder, not a JSON file") from None
    except PermissionError:
        raise UsageError(f"ask: payload file {name!r} cannot be read (permission denied)") from None
    except OSError as err:
        raise UsageError(f"ask: payload file {name!r} cannot be read: {err.strerror}") from None


def _run_schema(args: argparse.Namespace) -> int:
    if args.result:
        from pi_ask.contract.result_schema import result_schema

        _print_json(result_schema(), indent=2)
        return 0
    from pi_ask.contract.schema import INPUT_SCHEMA

    _print_json(INPUT_SCHEMA, indent=2)
    return 0


def _run_tool(args: argparse.Namespace) -> int:
    from pi_ask.contract.tool import tool_definition

    _print_json(tool_definition(args.format), indent=2)
    return 0


def _run_completion(args: argparse.Namespace) -> int:
    from pi_ask.cli.completion import shell_script

    sys.stdout.write(shell_script(args.shell))
    return 0


def _run_skill(args: argparse.Namespace) -> int:
    from pi_ask.cli.skill import install_skill, skill_text

    if args.install is None:
        if args.force:
            raise UsageError("skill: --force goes with --install DIR")
        sys.stdout.write(skill_text())
        return 0
    target, written = install_skill(args.install, force=args.force)
    print(f"{target}: {'written' if written else 'already up to date'}")
    return 0


def _run_notify(args: argparse.Namespace) -> int:
    from pi_ask.config.store import open_store
    from pi_ask.notifications.probe import run_test

    settings = open_store(args.config, create=False).snapshot().notifications
    with _terminal_writer() as write:
        lines, status = run_test(
            settings.channels,
            enabled=settings.enabled,
            timeout_s=settings.timeout_s,
            write_terminal=write,
        )
    for line in lines:
        print(line)
    return status


@contextlib.contextmanager
def _terminal_writer() -> Iterator[Callable[[str], None] | None]:
    """A writer to the controlling terminal for the terminal channels; ``None`` without one."""
    try:
        tty = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError:
        yield None
        return

    def write(text: str) -> None:
        tty.write(text)
        tty.flush()

    try:
        yield write
    finally:
        tty.close()


def _print_json(value: object, *, indent: int | None = None) -> None:
    from pi_ask.terminal_text import json_text

    sys.stdout.write(json_text(value, indent=indent) + "\n")
    sys.stdout.flush()


_BUILT_IN: dict[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = {
    "ask": _add_ask,
    "demo": _add_demo,
    "schema": _add_schema,
    "tool": _add_tool,
    "notify": _add_notify,
    "result": _add_result,
    "skill": _add_skill,
    "completion": _add_completion,
}
"""The commands of this module, in ``pi-ask --help`` order."""
