"""JSON and TOML parsing that a hostile file cannot crash: one way for every reader.

``json`` and ``tomllib`` recurse once per nesting level, so a line such as ``[[[[…]]]]`` a
few hundred levels deep raises ``RecursionError`` — an exception no reader expects, which
escapes as a traceback. Here a nesting limit turns it into ``TooDeep``, a ``ValueError`` like
every other "this is not valid" answer, so a reader that already skips a bad line or reports
a bad file does the same for a deep one. Data within the limit is also safe for whatever
walks it later (pydantic, ``json.dumps``, tomlkit, which refuses more than 100 levels).

The payload loader (``pi_ask.contract.document``) keeps its own, stricter limit of 32.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 100
"""The deepest nesting any reader accepts; the root object or array is level 1."""

_BOM = "\ufeff"


class TooDeep(ValueError):
    """The text nests arrays and objects (or tables) deeper than the limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"nested more than {limit} levels deep")
        self.limit = limit


def load_json(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text, refusing nesting deeper than ``max_depth``.

    Args:
        text: The JSON text; bytes are decoded as ``json.loads`` does (UTF-8/16/32).

    Raises:
        TooDeep: The text nests deeper than ``max_depth``.
        ValueError: Any other reason it is not JSON (``json.JSONDecodeError``,
            ``UnicodeDecodeError``, a number too long to convert).
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(max_depth) from None
    # Only text with at least ``max_depth`` openers can be that deep: counting them is a
    # fast C scan, so ordinary lines never pay for the walk.
    if isinstance(text, bytes):
        openers = text.count(b"[") + text.count(b"{")
    else:
        openers = text.count("[") + text.count("{")
    if openers > max_depth and nested_deeper_than(value, max_depth):
        raise TooDeep(max_depth)
    return value


def load_toml(text: str, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """Parse TOML text (a leading UTF-8 BOM is allowed), refusing deep nesting.

    Raises:
        TooDeep: Arrays, inline tables or tables nest deeper than ``max_depth``.
        ValueError: Any other reason it is not TOML (``tomllib.TOMLDecodeError``, or an
            integer too long to convert, which ``tomllib`` lets through as ``ValueError``).
    """
    import tomllib  # here: the untouched default config file is read without it

    try:
        document = tomllib.loads(text.removeprefix(_BOM))
    except RecursionError:
        raise TooDeep(max_depth) from None
    # Dotted keys nest without brackets, so a TOML document is always walked (config files
    # are small).
    if nested_deeper_than(document, max_depth):
        raise TooDeep(max_depth)
    return document


def nested_deeper_than(value: object, limit: int) -> bool:
    """True when lists and dicts in ``value`` nest more than ``limit`` levels (root = 1).

    The walk is iterative, so it cannot itself run out of stack.
    """
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
