"""``KeymapProblem``: one finding of keymap validation; the log that gathers them; and how
values are quoted in messages."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning", "unavailable"]
"""``error``: the keymaps are wrong (the settings store falls back to the defaults);
``warning``: something was ignored or adjusted; ``unavailable``: a valid key id that a
terminal cannot deliver, kept in the file but not bound."""

_MAX_QUOTED = 40
# Bidi controls could reorder the surrounding message on screen: show them as code points.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class KeymapProblem:
    """One problem found in a keymaps document.

    Attributes:
        path: Where it is, in config terms: ``keymaps.main.confirm``, ``keymaps.main`` or
            ``keymaps``.
        key: The key id concerned (canonical when it parsed, else as written), or ``None``.
        message: What is wrong and what happens, without the path
            (``"enter" is also bound to keymaps.main.toggle``).
        severity: See ``Severity``.
    """

    path: str
    key: str | None
    message: str
    severity: Severity

    def __str__(self) -> str:
        """The full line for users: ``keymaps.main.confirm: "enter" is also bound to ...``."""
        return f"{self.path}: {self.message}"


@dataclass(slots=True)
class ProblemLog:
    """Problems gathered while one keymaps document is resolved, and where actions were read."""

    root: str
    problems: list[KeymapProblem] = field(default_factory=list)
    # (context, action) -> path as written in the file, for the actions it configures.
    written: dict[tuple[str, str], str] = field(default_factory=dict)

    def path_of(self, context: str, action: str) -> str:
        """The action's path as the file spells it, else in snake_case."""
        return self.written.get((context, action), f"{self.root}.{context}.{action}")

    def is_configured(self, context: str, action: str) -> bool:
        """True when the document sets the action (rather than leaving its default)."""
        return (context, action) in self.written

    def add(self, path: str, key: str | None, message: str, severity: Severity = "error") -> None:
        self.problems.append(KeymapProblem(path, key, message, severity))


def quote(text: str) -> str:
    """A string as a double-quoted, escaped, truncated literal for a message."""
    if len(text) > _MAX_QUOTED:
        text = text[: _MAX_QUOTED - 1] + "…"
    return _BIDI.sub(_code_point, json.dumps(text, ensure_ascii=False))


def clean(text: str) -> str:
    """Text for a message with control and bidi characters escaped, truncated."""
    return quote(text)[1:-1]


def describe(value: object) -> str:
    """A short, safe rendering of any config value (``42``, ``true``, ``"x"``, ``[1, 2]``)."""
    if isinstance(value, str):
        return quote(value)
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    if len(text) > _MAX_QUOTED:
        text = text[: _MAX_QUOTED - 1] + "…"
    return _BIDI.sub(_code_point, text)


def _code_point(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"
