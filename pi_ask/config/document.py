"""Read a parsed config document into canonical keys: aliases folded, unknown keys reported.

Both loaders (the fast one and the model) start from ``canonical_values``, so they agree on
which key a camelCase spelling means and on every unknown-key warning.
"""

from collections.abc import Mapping
from typing import NamedTuple

from pi_ask.config.catalogue import KEYS, SECTIONS
from pi_ask.config.problems import ConfigProblem

_TABLE_SECTIONS = tuple(section for section in SECTIONS if section != "keymaps")


class CanonicalDocument(NamedTuple):
    """A document's settings by canonical dotted key.

    Attributes:
        values: The raw value of every known non-keymap key the document sets.
        keymaps: The raw ``keymaps`` table, or ``None`` when the document has none.
        problems: Unknown keys, doubly spelled keys and sections that are not tables.
    """

    values: Mapping[str, object]
    keymaps: object
    problems: tuple[ConfigProblem, ...]


def spellings(key: str) -> tuple[str, ...]:
    """The names a key may have in its table: snake_case first, then camelCase if different."""
    spec = next((spec for spec in KEYS if spec.key == key), None)
    if spec is None:
        return (key.rpartition(".")[2],)
    return (spec.name,) if spec.alias == spec.name else (spec.name, spec.alias)


def canonical_values(document: Mapping[str, object]) -> CanonicalDocument:
    """Fold the document's spellings onto canonical keys and report what does not belong.

    Args:
        document: The parsed TOML (or migrated JSON) document.

    Returns:
        The values by canonical key, the keymaps table, and the problems found.
    """
    values: dict[str, object] = {}
    problems: list[ConfigProblem] = []
    _collect(document, "", values, problems)
    for section in _TABLE_SECTIONS:
        table = document.get(section)
        if table is None:
            continue
        if not isinstance(table, Mapping):
            problems.append(
                ConfigProblem(section, f"must be a table; using the defaults for [{section}]")
            )
            continue
        _collect(table, section, values, problems)
    return CanonicalDocument(values, document.get("keymaps"), tuple(problems))


def _collect(
    table: Mapping[str, object],
    section: str,
    values: dict[str, object],
    problems: list[ConfigProblem],
) -> None:
    known = [spec for spec in KEYS if spec.section == section]
    names = {name: spec.key for spec in known for name in (spec.name, spec.alias)}
    allowed = set(names) | (set(SECTIONS) if not section else set())
    for spec in known:
        present = [name for name in dict.fromkeys((spec.name, spec.alias)) if name in table]
        if not present:
            continue
        values[spec.key] = table[present[0]]
        if len(present) > 1:
            problems.append(
                ConfigProblem(
                    spec.key,
                    f"set twice, as {present[0]} and {present[1]}; using {present[0]}",
                    "warning",
                )
            )
    for name in table:
        if name not in allowed:
            where = f"{section}.{name}" if section else name
            problems.append(ConfigProblem(where, _unknown_message(name, allowed), "warning"))


def _unknown_message(name: str, allowed: set[str]) -> str:
    import difflib  # only when a key is unknown: not worth loading on every start

    close = difflib.get_close_matches(name, sorted(allowed), n=1, cutoff=0.75)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    return f"unknown setting{hint}; ignored and left in the file"
