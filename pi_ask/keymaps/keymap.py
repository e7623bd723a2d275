"""``Keymaps``: the resolved keys of every action, as one frozen value.

A ``Keymaps`` always covers every action of every context (left-out ones hold their
defaults), so lookups never fail for a valid name and equality tells whether a reload
changed anything.
"""

from typing import NamedTuple

from pi_ask.keymaps.contexts import CONTEXTS, Action, Context
from pi_ask.keymaps.key_ids import keys_label

_INDEX: dict[tuple[str, str], int] = {
    (context.name, action.name): position
    for position, (context, action) in enumerate(
        (context, action) for context in CONTEXTS for action in context.actions
    )
}


class ActionBinding(NamedTuple):
    """The keys of one action.

    Attributes:
        context: The context name (``main``).
        action: The action name (``confirm``).
        keys: Canonical key ids that are bound, in the configured order.
        unavailable: Configured ids a terminal cannot deliver: kept, shown, never bound.
    """

    context: Context
    action: Action
    keys: tuple[str, ...]
    unavailable: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        """The action's place in the config file (``keymaps.main.confirm``)."""
        return f"keymaps.{self.context}.{self.action}"


class Keymaps(NamedTuple):
    """Every action's keys, in canonical context and action order.

    Build one with ``resolve_keymaps`` (or use ``DEFAULT_KEYMAPS``); ``bindings`` holds one
    entry per action of ``CONTEXTS``, in that order, which ``Keymaps.of`` checks.
    """

    bindings: tuple[ActionBinding, ...]

    @classmethod
    def of(cls, bindings: tuple[ActionBinding, ...]) -> "Keymaps":
        """Keymaps of ``bindings``.

        Raises:
            ValueError: They are not one binding per action in ``CONTEXTS`` order.
        """
        order = tuple((binding.context, binding.action) for binding in bindings)
        if order != tuple(_INDEX):
            raise ValueError("Keymaps needs one binding per action, in CONTEXTS order")
        return cls(bindings)

    def binding(self, context: Context, action: Action) -> ActionBinding:
        """The binding of ``context.action``.

        Raises:
            KeyError: The context has no such action (a typo in the caller).
        """
        position = _INDEX.get((context, action))
        if position is None:
            raise KeyError(f"keymap context {context!r} has no action {action!r}")
        return self.bindings[position]

    def keys(self, context: Context, action: Action) -> tuple[str, ...]:
        """Canonical key ids bound to ``context.action`` (never an unavailable one).

        Example:
            >>> DEFAULT_KEYMAPS.keys("main", "next_tab")
            ('tab', 'right')
        """
        return self.binding(context, action).keys

    def configured(self, context: Context, action: Action) -> tuple[str, ...]:
        """Every id configured for the action: the bound ones, then the unavailable ones."""
        binding = self.binding(context, action)
        return binding.keys + binding.unavailable

    def label(self, context: Context, action: Action) -> str:
        """The display label of the bound keys joined with `` / `` (``Esc / Ctrl+C / ?``)."""
        return keys_label(self.keys(context, action))

    def ids_label(self, context: Context, action: Action) -> str:
        """The bound key ids themselves joined with `` / `` (the question-type hint: ``t``)."""
        return " / ".join(self.keys(context, action))

    def as_document(self) -> dict[str, dict[str, list[str]]]:
        """Every action's configured ids as a snake_case keymaps table (for writing a file).

        Resolving the result gives these keymaps back.
        """
        document: dict[str, dict[str, list[str]]] = {}
        for binding in self.bindings:
            table = document.setdefault(binding.context, {})
            table[binding.action] = [*binding.keys, *binding.unavailable]
        return document

    def in_context(self, context: Context) -> tuple[ActionBinding, ...]:
        """The bindings of one context, in canonical action order."""
        return tuple(binding for binding in self.bindings if binding.context == context)


def _defaults() -> Keymaps:
    return Keymaps.of(
        tuple(
            ActionBinding(context.name, action.name, action.default_keys)
            for context in CONTEXTS
            for action in context.actions
        )
    )


DEFAULT_KEYMAPS: Keymaps = _defaults()
"""The keymaps of behaviour.md §8.1, used for anything the config leaves out."""

DEFAULT_DOCUMENT: dict[str, dict[str, list[str]]] = DEFAULT_KEYMAPS.as_document()
"""The defaults as a ``[keymaps]`` table (the default file's): resolving it gives
``DEFAULT_KEYMAPS`` with no problem (``tests/keymaps``), so loading skips the validation."""
