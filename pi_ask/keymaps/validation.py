"""``resolve_keymaps``: check a keymaps document and merge it with the defaults.

The document is plain data (the ``keymaps`` table of the config, already unwrapped from
TOML or JSON). Every problem is collected, none raised: the settings store decides what an
error means (python-port.md §10: any error → default keymaps for the session).

Order of the checks, per context in canonical order: unknown actions, each action's
binding (type, syntax, case, terminal availability), reserved digits, duplicates inside the
context; then keys of ``global`` reused in ``main``, ``editor`` or ``note_editor``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pi_ask.keymaps.clashes import check_context_clashes, check_global_reuse
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
        """``DEFAULT_KEYMAPS`` when there is an error, else ``keymaps`` (python-port.md §10)."""
        return DEFAULT_KEYMAPS if self.has_errors else self.keymaps


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
    bindings: list[ActionBinding] = []
    for spec in CONTEXTS:
        table = tables.get(spec.name)
        bindings.extend(_resolve_context(spec, table, found))
    keymaps = Keymaps.of(tuple(bindings))
    check_global_reuse(keymaps, found)
    return KeymapResolution(keymaps, tuple(found.problems))


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
) -> list[ActionBinding]:
    here, table = entry if entry is not None else (f"{found.root}.{spec.name}", {})
    values = _action_values(spec, table, here, found)
    bindings: list[ActionBinding] = []
    for action in spec.actions:
        if action.name in values:
            path = found.path_of(spec.name, action.name)
            bindings.append(_resolve_action(spec, action, values[action.name], path, found))
        else:
            bindings.append(ActionBinding(spec.name, action.name, action.default_keys))
    check_context_clashes(bindings, found)
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
) -> ActionBinding:
    ids = _parse_binding(value, path, found)
    if ids is None:
        return ActionBinding(spec.name, action.name, action.default_keys)
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
