"""``ConfigProblem`` and ``Notice``: what is wrong with the settings, and the one line shown.

Problems are collected, never raised: loading always ends with usable settings. The flow's
footer and the settings overlay show one ``Notice``; ``pi-ask config validate`` lists every
problem.
"""

import json
from pathlib import Path
from typing import Literal, NamedTuple

Severity = Literal["error", "warning", "unavailable"]
"""``error``: a value was replaced by its default; ``warning``: something was ignored or
adjusted; ``unavailable``: a key id a terminal cannot deliver (kept, not bound)."""

NoticeKind = Literal["error", "warning", "info", "success"]

_MAX_QUOTED = 40
_RANK: dict[str, int] = {"error": 0, "warning": 1, "unavailable": 2}


class ConfigProblem(NamedTuple):
    """One problem of the settings.

    Attributes:
        key: Where: a dotted snake_case key (``behaviour.show_footer_hints``), an environment
            variable, or ``""`` for the whole file.
        message: What is wrong and what happens, without the key.
        severity: See ``Severity``.
    """

    key: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        """The full line: ``behaviour.show_footer_hints: "no" is not true or false; ...``."""
        return f"{self.key}: {self.message}" if self.key else self.message


class Notice(NamedTuple):
    """The one-line message about the settings shown in the flow footer and the overlay.

    Attributes:
        kind: ``error``, ``warning``, ``info`` or ``success`` (picks the colour).
        text: The message.
    """

    kind: NoticeKind
    text: str


def summarize(file_name: str, problems: tuple[ConfigProblem, ...]) -> Notice | None:
    """The notice naming the worst problem and counting the rest, or ``None`` when all is well.

    Args:
        file_name: The config file as the user should find it (``paths.display_path``), put in
            front of the message.
        problems: Every problem found.

    Returns:
        ``~/.config/pi-ask/config.toml: <first problem> (+N more — run pi-ask config
        validate)``, of kind ``error`` when any problem is an error, else ``warning``.
    """
    if not problems:
        return None
    ordered = sorted(problems, key=lambda problem: _RANK[problem.severity])
    first = ordered[0]
    more = len(ordered) - 1
    text = f"{file_name}: {first}"
    if more:
        text += f" (+{more} more — run pi-ask config validate)"
    kind: NoticeKind = "error" if first.severity == "error" else "warning"
    return Notice(kind, text)


def describe(value: object) -> str:
    """A short, inert rendering of a config value for a message (``"no"``, ``42``, ``[1]``)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    else:
        try:
            text = json.dumps(value, ensure_ascii=True, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = type(value).__name__
    if len(text) > _MAX_QUOTED:
        text = text[: _MAX_QUOTED - 1] + "…"
    return text


def save_error(path: Path, err: OSError | ValueError | str) -> str:
    """The save-failure message (behaviour.md §9.5, without pi's ``/reload``)."""
    if isinstance(err, OSError) and err.strerror:
        cause = f"{err.strerror}: {err.filename}" if err.filename else err.strerror
    else:
        cause = str(err)
    return (
        f"Unable to save ask config at {path}. The file may be read-only or managed outside "
        f"pi-ask; edit it manually. {cause}"
    )


def refused_message(path: Path, detail: str) -> str:
    """Why a toggle is refused on a file that is not TOML."""
    return (
        f"Unable to save ask config at {path}: it is not valid TOML ({detail}), so nothing "
        f"was written. Fix the file, or reset the settings (the broken file is kept as "
        f"{path.name}.bak)."
    )
