"""Keymaps: named actions per context, pi-tui key ids, validation and display labels.

Plain data in, frozen values out; nothing here imports prompt_toolkit. The TUI binds the
result through ``pi_ask.keymaps.ptk_bindings``.
"""

from __future__ import annotations

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
from pi_ask.keymaps.terminal_bytes import terminal_bytes
from pi_ask.keymaps.terminal_keys import is_available, terminal_keys, unavailable_reason
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
    "terminal_bytes",
    "terminal_keys",
    "unavailable_reason",
]
