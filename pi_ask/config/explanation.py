"""The slow, thorough reading of the settings: every value checked by the model, with its source.

``explain`` merges the three sources key by key — environment over file over default — and
says for each key where its value came from (``pi-ask config show``) and, for every value it
had to refuse, why (``pi-ask config validate``, the load notice). It imports the pydantic
model, so only the slow edges call it (see ``loading``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from pi_ask.config.catalogue import KEYS, SettingKey, env_var_hint
from pi_ask.config.document import CanonicalDocument
from pi_ask.config.model import check_entry, check_value, read_environment
from pi_ask.config.problems import ConfigProblem, describe
from pi_ask.keymaps.contexts import CONTEXTS

DEFAULT = "default"
FILE = "file"


@dataclass(frozen=True, slots=True)
class Explanation:
    """The settings as the model reads them.

    Attributes:
        values: The checked value of every key that a file or variable set validly.
        keymaps: The keymaps document to resolve: the file's table with the variables' keys
            laid over it.
        sources: Where each set value came from, by dotted key (keymap actions included):
            ``file`` or ``environment (PI_ASK_...)``; keys not listed are defaults.
        problems: Every value refused, entry skipped or variable ignored.
    """

    values: Mapping[str, object]
    keymaps: object
    sources: Mapping[str, str]
    problems: tuple[ConfigProblem, ...]


def explain(document: CanonicalDocument, environ: Mapping[str, str]) -> Explanation:
    """Check every value of ``document`` and of the ``PI_ASK_*`` variables in ``environ``.

    Args:
        document: The file's values by canonical key (``document.canonical_values``).
        environ: The environment (only ``PI_ASK_*`` setting variables are read).

    Returns:
        The checked values, the merged keymaps document, the sources and the problems.
    """
    overrides, broken = read_environment(environ)
    problems = [
        ConfigProblem(name, message, "error" if is_error else "warning")
        for name, message, is_error in broken
    ]
    values: dict[str, object] = {}
    sources: dict[str, str] = {}
    for spec in KEYS:
        chosen = _choose(spec, document.values, overrides, problems)
        if chosen is not None:
            values[spec.key], sources[spec.key] = chosen
    keymaps = _merge_keymaps(document.keymaps, overrides, sources)
    for key, (name, _value) in overrides.items():
        if key.partition(".")[0] != "keymaps" and key not in values and not _known(key):
            hint = env_var_hint(name)
            problems.append(ConfigProblem(name, f"names no setting{hint}; ignored", "warning"))
    return Explanation(values, keymaps, sources, tuple(problems))


def _choose(
    spec: SettingKey,
    file_values: Mapping[str, object],
    overrides: Mapping[str, tuple[str, object]],
    problems: list[ConfigProblem],
) -> tuple[object, str] | None:
    if spec.key in overrides:
        name, raw = overrides[spec.key]
        value = _checked(spec, raw, name, strict=False, problems=problems)
        if value is not None:
            return value, f"environment ({name})"
    if spec.key in file_values:
        value = _checked(spec, file_values[spec.key], spec.key, strict=True, problems=problems)
        if value is not None:
            return value, FILE
    return None


def _checked(
    spec: SettingKey, raw: object, where: str, *, strict: bool, problems: list[ConfigProblem]
) -> object | None:
    """The checked value, or ``None`` after recording why it was refused."""
    if where.startswith("PI_ASK_"):
        fallback = "ignored"
    else:
        fallback = f"using the default ({describe(spec.default)})"
    if spec.kind in ("models", "channels") and isinstance(raw, list):
        return _checked_list(spec, raw, where, strict=strict, problems=problems)
    value, reason = check_value(spec, raw, strict=strict)
    if reason is None:
        return value
    problems.append(ConfigProblem(where, f"{describe(raw)} is not {spec.expected}; {fallback}"))
    return None


def _checked_list(
    spec: SettingKey, raw: list[object], where: str, *, strict: bool, problems: list[ConfigProblem]
) -> object | None:
    """A list setting keeps its valid entries; each refused entry is a warning."""
    kept: list[object] = []
    for index, entry in enumerate(raw):
        value, reason = check_entry(spec.kind, entry, strict=strict)
        if reason is None:
            kept.append(value)
            continue
        message = f"{describe(entry)} is not a valid entry ({reason}); skipped"
        problems.append(ConfigProblem(f"{where}[{index}]", message, "warning"))
    if spec.kind == "channels" and not kept:
        message = (
            f"no valid channel; using {json.dumps(spec.default)} "
            "(set notifications.enabled = false to send nothing)"
        )
        problems.append(ConfigProblem(where, message, "warning"))
        return None
    return kept


def _merge_keymaps(
    file_keymaps: object,
    overrides: Mapping[str, tuple[str, object]],
    sources: dict[str, str],
) -> object:
    """The file's keymaps with each variable's action laid over it (either spelling)."""
    if isinstance(file_keymaps, Mapping):
        for context in CONTEXTS:
            table = _table(file_keymaps, context.name, context.alias)
            if not isinstance(table, Mapping):
                continue
            for action in context.actions:
                if action.name in table or action.alias in table:
                    sources[f"keymaps.{context.name}.{action.name}"] = FILE
    env_keys = {key: item for key, item in overrides.items() if key.startswith("keymaps.")}
    if not env_keys:
        return file_keymaps
    merged: dict[str, object] = dict(file_keymaps) if isinstance(file_keymaps, Mapping) else {}
    for key, (name, value) in env_keys.items():
        _, context_name, action_name = key.split(".", 2)
        found = next((spec for spec in CONTEXTS if spec.name == context_name), None)
        alias = found.alias if found else context_name
        table = _table(merged, context_name, alias)
        fresh = dict(table) if isinstance(table, Mapping) else {}
        for spelling in (context_name, alias):
            merged.pop(spelling, None)
        if found is not None:
            for action in found.actions:
                if action.name == action_name:
                    fresh.pop(action.alias, None)
        fresh[action_name] = value
        merged[context_name] = fresh
        sources[key] = f"environment ({name})"
    return merged


def _table(document: Mapping[str, object], name: str, alias: str) -> object:
    return document.get(name, document.get(alias))


def _known(key: str) -> bool:
    return any(spec.key == key for spec in KEYS)
