"""Keys that clash: reserved digits, one key on two actions, global keys reused.

Two ids clash when a terminal delivers them as the same key (``tab`` and ``ctrl+i``), not
only when they are spelled alike: prompt_toolkit could not tell which action was meant.
"""

from __future__ import annotations

from pi_ask.keymaps.contexts import GLOBAL_SHARERS, RESERVED_KEYS
from pi_ask.keymaps.keymap import ActionBinding, Keymaps
from pi_ask.keymaps.problems import ProblemLog, quote
from pi_ask.keymaps.terminal_keys import terminal_keys

Pair = tuple[str, str]


def check_context_clashes(
    bindings: list[ActionBinding], found: ProblemLog, involved: set[Pair] | None = None
) -> None:
    """Reserved digits and keys shared by two actions of one context.

    ``involved`` collects the (context, action) of every binding in an error.
    """
    involved = set() if involved is None else involved
    seen: dict[tuple[object, ...], tuple[ActionBinding, str]] = {}
    for binding in bindings:
        path = found.path_of(binding.context, binding.action)
        own: dict[tuple[object, ...], str] = {}
        for key in binding.keys + binding.unavailable:
            if key in RESERVED_KEYS:
                involved.add((binding.context, binding.action))
                found.add(
                    path,
                    key,
                    f"{quote(key)} is reserved: 1-9 are the fixed number shortcuts "
                    "(quick-select an option or a submit action)",
                )
                continue
            identity = _terminal_identity(key)
            if identity in own:
                found.add(
                    path,
                    key,
                    f"{quote(key)} is the same terminal key as {quote(own[identity])}; "
                    "one of them is enough",
                    "warning",
                )
                continue
            own[identity] = key
            if identity not in seen:
                seen[identity] = (binding, key)
                continue
            first, first_key = seen[identity]
            involved.update({(first.context, first.action), (binding.context, binding.action)})
            _report(found, (first, first_key), (binding, key), "")


def check_global_reuse(
    keymaps: Keymaps, found: ProblemLog, involved: set[Pair] | None = None
) -> None:
    """Keys of ``global`` may not be bound again where global is active too."""
    involved = set() if involved is None else involved
    global_keys = {
        _terminal_identity(key): (binding, key)
        for binding in reversed(keymaps.in_context("global"))
        for key in reversed(binding.keys + binding.unavailable)
    }
    for context in GLOBAL_SHARERS:
        for binding in keymaps.in_context(context):
            for key in binding.keys + binding.unavailable:
                match = global_keys.get(_terminal_identity(key))
                if match is None:
                    continue
                first, first_key = match
                involved.update({(first.context, first.action), (binding.context, binding.action)})
                why = "; global keys also work in main, editor and note_editor"
                _report(found, (first, first_key), (binding, key), why)


def _report(
    found: ProblemLog,
    first: tuple[ActionBinding, str],
    second: tuple[ActionBinding, str],
    why: str,
) -> None:
    """One clash, said at the action the file configures (the first one when both are), so
    the line points at a key the user wrote, never at a default alone."""
    if not found.is_configured(first[0].context, first[0].action) and found.is_configured(
        second[0].context, second[0].action
    ):
        first, second = second, first
    (binding, key), (other, other_key) = first, second
    found.add(
        found.path_of(binding.context, binding.action),
        key,
        f"{quote(key)} is also bound to {_other(other, found)}{_same_key_note(key, other_key)}"
        f"{why}",
    )


def _other(binding: ActionBinding, found: ProblemLog) -> str:
    """How a message names the second action of a clash."""
    path = found.path_of(binding.context, binding.action)
    if found.is_configured(binding.context, binding.action):
        return path
    return f"{path} (its default)"


def _terminal_identity(key: str) -> tuple[object, ...]:
    """What makes two ids the same key: the terminal key, or the id when it has none."""
    keys = terminal_keys(key)
    return (True, keys) if keys is not None else (False, key)


def _same_key_note(first: str, second: str) -> str:
    if first == second:
        return ""
    return f" as {quote(second)} (a terminal sends the same key for both)"


def clash_in_scope(
    context: str, keys: tuple[str, ...], kept: list[ActionBinding]
) -> ActionBinding | None:
    """The kept binding that one of ``keys`` (for an action of ``context``) would collide
    with: in the same context, or across ``global`` and the contexts it is active in."""
    wanted = {_terminal_identity(key) for key in keys}
    for other in kept:
        shares = other.context == context or (
            "global" in (context, other.context)
            and {context, other.context} - {"global"} <= set(GLOBAL_SHARERS)
            and context != other.context
        )
        if shares and wanted & {_terminal_identity(key) for key in other.keys}:
            return other
    return None
