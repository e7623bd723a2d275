"""Keymaps: named actions per context, pi-tui key ids, validation and display labels.

Plain data in, frozen values out; nothing here imports prompt_toolkit. The TUI binds the
result through ``pi_ask.keymaps.ptk_bindings``. The names load on first use: a start with
the default keymaps never loads the validation, and the first frame not the terminal tables
(``terminal_keys``, ``terminal_bytes``: import the function from its module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

if TYPE_CHECKING:
    from pi_ask.keymaps.contexts import (
        CONTEXTS,
        FIXED_SHORTCUTS,
        GLOBAL_SHARERS,
        RESERVED_KEYS,
        Action,
        ActionSpec,
        Context,
        ContextSpec,
        FixedShortcut,
        context_spec,
    )
    from pi_ask.keymaps.key_ids import KeyIdError, key_label, keys_label, parse_key_id
    from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, ActionBinding, Keymaps
    from pi_ask.keymaps.legacy import convert_legacy_keymaps, is_legacy_keymaps
    from pi_ask.keymaps.problems import KeymapProblem, Severity
    from pi_ask.keymaps.terminal_keys import is_available, unavailable_reason
    from pi_ask.keymaps.validation import KeymapResolution, resolve_keymaps

__all__ = [
    "CONTEXTS",
    "DEFAULT_KEYMAPS",
    "FIXED_SHORTCUTS",
    "GLOBAL_SHARERS",
    "RESERVED_KEYS",
    "Action",
    "ActionBinding",
    "ActionSpec",
    "Context",
    "ContextSpec",
    "FixedShortcut",
    "KeyIdError",
    "KeymapProblem",
    "KeymapResolution",
    "Keymaps",
    "Severity",
    "context_spec",
    "convert_legacy_keymaps",
    "is_available",
    "is_legacy_keymaps",
    "key_label",
    "keys_label",
    "parse_key_id",
    "resolve_keymaps",
    "unavailable_reason",
]

_HOMES = {
    "CONTEXTS": "pi_ask.keymaps.contexts",
    "FIXED_SHORTCUTS": "pi_ask.keymaps.contexts",
    "GLOBAL_SHARERS": "pi_ask.keymaps.contexts",
    "RESERVED_KEYS": "pi_ask.keymaps.contexts",
    "Action": "pi_ask.keymaps.contexts",
    "ActionSpec": "pi_ask.keymaps.contexts",
    "Context": "pi_ask.keymaps.contexts",
    "ContextSpec": "pi_ask.keymaps.contexts",
    "FixedShortcut": "pi_ask.keymaps.contexts",
    "context_spec": "pi_ask.keymaps.contexts",
    "KeyIdError": "pi_ask.keymaps.key_ids",
    "key_label": "pi_ask.keymaps.key_ids",
    "keys_label": "pi_ask.keymaps.key_ids",
    "parse_key_id": "pi_ask.keymaps.key_ids",
    "DEFAULT_KEYMAPS": "pi_ask.keymaps.keymap",
    "ActionBinding": "pi_ask.keymaps.keymap",
    "Keymaps": "pi_ask.keymaps.keymap",
    "convert_legacy_keymaps": "pi_ask.keymaps.legacy",
    "is_legacy_keymaps": "pi_ask.keymaps.legacy",
    "KeymapProblem": "pi_ask.keymaps.problems",
    "Severity": "pi_ask.keymaps.problems",
    "is_available": "pi_ask.keymaps.terminal_keys",
    "unavailable_reason": "pi_ask.keymaps.terminal_keys",
    "KeymapResolution": "pi_ask.keymaps.validation",
    "resolve_keymaps": "pi_ask.keymaps.validation",
}


__getattr__ = lazy_names(__name__, _HOMES)
