"""The flat keymaps of reference config schema 3 and older (behaviour.md §8.7).

A flat document such as ``{"cancel": "q", "confirm": "ctrl+k"}`` names a handful of
actions without contexts; each field stands for the same action in every context that has
one. Everything it does not name keeps its default.
"""

from __future__ import annotations

from collections.abc import Mapping

from pi_ask.keymaps.contexts import CONTEXTS

LEGACY_TARGETS: dict[str, tuple[tuple[str, str], ...]] = {
    "dismiss": (("global", "dismiss"),),
    "confirm": (("main", "confirm"), ("editor", "submit"), ("note_editor", "save")),
    "cancel": (("main", "cancel"), ("editor", "close"), ("note_editor", "close")),
    "toggle": (("main", "toggle"),),
    "option_note": (("main", "option_note"),),
    "question_note": (("main", "question_note"),),
}
"""Each legacy field (snake_case) and the ``(context, action)`` pairs it sets."""

LEGACY_ALIASES: dict[str, str] = {"optionNote": "option_note", "questionNote": "question_note"}
"""The reference's camelCase legacy field names."""

_CONTEXT_NAMES = frozenset(name for spec in CONTEXTS for name in (spec.name, spec.alias))


def legacy_field(name: str) -> str | None:
    """The snake_case legacy field that ``name`` spells, or ``None``."""
    field = LEGACY_ALIASES.get(name, name)
    return field if field in LEGACY_TARGETS else None


def is_legacy_keymaps(document: Mapping[str, object]) -> bool:
    """True when a keymaps table is the flat legacy shape.

    It is when it names no context at all but at least one legacy field; an empty table is
    simply "all defaults", not legacy.
    """
    names = {str(key) for key in document}
    if names & _CONTEXT_NAMES:
        return False
    return any(legacy_field(name) is not None for name in names)


def convert_legacy_keymaps(document: Mapping[str, object]) -> dict[str, dict[str, str]]:
    """Convert a flat legacy keymaps table to per-context tables (snake_case names).

    Fields that are not strings, and unknown fields, are left out, so those actions keep
    their defaults. The key ids are copied as written; validation parses them.

    Example:
        >>> convert_legacy_keymaps({"cancel": "q", "dismiss": "ctrl+d"})
        {'global': {'dismiss': 'ctrl+d'}, 'main': {'cancel': 'q'}, 'editor': {'close': 'q'}, \
'note_editor': {'close': 'q'}}
    """
    converted: dict[str, dict[str, str]] = {}
    for name, value in document.items():
        field = legacy_field(str(name))
        if field is None or not isinstance(value, str):
            continue
        for context, action in LEGACY_TARGETS[field]:
            converted.setdefault(context, {})[action] = value
    order: list[str] = [spec.name for spec in CONTEXTS]
    return dict(sorted(converted.items(), key=lambda item: order.index(item[0])))
