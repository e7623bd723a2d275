"""``pi-ask settings``: the subcommand this face adds to the command line."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pi-ask settings`` to the command line."""
    parser = subparsers.add_parser(
        "settings",
        help="Toggle pi-ask settings in a small terminal overlay",
        description=(
            "Open the settings overlay: toggle behaviour and notification settings (saved "
            "at once) or reset everything to the defaults. Needs a terminal."
        ),
    )
    parser.add_argument("--config", metavar="FILE", help="Settings file to use")
    parser.set_defaults(handler=run_settings_command)


def run_settings_command(args: argparse.Namespace) -> int:
    """Run ``pi-ask settings``: 0 when closed, 2 when there is no terminal."""
    import sys
    from pathlib import Path

    from pi_ask.config.store import open_store
    from pi_ask.faces.tui.settings_app import run_settings

    store = open_store(Path(args.config) if args.config else None)
    try:
        return run_settings(store)
    except OSError as err:
        from pi_ask.i18n import gettext

        why = gettext("needs a terminal to draw on ({why}); edit {path} instead")
        print(
            "pi-ask settings: " + why.format(why=err.strerror or err, path=store.path),
            file=sys.stderr,
        )
        return 2
