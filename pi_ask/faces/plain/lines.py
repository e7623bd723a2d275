"""What a typed line means in the plain face (python-port.md §11), before any state is seen.

A line is one of: a ``/`` command (``/note 2 text``), a list of numbers (``2``, ``1,3``,
``1 3``), empty, or text — the custom answer. A leading ``\\`` makes the rest text whatever
it looks like (``\\/usr/bin`` is the text ``/usr/bin``, ``\\42`` the text ``42``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBERS = re.compile(r"\s*\d+(?:\s*[,\s]\s*\d+)*\s*")
_SPLIT = re.compile(r"[,\s]+")

COMMANDS = (
    "note",
    "qnote",
    "attach",
    "detach",
    "back",
    "review",
    "skip",
    "type",
    "preview",
    "cancel",
    "help",
)
"""Every ``/`` command, in the order ``/help`` lists them."""


@dataclass(frozen=True, slots=True)
class Numbers:
    """Row numbers, in the order typed, each once."""

    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Text:
    """Anything else: the custom answer (kept as typed; the engine trims on save)."""

    text: str


@dataclass(frozen=True, slots=True)
class Empty:
    """A blank line: keep the answer and move on."""


@dataclass(frozen=True, slots=True)
class Slash:
    """A ``/`` command: its name (lower case) and the rest of the line, trimmed."""

    name: str
    rest: str = ""


@dataclass(frozen=True, slots=True)
class Unknown:
    """A ``/`` word that is no command."""

    word: str


Typed = Numbers | Text | Empty | Slash | Unknown


def parse_line(line: str) -> Typed:
    """What ``line`` (without its line ending) asks for.

    Example:
        >>> parse_line("1, 3")
        Numbers(values=(1, 3))
        >>> parse_line("/note 2 too slow")
        Slash(name='note', rest='2 too slow')
        >>> parse_line("\\\\/etc")
        Text(text='/etc')
    """
    if line.startswith("\\"):
        return Text(line[1:])
    stripped = line.strip()
    if not stripped:
        return Empty()
    if stripped.startswith("/"):
        word, _, rest = stripped[1:].partition(" ")
        name = word.lower()
        if name in COMMANDS:
            return Slash(name, rest.strip())
        return Unknown(stripped.split(" ", 1)[0])
    if _NUMBERS.fullmatch(stripped):
        numbers = (int(part) for part in _SPLIT.split(stripped.strip(" ,")) if part)
        return Numbers(tuple(dict.fromkeys(numbers)))
    return Text(line)


def split_number(rest: str) -> tuple[int | None, str]:
    """``"2 some text"`` → ``(2, "some text")``; no leading number → ``(None, rest)``."""
    head, _, tail = rest.partition(" ")
    if head.isdigit():
        return int(head), tail.strip()
    return None, rest
