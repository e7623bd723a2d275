"""The payload as a JSON document: reading text within limits, and checking decoded data.

Problems found here concern the whole payload, so their issues have the path ``""``
(python-port.md §10): text over 1 MiB, text that is not UTF-8 or not JSON, nesting deeper than
32 levels, or data that JSON cannot carry (from Python callers: tuples, NaN, non-string keys,
lone surrogates). Passing these checks guarantees the arguments can be stored and printed as
JSON again, which the session log and the result on stdout rely on.
"""

from __future__ import annotations

import json
import math

from pi_ask.contract.kinds import Issue

MAX_PAYLOAD_BYTES = 1024 * 1024
MAX_PAYLOAD_DEPTH = 32
TOO_DEEP = f"payload is nested too deeply; the limit is {MAX_PAYLOAD_DEPTH} levels"

_Path = tuple[str | int, ...]


class _Unreadable(Exception):
    """Raised by the decoder hooks to stop ``json.loads`` with our own message."""


def _refuse_constant(name: str) -> object:
    raise _Unreadable(f"payload is not valid JSON: {name} is not a JSON value")


def _read_int(digits: str) -> int:
    try:
        return int(digits)
    except ValueError as err:  # Python refuses to convert very long digit strings.
        raise _Unreadable(
            f"payload is not valid JSON: a number with {len(digits)} digits is too long"
        ) from err


def _read_float(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise _Unreadable(f"payload is not valid JSON: the number {text[:40]} is out of range")
    return number


def decode_document(source: str | bytes) -> object:
    """Read JSON text into data, within the size limit.

    Args:
        source: The text; bytes are read as UTF-8 (a leading BOM is allowed).

    Returns:
        The decoded data, or an ``Issue`` (path ``""``) saying why the text cannot be read.
        JSON data never contains an ``Issue``, so ``isinstance`` tells the two apart.
    """
    raw = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_PAYLOAD_BYTES:
        return Issue(
            "",
            f"payload is too large: {len(raw)} bytes; "
            f"the limit is 1 MiB ({MAX_PAYLOAD_BYTES} bytes)",
        )
    if isinstance(source, bytes):
        try:
            # A leading BOM is dropped (not by the utf-8-sig codec: a module more to import).
            source = source.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as err:
            return Issue("", f"payload is not valid UTF-8: byte {err.start} cannot be decoded")
    try:
        return json.loads(
            source, parse_constant=_refuse_constant, parse_int=_read_int, parse_float=_read_float
        )
    except _Unreadable as err:
        return Issue("", str(err))
    except json.JSONDecodeError as err:
        return Issue(
            "", f"payload is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})"
        )
    except RecursionError:
        return Issue("", TOO_DEEP)


def _where(path: _Path) -> str:
    if not path:
        return "the payload"
    text = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path)
    return text.removeprefix(".")


def _has_lone_surrogate(text: str) -> bool:
    """True when ``text`` holds a surrogate: json.loads joins valid pairs, so one left is
    lone, and UTF-8 cannot encode it (cheaper than a regex over a 1 MiB preview)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _scalar_problem(value: object, path: _Path) -> str | None:
    """Why a non-container value cannot be JSON data, or ``None`` when it can."""
    if value is None or isinstance(value, (bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{_where(path)} is {value!r}, not a JSON number"
    if isinstance(value, str):
        if _has_lone_surrogate(value):
            return f"{_where(path)} holds a lone surrogate, which is not valid Unicode"
        return None
    return f"{_where(path)} is a Python {type(value).__name__}, which JSON cannot hold"


def _key_problem(key: object, path: _Path) -> str | None:
    if not isinstance(key, str):
        return f"{_where(path)} has a key {key!r} that is not a string"
    if _has_lone_surrogate(key):
        return f"{_where(path)} has a key with a lone surrogate, which is not valid Unicode"
    return None


def check_document(value: object) -> Issue | None:
    """Check decoded arguments for what JSON text cannot carry, and for excessive nesting.

    Containers are arrays (``list``) and objects (``dict`` with string keys); the root counts as
    level 1. The walk is iterative and revisits a shared container only when it is reached
    deeper than before, so cyclic or heavily shared Python data cannot make it blow up.

    Args:
        value: Decoded arguments, from ``decode_document`` or a Python caller.

    Returns:
        The first problem in document order as an ``Issue`` with path ``""``, or ``None``.
    """
    deepest: dict[int, int] = {}
    stack: list[tuple[object, _Path]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, (dict, list)):
            problem = _scalar_problem(node, path)
            if problem is not None:
                return Issue("", f"payload must be JSON data: {problem}")
            continue
        depth = len(path) + 1
        if depth > MAX_PAYLOAD_DEPTH:
            return Issue("", TOO_DEEP)
        if deepest.get(id(node), 0) >= depth:
            continue
        deepest[id(node)] = depth
        children: list[tuple[object, _Path]] = []
        if isinstance(node, dict):
            for key, child in node.items():
                problem = _key_problem(key, path)
                if problem is not None:
                    return Issue("", f"payload must be JSON data: {problem}")
                children.append((child, (*path, key)))
        else:
            children = [(child, (*path, index)) for index, child in enumerate(node)]
        stack.extend(reversed(children))
    return None
