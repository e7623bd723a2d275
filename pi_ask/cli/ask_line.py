"""``pi-ask ask``'s options read without argparse, when the line is a plain one.

An agent runs ``pi-ask ask`` for every question it asks, so its start is a budget of its own
(python-port.md §8: the ``no_terminal`` answer within 3.5x ``python -c pass``). Building the
argparse parser and parsing with it loads argparse, ``shutil`` (with ``bz2`` and ``lzma``),
``gettext`` and ``locale``: about a third of ``python -c pass`` again. A line made only of
``ask``'s own options, each spelled in full with a value argparse would take, is read here;
anything else (``--help``, an abbreviation, ``--``, an unknown option, a bad value, a second
payload) returns ``None`` and goes to argparse, which keeps every message and all the help.
``tests/cli/test_ask_line.py`` checks that both read every plain line alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

from pi_ask.face_table import UI_MODES

FLAGS = ("--wait", "--detach", "--resume")
"""``ask``'s options without a value (``store_true``)."""
VALUED = ("--ui", "--config", "--title", "--session", "--timeout")
"""``ask``'s options with one value (``--ui tui`` or ``--ui=tui``)."""


def read_plain_ask(words: Sequence[str]) -> SimpleNamespace | None:
    """``ask``'s arguments (what follows ``ask``) as argparse would read them, or ``None``
    when argparse must read them (help, errors, any spelling but the plain one).

    The namespace has argparse's attribute names and defaults: ``payload`` (``-``), ``ui``
    (``auto``), ``config``, ``title``, ``session``, ``timeout`` (``None``), ``wait``,
    ``detach`` and ``resume`` (``False``).
    """
    from pathlib import Path

    found: dict[str, object] = {
        "payload": "-",
        "ui": "auto",
        "config": None,
        "title": None,
        "session": None,
        "timeout": None,
        "wait": False,
        "detach": False,
        "resume": False,
    }
    payload_given = False
    rest = iter(words)
    for word in rest:
        if word in FLAGS:
            found[word[2:]] = True
            continue
        name, equals, value = word.partition("=")
        if name in VALUED:
            if not equals:
                following = next(rest, None)
                # argparse reads some words that start with "-" as values, not all: its call.
                if following is None or following.startswith("-"):
                    return None
                value = following
            read = _value(name, value)
            if read is None:
                return None
            found[name[2:]] = read
            continue
        if (word.startswith("-") and word != "-") or payload_given:
            return None
        found["payload"], payload_given = word, True
    for name in ("config", "session"):
        if found[name] is not None:
            found[name] = Path(str(found[name]))
    return SimpleNamespace(**found)


def _value(option: str, text: str) -> object | None:
    """An option's value as argparse would store it (before ``Path``), ``None`` when not valid."""
    if option == "--ui":
        return text if text in UI_MODES else None
    if option == "--timeout":
        return seconds_above_zero(text)
    return text


def seconds_above_zero(text: str) -> float | None:
    """``--timeout``'s value: a finite number of seconds above 0, else ``None``."""
    import math

    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None
