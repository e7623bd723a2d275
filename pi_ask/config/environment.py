"""The ``PI_ASK_*`` setting variables decoded without pydantic, for the first frame.

pydantic-settings takes ~200 ms to import and build, so ``loading.evaluate`` reads the
variables here first: each must name one setting exactly and hold a value plainly valid for
it, decoded as pydantic-settings decodes it (JSON for lists, its lenient words for
booleans, digits for numbers). Anything else (a misspelled or unknown name, a keymap or a
whole table, a value that is wrong or merely unusual) returns ``None``, and the model reads
the environment instead and words every problem. ``tests/config/test_environment.py`` holds
the two to the same result on every setting.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from pi_ask.config.catalogue import KEYS, Kind, is_setting_env_var, is_valid

# The variable of every setting the fast path decodes (keymaps go through the model).
_BY_VARIABLE = {spec.env_var: spec for spec in KEYS}
# pydantic's words for booleans (its lax mode, case-insensitive).
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
_MAX_DIGITS = 18
_UNDECODED = object()
# Lists and tables: pydantic-settings reads their variables as JSON.
_JSON_KINDS = ("models", "channels", "styles")


def fast_environment(environ: Mapping[str, str]) -> dict[str, object] | None:
    """The values the setting variables of ``environ`` set, by dotted key; ``None`` when any
    of them needs the model (see the module docstring)."""
    values: dict[str, object] = {}
    for name, raw in environ.items():
        if not is_setting_env_var(name):
            continue
        spec = _BY_VARIABLE.get(name.upper())
        if spec is None or spec.key in values:
            return None
        value = decode(spec.kind, raw)
        if value is _UNDECODED or not is_valid(spec.kind, value):
            return None
        values[spec.key] = value
    return values


def decode(kind: Kind, raw: str) -> object:
    """``raw`` as the value of a ``kind`` setting, or ``_UNDECODED`` when it is not plain."""
    if kind == "bool":
        word = raw.lower()
        return True if word in _TRUE else False if word in _FALSE else _UNDECODED
    if kind in (
        "schema_version",
        "milliseconds",
        "retries",
        "reminders",
        "port",
        "human_ms",
        "files",
        "megabytes",
    ):
        return int(raw) if _is_digits(raw) else _UNDECODED
    if kind in ("seconds", "interval", "deadline"):
        whole, point, fraction = raw.partition(".")
        plain = _is_digits(whole) and (not point or _is_digits(fraction))
        return float(raw) if plain else _UNDECODED
    if kind in _JSON_KINDS:
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return _UNDECODED
    return raw  # a choice (extractor, theme, ...); any other kind then fails ``is_valid``


def _is_digits(text: str) -> bool:
    """ASCII digits only (``int`` alone would take ``+1``, `` 1``, ``1_000``, ``١``)."""
    return 0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()
