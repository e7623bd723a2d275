"""TOML text we write ourselves: literals, and the commented default file.

The default file is the settings' first documentation (like pgcli's ``pgclirc``): every key
with its default value and a one-line comment. It is generated from ``keys.KEYS`` and
``pi_ask.keymaps.CONTEXTS``, so it always lists every setting.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import cast

from pi_ask.config.catalogue import KEYS, SECTIONS
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.terminal_text import json_text

SCHEMA_NAME = "config.schema.json"
"""The settings' JSON Schema, written beside the file by ``pi-ask config schema --write``."""

_HEADER = f"""\
#:schema ./{SCHEMA_NAME}
# pi-ask settings. Every key is optional: a key you delete takes its default.
# Saved changes reach an open ask at once. `pi-ask config show` prints the effective
# settings and where each came from; `pi-ask config validate` checks this file.
# camelCase spellings of the keys (showFooterHints, noteEditor, ...) are also accepted.
# The #:schema line lets taplo / Even Better TOML check and complete this file once
# `pi-ask config schema --write` has put {SCHEMA_NAME} beside it.
"""

_KEYMAPS_HEADER = """\
# Keymaps: one key id or a list of aliases per action, e.g. "ctrl+k" or ["tab", "right"].
# Key ids: ctrl/shift/alt/super + a letter, digit, symbol, f1-f12, esc, enter, tab, space,
# backspace, delete, insert, home, end, pageUp, pageDown, up, down, left, right.
# 1-9 are reserved; a key of [keymaps.global] may not be reused in main or the editors.
"""


def literal(value: object) -> str:
    """A TOML literal for a plain value (inline tables and arrays on one line).

    Example:
        >>> literal([{"provider": "openai", "id": "gpt"}])
        '[{ provider = "openai", id = "gpt" }]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if not math.isfinite(value):
            return "inf" if value > 0 else "-inf"
        return str(int(value)) if _written_as_integer(value) else repr(value)
    if isinstance(value, str):
        return _basic_string(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{bare_key(str(k))} = {literal(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    raise TypeError(f"{type(value).__name__} cannot be written as TOML")


def _written_as_integer(value: float) -> bool:
    """5.0 is written 5, as a person writes it (the settings read either the same way)."""
    return value.is_integer() and abs(value) < 2**53


def bare_key(name: str) -> str:
    """``name`` as a TOML key: bare when it can be, quoted otherwise."""
    if name and all(char.isascii() and (char.isalnum() or char in "_-") for char in name):
        return name
    return _basic_string(name)


def _basic_string(text: str) -> str:
    """``text`` as a TOML basic string that is also inert on a terminal.

    JSON escapes every control TOML forbids in a basic string except DEL; ``json_text`` adds
    DEL, the C1 controls and the bidi marks (``config show`` prints these literals).
    """
    return json_text(text)


@cache
def default_text() -> str:
    """The commented default config file."""
    lines = [_HEADER]
    for section in ("", *SECTIONS):
        if section == "keymaps":
            lines.append(_keymaps_text())
            continue
        if section:
            lines.append(f"[{section}]")
        for spec in KEYS:
            if spec.section == section:
                lines.extend(f"# {line}" for line in spec.comment.splitlines())
                lines.append(f"{spec.name} = {literal(spec.default)}")
        lines.append("")
    return "\n".join(lines)


def default_document() -> dict[str, object]:
    """The table ``tomllib`` reads from ``default_text()``, built without parsing it.

    A file that is still the default text is read through this, so the untouched file
    pi-ask writes on first use costs the start no TOML parser (``tests/config`` checks the
    two agree).
    """
    document: dict[str, object] = {}
    for spec in KEYS:
        table = document
        for part in filter(None, spec.section.split(".")):
            table = cast(dict[str, object], table.setdefault(part, {}))
        table[spec.name] = _as_read(spec.default)
    document["keymaps"] = {
        context.name: {action.name: list(action.default_keys) for action in context.actions}
        for context in CONTEXTS
    }
    return document


def _as_read(value: object) -> object:
    """``value`` as TOML gives back what ``literal`` wrote for it."""
    if isinstance(value, float) and _written_as_integer(value):
        return int(value)
    if isinstance(value, Mapping):
        return {str(key): _as_read(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_read(item) for item in value]
    return value


def _keymaps_text() -> str:
    lines = [_KEYMAPS_HEADER.rstrip("\n")]
    for context in CONTEXTS:
        lines.append(f"[keymaps.{context.name}]")
        for action in context.actions:
            lines.append(f"# {action.description}")
            lines.append(f"{action.name} = {literal(list(action.default_keys))}")
        lines.append("")
    return "\n".join(lines)
