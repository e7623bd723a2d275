"""``resolve_keymaps``: check a keymaps document and merge it with the defaults.

The document is plain data (the ``keymaps`` table of the config, already unwrapped from
TOML or JSON). Every problem is collected, none raised. Every valid binding is kept; a broken
one — a wrong value, a reserved digit, a key another action also has — falls back to its
action's default alone, and when that default collides with a kept binding the action has no
key for the session; each consequence is said in the problem (python-port.md §12, amending
§4 and §10's "any error → default keymaps").

Order of the checks, per context in canonical order: unknown actions, each action's
binding (type, syntax, case, terminal availability), reserved digits, duplicates inside the
context; then keys of ``global`` reused in ``main``, ``editor`` or ``note_editor``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pi_ask.keymaps.clashes import check_context_clashes, check_global_reuse, clash_in_scope
from pi_ask.keymaps.contexts import (
    CONTEXTS,
    ActionSpec,
    ContextSpec,
)
from pi_ask.keymaps.key_ids import KeyIdError, parse_key_id
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS, ActionBinding, Keymaps
from pi_ask.keymaps.legacy import convert_legacy_keymaps, is_legacy_keymaps, legacy_field
from pi_ask.keymaps.problems import KeymapProblem, ProblemLog, clean, describe, quote
from pi_ask.keymaps.terminal_keys import terminal_keys, unavailable_reason

_CONTEXT_LIST = ", ".join(spec.name for spec in CONTEXTS)
_Spec = TypeVar("_Spec", ContextSpec, ActionSpec)


@dataclass(frozen=True, slots=True)
class KeymapResolution:
    """What ``resolve_keymaps`` found.

    Attributes:
        keymaps: The document merged with the defaults: actions it leaves out, actions
            whose binding is wrong and actions left with no usable key keep their defaults;
            unavailable ids are recorded but not bound.
        problems: Every problem, in validation order.
    """

    keymaps: Keymaps
    problems: tuple[KeymapProblem, ...]

    @property
    def errors(self) -> tuple[KeymapProblem, ...]:
        """The problems of severity ``error``."""
        return tuple(problem for problem in self.problems if problem.severity == "error")

    @property
    def has_errors(self) -> bool:
        """True when any problem is an error."""
        return any(problem.severity == "error" for problem in self.problems)

    @property
    def session_keymaps(self) -> Keymaps:
        """The keymaps of the session: ``keymaps``, whose broken bindings already hold their
        defaults or nothing (python-port.md §12)."""
        return self.keymaps


def resolve_keymaps(document: object, *, path: str = "keymaps") -> KeymapResolution:
    """Validate a keymaps document and merge it with the defaults.

    Args:
        document: The ``keymaps`` table as plain data: a mapping of context tables
            (snake_case or camelCase names), the legacy flat shape, or ``None`` for defaults.
        path: The document's own path, prefixed to every problem's path.

    Returns:
        The merged keymaps and every problem found. Never raises for bad data.

    Example:
        >>> result = resolve_keymaps({"main": {"confirm": "ctrl+k"}})
        >>> result.keymaps.keys("main", "confirm"), result.problems
        (('ctrl+k',), ())
    """
    found = ProblemLog(path)
    if document is None:
        return KeymapResolution(DEFAULT_KEYMAPS, ())
    if not isinstance(document, Mapping):
        found.add(
            path,
            None,
            f"must be a table of keymap contexts ({_CONTEXT_LIST}), got {describe(document)}",
        )
        return KeymapResolution(DEFAULT_KEYMAPS, tuple(found.problems))
    tables = _context_tables(document, path, found)
    resolved: list[ActionBinding | None] = []
    for spec in CONTEXTS:
        resolved.extend(_resolve_context(spec, tables.get(spec.name), found))
    # Clashes are looked for among the bindings that parsed and the defaults of the actions
    # left out, never against the default a broken value would fall back to.
    provisional = [
        binding or ActionBinding(context.name, action.name, ())
        for binding, (context, action) in zip(resolved, _ACTIONS, strict=True)
    ]
    involved: set[tuple[str, str]] = set()
    for spec in CONTEXTS:
        in_spec = [b for b in provisional if b.context == spec.name]
        check_context_clashes(in_spec, found, involved)
    check_global_reuse(Keymaps.of(tuple(provisional)), found, involved)
    broken = {
        (context.name, action.name)
        for binding, (context, action) in zip(resolved, _ACTIONS, strict=True)
        if binding is None
    } | {pair for pair in involved if found.is_configured(*pair)}
    keymaps = Keymaps.of(tuple(_fall_back(provisional, broken, found)))
    return KeymapResolution(keymaps, tuple(found.problems))


_ACTIONS = tuple((context, action) for context in CONTEXTS for action in context.actions)


def _fall_back(
    bindings: list[ActionBinding], broken: set[tuple[str, str]], found: ProblemLog
) -> list[ActionBinding]:
    """Each broken binding replaced by its default, or by no key when that default collides
    with a binding that is kept; the consequence is added to the action's problem."""
    kept = [b for b in bindings if (b.context, b.action) not in broken]
    result: list[ActionBinding] = []
    for binding, (context, action) in zip(bindings, _ACTIONS, strict=True):
        if (context.name, action.name) not in broken:
            result.append(binding)
            continue
        defaults = action.default_keys
        taken = clash_in_scope(context.name, defaults, kept)
        keys_text = ", ".join(quote(key) for key in defaults)
        if taken is None:
            fallback = ActionBinding(context.name, action.name, defaults, binding.unavailable)
            consequence = f"using its default {keys_text} for this session"
        else:
            fallback = ActionBinding(context.name, action.name, (), binding.unavailable)
            other = found.path_of(taken.context, taken.action)
            consequence = (
                f"its default {keys_text} is bound to {other}, so "
                f"{context.name}.{action.name} has no key for this session"
            )
        kept.append(fallback)
        result.append(fallback)
        _add_consequence(found, found.path_of(context.name, action.name), consequence)
    return result


def _add_consequence(found: ProblemLog, path: str, consequence: str) -> None:
    """Append what happens to the action's first error, or say it on a line of its own."""
    for index, problem in enumerate(found.problems):
        if problem.path == path and problem.severity == "error":
            message = f"{problem.message}; {consequence}"
            found.problems[index] = KeymapProblem(path, problem.key, message, "error")
            return
    found.add(path, None, f"its keys clash with another action's (see above); {consequence}")


def _context_tables(
    document: Mapping[object, object], path: str, found: ProblemLog
) -> dict[str, tuple[str, Mapping[object, object]]]:
    """Each context's table and the path it was read from; reports the rest."""
    if is_legacy_keymaps(_string_keys(document)):
        return _legacy_tables(document, path, found)
    tables: dict[str, tuple[str, Mapping[object, object]]] = {}
    for raw_name, value in _canonical_first(document, CONTEXTS):
        name = str(raw_name)
        spec = _find(CONTEXTS, name)
        here = f"{path}.{clean(name)}"
        if spec is None:
            hint = _did_you_mean(name, CONTEXTS)
            found.add(
                here,
                None,
                f"unknown keymap context{hint}; expected one of {_CONTEXT_LIST}",
                "warning",
            )
        elif value is None:
            continue
        elif not isinstance(value, Mapping):
            found.add(here, None, f"must be a table of actions, got {describe(value)}")
        elif spec.name in tables:
            _report_twice(here, tables[spec.name][0], found)
        else:
            tables[spec.name] = (here, value)
    return tables


def _legacy_tables(
    document: Mapping[object, object], path: str, found: ProblemLog
) -> dict[str, tuple[str, Mapping[object, object]]]:
    found.add(
        path,
        None,
        "flat keymaps (reference config schema 3 and older) were read as per-context "
        "keymaps; write them as [keymaps.main] and so on",
        "warning",
    )
    usable: dict[str, str] = {}
    for raw_name, value in document.items():
        name = str(raw_name)
        here = f"{path}.{clean(name)}"
        if legacy_field(name) is None:
            found.add(here, None, "unknown flat keymap field; it is ignored", "warning")
        elif not isinstance(value, str):
            found.add(
                here,
                None,
                f"must be a key id string, got {describe(value)}; the defaults are kept",
                "warning",
            )
        else:
            key = _parse_one(value, here, found)
            if key is not None:
                # Canonical already, so the per-context pass repeats no warning.
                usable[name] = key
    tables: dict[str, tuple[str, Mapping[object, object]]] = {}
    for context, converted in convert_legacy_keymaps(usable).items():
        table: dict[object, object] = dict(converted.items())
        tables[context] = (f"{path}.{context}", table)
    return tables


def _resolve_context(
    spec: ContextSpec,
    entry: tuple[str, Mapping[object, object]] | None,
    found: ProblemLog,
) -> list[ActionBinding | None]:
    """Each action's binding: configured, or its default; ``None`` when the value is wrong."""
    here, table = entry if entry is not None else (f"{found.root}.{spec.name}", {})
    values = _action_values(spec, table, here, found)
    bindings: list[ActionBinding | None] = []
    for action in spec.actions:
        if action.name in values:
            path = found.path_of(spec.name, action.name)
            bindings.append(_resolve_action(spec, action, values[action.name], path, found))
        else:
            bindings.append(ActionBinding(spec.name, action.name, action.default_keys))
    return bindings


def _action_values(
    spec: ContextSpec, table: Mapping[object, object], here: str, found: ProblemLog
) -> dict[str, object]:
    """The configured value of each named action; unknown and repeated names reported."""
    values: dict[str, object] = {}
    for raw_name, value in _canonical_first(table, spec.actions):
        name = str(raw_name)
        action = _find(spec.actions, name)
        if action is None:
            expected = ", ".join(a.name for a in spec.actions)
            hint = _elsewhere(name) or _did_you_mean(name, spec.actions)
            found.add(
                f"{here}.{clean(name)}",
                None,
                f"unknown action for {spec.name}{hint}; expected one of {expected}",
                "warning",
            )
        elif action.name in values:
            _report_twice(f"{here}.{name}", found.path_of(spec.name, action.name), found)
        else:
            values[action.name] = value
            found.written[(spec.name, action.name)] = f"{here}.{name}"
    return values


def _resolve_action(
    spec: ContextSpec, action: ActionSpec, value: object, path: str, found: ProblemLog
) -> ActionBinding | None:
    ids = _parse_binding(value, path, found)
    if ids is None:
        return None
    bound = tuple(key for key in ids if terminal_keys(key) is not None)
    unavailable = tuple(key for key in ids if terminal_keys(key) is None)
    for key in unavailable:
        found.add(
            path,
            key,
            f"{quote(key)} cannot be received in a terminal: {unavailable_reason(key)}; "
            "it stays in the file but is not bound",
            "unavailable",
        )
    if not bound:
        defaults = ", ".join(quote(key) for key in action.default_keys)
        found.add(
            path,
            None,
            f"none of its keys can be received in a terminal; using the default {defaults} "
            "for this session",
            "warning",
        )
        bound = action.default_keys
    return ActionBinding(spec.name, action.name, bound, unavailable)


def _parse_binding(value: object, path: str, found: ProblemLog) -> tuple[str, ...] | None:
    """The canonical ids of one binding value, deduplicated; ``None`` if any is wrong."""
    if isinstance(value, str):
        items: list[object] = [value]
    elif isinstance(value, list | tuple):
        items = list(value)
        if not items:
            found.add(
                path,
                None,
                "empty binding list; give at least one key id, or leave "
                "the action out to keep its default",
            )
            return None
    else:
        found.add(
            path, None, f"binding must be a string or array of strings, got {describe(value)}"
        )
        return None
    ids: list[str] = []
    wrong = False
    for position, item in enumerate(items, start=1):
        if not isinstance(item, str):
            found.add(
                path,
                None,
                "binding list must contain only strings, got "
                f"{describe(item)} at position {position}",
            )
            wrong = True
            continue
        key = _parse_one(item, path, found)
        if key is None:
            wrong = True
        elif key not in ids:
            ids.append(key)
    return None if wrong else tuple(ids)


def _parse_one(text: str, path: str, found: ProblemLog) -> str | None:
    """Parse one key id, reporting syntax errors and a capital letter that means nothing."""
    try:
        key = parse_key_id(text)
    except KeyIdError as error:
        hint = f" (did you mean {quote(error.suggestion)}?)" if error.suggestion else ""
        if text.rstrip().endswith("+") and text.strip() != "+":
            hint += '; "+" separates modifiers, so a "+" key cannot be bound'
        reason = clean(error.reason)
        found.add(path, text, f"{quote(text)} is not a key id: {reason}{hint}")
        return None
    stripped = text.strip()
    if len(stripped) == 1 and stripped.isascii() and stripped.isupper():
        found.add(
            path,
            key,
            f"{quote(stripped)} is read as {quote(key)} (key ids ignore case); write "
            f"{quote('shift+' + key)} for a capital {stripped}",
            "warning",
        )
    return key


def _report_twice(path: str, used: str, found: ProblemLog) -> None:
    found.add(path, None, f"repeats {used} under another name; {used} is used", "warning")


def _find(specs: tuple[_Spec, ...], name: str) -> _Spec | None:
    for spec in specs:
        if name in (spec.name, spec.alias):
            return spec
    return None


def _canonical_first(
    table: Mapping[object, object], specs: tuple[_Spec, ...]
) -> list[tuple[object, object]]:
    """The table's items, snake_case names first: when a name is given twice, they win."""
    canonical = {spec.name for spec in specs}
    return sorted(table.items(), key=lambda item: str(item[0]) not in canonical)


def _string_keys(document: Mapping[object, object]) -> dict[str, object]:
    return {str(key): value for key, value in document.items()}


def _elsewhere(name: str) -> str:
    """A hint naming the contexts that do have an action called ``name``."""
    owners = [spec.name for spec in CONTEXTS if _find(spec.actions, name) is not None]
    return f" (it belongs to {', '.join(owners)})" if owners else ""


def _did_you_mean(name: str, specs: tuple[_Spec, ...]) -> str:
    import difflib  # only for an unknown name: every start validates the keymaps

    spellings = {spelling: spec.name for spec in specs for spelling in (spec.name, spec.alias)}
    matches = difflib.get_close_matches(name, list(spellings), 1, 0.7)
    return f" (did you mean {quote(spellings[matches[0]])}?)" if matches else ""
