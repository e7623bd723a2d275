"""Resolved keymaps as prompt_toolkit key bindings: the only keymaps module importing it.

One factory per context, as prompt_toolkit's own ``load_*_bindings`` are; the TUI merges
them with its filters (global is active together with main, editor and note_editor)::

    bindings = load_context_bindings(
        lambda: store.keymaps, "main", {"confirm": lambda event: flow.dispatch(Confirm())},
        filter=in_main,
    )

Bindings are rebuilt when ``get_keymaps()`` returns a different keymaps value, so a live
config reload rebinds every key without restarting the application.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from prompt_toolkit.filters import FilterOrBool, to_filter
from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.key_binding import DynamicKeyBindings, KeyBindings, KeyBindingsBase
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys

from pi_ask.keymaps.contexts import Context, ContextSpec, context_spec
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.keymaps.terminal_bytes import terminal_bytes
from pi_ask.keymaps.terminal_keys import terminal_keys

ActionHandler = Callable[[KeyPressEvent], object]
"""What runs when an action's key is pressed. As in prompt_toolkit, returning
``NotImplemented`` skips the redraw and a returned coroutine runs as a background task."""

_KEY_VALUES = frozenset(key.value for key in Keys)
_NAVIGATION_IDS = tuple(
    f"{modifiers}{base}"
    for base in (
        *("up", "down", "left", "right"),
        *("home", "end", "insert", "delete", "pageUp", "pageDown"),
    )
    for modifiers in (
        "shift+",
        "alt+",
        "shift+alt+",
        "ctrl+",
        "ctrl+shift+",
        "ctrl+alt+",
        "ctrl+shift+alt+",
    )
)


def to_ptk_keys(key_id: str) -> tuple[Keys | str, ...] | None:
    """The prompt_toolkit keys that a canonical key id binds.

    Args:
        key_id: A canonical key id (``parse_key_id`` output).

    Returns:
        The key sequence for ``KeyBindings.add`` (``("N",)`` for ``shift+n``,
        ``(Keys.Escape, "x")`` for ``alt+x``), or ``None`` when a terminal cannot deliver it.
    """
    names = terminal_keys(key_id)
    if names is None:
        return None
    names = _decoded_as().get(names, names)
    return tuple(Keys(name) if name in _KEY_VALUES else name for name in names)


def build_context_bindings(
    keymaps: Keymaps,
    context: Context,
    handlers: Mapping[str, ActionHandler],
    *,
    filter: FilterOrBool = True,
    when_empty: FilterOrBool = True,
    eager: FilterOrBool = False,
) -> KeyBindings:
    """Key bindings for one context of a fixed keymaps value.

    Args:
        keymaps: The resolved keymaps.
        context: The context whose actions to bind.
        handlers: A handler per action name (snake_case); actions without one stay unbound.
        filter: When the context is active.
        when_empty: Extra condition for the ``*_when_empty`` actions: the editor is empty.
        eager: Passed to every binding (fire without waiting for a longer sequence).

    Raises:
        KeyError: A handler names an action the context does not have.
    """
    spec = _checked_spec(context, handlers)
    active = to_filter(filter)
    empty_only = active & to_filter(when_empty)
    bindings = KeyBindings()
    for action in spec.actions:
        handler = handlers.get(action.name)
        if handler is None:
            continue
        sequences: list[tuple[Keys | str, ...]] = []
        for key_id in keymaps.keys(context, action.name):
            keys = to_ptk_keys(key_id)
            if keys is not None and keys not in sequences:
                sequences.append(keys)
        for keys in sequences:
            bindings.add(*keys, filter=empty_only if action.when_empty else active, eager=eager)(
                handler
            )
    return bindings


def load_context_bindings(
    get_keymaps: Callable[[], Keymaps],
    context: Context,
    handlers: Mapping[str, ActionHandler],
    *,
    filter: FilterOrBool = True,
    when_empty: FilterOrBool = True,
    eager: FilterOrBool = False,
) -> KeyBindingsBase:
    """Key bindings for one context that follow the live keymaps.

    Args:
        get_keymaps: Returns the current keymaps; called whenever prompt_toolkit looks up
            bindings, so it must be cheap (return a stored value).
        context: The context whose actions to bind.
        handlers: A handler per action name (snake_case); actions without one stay unbound.
        filter: When the context is active.
        when_empty: Extra condition for the ``*_when_empty`` actions: the editor is empty.
        eager: Passed to every binding.

    Returns:
        Bindings rebuilt whenever ``get_keymaps()`` returns a different value.

    Raises:
        KeyError: A handler names an action the context does not have.
    """
    handlers = dict(handlers)
    _checked_spec(context, handlers)  # fail now, not on the first key press
    built: list[tuple[Keymaps, KeyBindings]] = []

    def current() -> KeyBindings:
        keymaps = get_keymaps()
        if built and (built[0][0] is keymaps or built[0][0] == keymaps):
            return built[0][1]
        bindings = build_context_bindings(
            keymaps, context, handlers, filter=filter, when_empty=when_empty, eager=eager
        )
        built[:] = [(keymaps, bindings)]
        return bindings

    return DynamicKeyBindings(current)


def _checked_spec(context: Context, handlers: Mapping[str, ActionHandler]) -> ContextSpec:
    spec = context_spec(context)
    for name in handlers:
        spec.action(name)
    return spec


@cache
def _decoded_as() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Keys whose terminal sequence prompt_toolkit decodes as another key (worked out at
    the first binding, not at import: the first frame binds nothing).

    prompt_toolkit 3.0 swaps up/down in its table for some modifier combinations
    (python-prompt-toolkit#2092: ``CSI 1;6A``, ctrl+shift+up, is read as ``c-s-down``).
    Binding what the real table decodes the real sequence to keeps working whether or not
    the installed version has the bug.
    """
    corrections: dict[tuple[str, ...], tuple[str, ...]] = {}
    for key_id in _NAVIGATION_IDS:
        meant = terminal_keys(key_id)
        sequence = terminal_bytes(key_id)
        if meant is None or sequence is None:
            continue
        decoded = ANSI_SEQUENCES.get(sequence)
        if decoded is None:
            continue
        decoded_keys = decoded if isinstance(decoded, tuple) else (decoded,)
        names = tuple(key.value for key in decoded_keys)
        if names != meant:
            corrections[meant] = names
    return corrections
