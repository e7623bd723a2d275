"""Where pi-ask keeps its settings file and its state (python-port.md §3).

``platformdirs`` is imported only when no variable names the place, so tests and scripts
that set ``PI_ASK_CONFIG`` / ``PI_ASK_STATE_DIR`` never pay for it.
"""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_ENV = "PI_ASK_CONFIG"
STATE_ENV = "PI_ASK_STATE_DIR"
APP_NAME = "pi-ask"
CONFIG_NAME = "config.toml"


def config_path(explicit: Path | None = None) -> Path:
    """The settings file: ``--config``, else ``$PI_ASK_CONFIG``, else the platform's config dir.

    Args:
        explicit: The ``--config`` value, when given.

    Returns:
        An absolute path (the file need not exist).

    Example:
        >>> config_path(Path("/tmp/x.toml"))
        PosixPath('/tmp/x.toml')
    """
    if explicit is not None:
        return Path(explicit).expanduser().absolute()
    named = os.environ.get(CONFIG_ENV)
    if named:
        return Path(named).expanduser().absolute()
    import platformdirs  # only here: skipped whenever a variable names the file

    return platformdirs.user_config_path(APP_NAME) / CONFIG_NAME


def state_dir() -> Path:
    """The folder for session logs, pending asks and drafts: ``$PI_ASK_STATE_DIR`` or the default.

    The folder is not created here; writers create it when they first need it.
    """
    named = os.environ.get(STATE_ENV)
    if named:
        return Path(named).expanduser().absolute()
    import platformdirs

    return platformdirs.user_state_path(APP_NAME)


def kept_attachments_dir(ask_id: str) -> Path:
    """``<state>/attachments/<ask id>/``: where an ask's attached files are kept once it is
    answered (the id made a safe folder name)."""
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in ask_id).lstrip(".")
    return state_dir() / "attachments" / (name or "ask")


def display_path(path: Path) -> str:
    """``path`` for a message: absolute, with the home folder written ``~``.

    Example:
        >>> display_path(Path.home() / ".config" / "pi-ask" / "config.toml")
        '~/.config/pi-ask/config.toml'
    """
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # elsewhere, or no home folder to compare with
        return str(path)
