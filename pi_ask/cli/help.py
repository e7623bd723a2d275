"""How ``pi-ask --help`` reads: the parser class every command uses, and the top-level epilog.

The voice, kept by tests/cli/test_help.py for every command, built-in or added by an area:

- a command's or option's ``help`` starts with a capital letter and has no trailing period
  (``"Settings file to use"``), every positional argument has one;
- a ``description`` is whole sentences, ending with a period;
- an option whose default is not ``None`` / ``False`` shows it (``"(default: %(default)s)"``).

Commands get this class without asking: ``add_subparsers`` builds sub-parsers of the class of
the parser it is called on, so an area's ``subparsers.add_parser(...)`` is a ``CommandParser``.
"""

from __future__ import annotations

import argparse
from typing import Any

HELP_HELP = "Show this help and exit"
EXAMPLES = (
    ("pi-ask demo", "Try the flow on a built-in example"),
    ("pi-ask ask questions.json > answer.json", "Ask; the result JSON goes to the file"),
    ("echo '{\"questions\": [...]}' | pi-ask ask", "Read the payload on standard input"),
    ("pi-ask tool --format openai", "The tool definition for an OpenAI tool loop"),
    ("pi-ask skill --install ~/.claude/skills", "Teach a skill-aware agent to use pi-ask"),
    ("pi-ask resume --list", "List the asks nobody answered yet"),
    ("pi-ask inbox", "Answer here the asks of agents that have no terminal"),
)


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own ``-h, --help`` speaks in the house voice."""

    def __init__(self, *, add_help: bool = True, **kwargs: Any) -> None:
        super().__init__(add_help=False, **kwargs)
        if add_help:
            self.add_argument("-h", "--help", action="help", help=HELP_HELP)


class RootParser(CommandParser):
    """The ``pi-ask`` parser: its epilog names the real paths, worked out only for ``--help``."""

    def format_help(self) -> str:
        self.epilog = root_epilog()
        return super().format_help()


def root_epilog() -> str:
    """EXAMPLES, ENVIRONMENT and FILES for ``pi-ask --help``, with this machine's paths."""
    from pi_ask.config.paths import CONFIG_ENV, STATE_ENV, config_path, state_dir
    from pi_ask.relay.paths import RUNTIME_ENV

    width = max(len(command) for command, _ in EXAMPLES)
    return "\n".join(
        [
            "EXAMPLES",
            *(f"  {command:<{width}}  {what}" for command, what in EXAMPLES),
            "",
            "ENVIRONMENT",
            f"  {CONFIG_ENV:<19} Settings file to use instead of the default one",
            f"  {STATE_ENV:<19} Folder for session logs and drafts",
            f"  {RUNTIME_ENV:<19} Private folder for pending asks and inbox sockets",
            f"  {'NO_COLOR':<19} When set (to anything), draw without colour",
            "",
            "FILES",
            f"  {config_path()}",
            "      Settings (pi-ask config show; pi-ask config path prints it)",
            f"  {state_dir() / 'sessions'}/",
            "      One log per working directory, read by replay and resume",
            "",
            "Run pi-ask COMMAND --help for a command's options.",
        ]
    )
