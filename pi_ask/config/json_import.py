"""Turn a reference pi-ask JSON config (``eko24ive-pi-ask.json``) into our TOML file.

The reference's schema versions 1-5 are migrated forward as behaviour.md §9.4 says, except
that values already present are kept (behaviour.md §17 #6): its 2→3 and 4→5 steps overwrote
``notifications`` and ``presentSingleAsMulti``. The result is the commented default file
with every imported value written in its place, under our snake_case names; keys we do not
know are carried over too (``pi-ask config validate`` then reports them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pi_ask.config.catalogue import KEYS, SECTIONS
from pi_ask.config.problems import describe
from pi_ask.config.toml_edit import toml_item
from pi_ask.config.toml_text import default_text
from pi_ask.guarded_parse import load_json
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.legacy import convert_legacy_keymaps, is_legacy_keymaps

LATEST_JSON_VERSION = 5
_Document = dict[str, object]


class ImportFailed(ValueError):
    """The JSON cannot be imported; the message says why."""


@dataclass(frozen=True, slots=True)
class ImportedConfig:
    """The TOML text made from a JSON config, and notes about what could not be carried."""

    text: str
    notes: tuple[str, ...]


def import_json(data: bytes | str) -> ImportedConfig:
    """Convert a reference JSON config to the text of a pi-ask ``config.toml``.

    Raises:
        ImportFailed: Not JSON, not an object, or a ``schemaVersion`` outside 1-5.
    """
    try:
        document = load_json(data)
    except ValueError as err:  # not JSON, not UTF-8, nested too deeply
        raise ImportFailed(f"not valid JSON ({err})") from err
    if not isinstance(document, dict):
        raise ImportFailed("a pi-ask config must be a JSON object")
    version = document.get("schemaVersion")
    if type(version) is not int or not 1 <= version <= LATEST_JSON_VERSION:
        raise ImportFailed(
            f"schemaVersion {describe(version)} is not supported "
            f"(expected a whole number from 1 to {LATEST_JSON_VERSION})"
        )
    for step in _STEPS[version - 1 :]:
        document = step(document)
    # A flat keymaps table is the legacy shape whatever schemaVersion says: converted, not lost.
    return _to_toml(_flat_keymaps_to_contexts(document))


def _v1_to_v2(document: _Document) -> _Document:
    return document


def _v2_to_v3(document: _Document) -> _Document:
    if "notifications" in document:
        return document
    return {**document, "notifications": {"enabled": True, "channels": ["bell"]}}


def _flat_keymaps_to_contexts(document: _Document) -> _Document:
    keymaps = document.get("keymaps")
    if isinstance(keymaps, Mapping) and is_legacy_keymaps(keymaps):
        return {**document, "keymaps": convert_legacy_keymaps(keymaps)}
    return document


def _v4_to_v5(document: _Document) -> _Document:
    result = dict(document)
    behaviour = result.get("behaviour")
    if isinstance(behaviour, Mapping) and "presentSingleAsMulti" not in behaviour:
        result["behaviour"] = {**behaviour, "presentSingleAsMulti": False}
    keymaps = result.get("keymaps")
    main = keymaps.get("main") if isinstance(keymaps, Mapping) else None
    has_type_key = isinstance(main, Mapping) and (
        "changeQuestionType" in main or "change_question_type" in main
    )
    if isinstance(keymaps, Mapping) and isinstance(main, Mapping) and not has_type_key:
        result["keymaps"] = {**keymaps, "main": {**main, "changeQuestionType": ["t"]}}
    return result


_STEPS: tuple[Callable[[_Document], _Document], ...] = (
    _v1_to_v2,
    _v2_to_v3,
    _flat_keymaps_to_contexts,  # v3 to v4
    _v4_to_v5,
)


def _to_toml(document: _Document) -> ImportedConfig:
    import tomlkit

    notes: list[str] = []
    output = tomlkit.parse(default_text())
    for name, value in document.items():
        if name == "schemaVersion":
            continue
        if name not in SECTIONS:
            _put(output, name, value, name, notes)
            continue
        if not isinstance(value, Mapping):
            _put(output, name, value, name, notes)
            continue
        table = output[name]
        renames = _renames(name)
        for key, item in value.items():
            if name == "keymaps" and isinstance(item, Mapping):
                _put_context(table, str(key), item, notes)
                continue
            canonical = renames.get(str(key), str(key))
            _put(table, canonical, item, f"{name}.{canonical}", notes)
    return ImportedConfig(output.as_string(), tuple(notes))


def _put_context(
    keymaps: object, name: str, actions: Mapping[str, object], notes: list[str]
) -> None:
    spec = next((spec for spec in CONTEXTS if name in (spec.name, spec.alias)), None)
    context = spec.name if spec else name
    table = keymaps.setdefault(context, {})  # type: ignore[attr-defined]
    renames = {action.alias: action.name for action in spec.actions} if spec else {}
    for action, keys in actions.items():
        canonical = renames.get(str(action), str(action))
        _put(table, canonical, keys, f"keymaps.{context}.{canonical}", notes)


def _put(table: object, name: str, value: object, where: str, notes: list[str]) -> None:
    plain = _without_nulls(value)
    if plain is None:
        notes.append(f"{where}: null has no TOML form; left out (the default applies)")
        return
    table[name] = toml_item(plain)  # type: ignore[index]


def _without_nulls(value: object) -> object:
    if isinstance(value, list):
        items = [_without_nulls(item) for item in value]
        return None if any(item is None for item in items) else items
    if isinstance(value, Mapping):
        pairs = {str(key): _without_nulls(item) for key, item in value.items()}
        return None if any(item is None for item in pairs.values()) else pairs
    return value


def _renames(section: str) -> dict[str, str]:
    return {spec.alias: spec.name for spec in KEYS if spec.section == section}
