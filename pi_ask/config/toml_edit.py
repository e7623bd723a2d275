"""Change values inside the user's TOML text without touching anything else (tomlkit).

Comments, blank lines, key order, quoting and unrelated keys stay byte-identical: only the
changed value's text is replaced (a key the file lacks is appended to its table). A key
written in camelCase is changed where it is, never added a second time in snake_case.
"""

from __future__ import annotations

from collections.abc import MutableMapping

import tomlkit
from tomlkit.container import Container
from tomlkit.items import Item, Table

from pi_ask.config.catalogue import KEYS, SECTIONS, TomlValue
from pi_ask.config.document import spellings
from pi_ask.config.toml_text import literal
from pi_ask.keymaps.contexts import CONTEXTS

_Tables = MutableMapping[str, object]


def set_value(text: str, key: str, value: TomlValue) -> str:
    """The text with ``key`` (dotted, snake_case) set to ``value``.

    Raises:
        tomlkit.exceptions.ParseError: ``text`` is not TOML (callers check first).
        ValueError: The key's table exists but is not a table.
    """
    document = tomlkit.parse(text)
    section, _, name = key.rpartition(".")
    table = _table_for(document, section)
    present = [spelling for spelling in spellings(key) if spelling in table]
    for spelling in present or [name]:
        if spelling not in table or table[spelling] != value:
            table[spelling] = toml_item(value)
    return document.as_string()


def reset_values(text: str) -> str:
    """The text with every setting it holds set back to its default; nothing else changes.

    Keys the file leaves out already have their defaults and stay out. A section or keymap
    context that is not a table is removed (so it takes its defaults). Unknown keys stay.
    """
    document = tomlkit.parse(text)
    for spec in KEYS:
        table = document if not spec.section else document.get(spec.section)
        if not isinstance(table, MutableMapping):
            if table is not None:
                del document[spec.section]
            continue
        for spelling in spellings(spec.key):
            if spelling in table and table[spelling] != spec.default:
                table[spelling] = toml_item(spec.default)
    _reset_keymaps(document)
    return document.as_string()


def _reset_keymaps(document: tomlkit.TOMLDocument) -> None:
    keymaps = document.get("keymaps")
    if keymaps is None:
        return
    if not isinstance(keymaps, MutableMapping):
        del document["keymaps"]
        return
    for context in CONTEXTS:
        for context_name in dict.fromkeys((context.name, context.alias)):
            table = keymaps.get(context_name)
            if table is None:
                continue
            if not isinstance(table, MutableMapping):
                del keymaps[context_name]
                continue
            for action in context.actions:
                default = list(action.default_keys)
                for spelling in dict.fromkeys((action.name, action.alias)):
                    if spelling in table and table[spelling] != default:
                        table[spelling] = toml_item(default)


def toml_item(value: object) -> Item:
    """``value`` as a tomlkit item written like the default file (inline tables on one line)."""
    return tomlkit.parse(f"value = {literal(value)}\n")["value"]  # type: ignore[no-any-return]


def _table_for(document: tomlkit.TOMLDocument, section: str) -> _Tables:
    if not section:
        return document
    if section not in SECTIONS:
        raise ValueError(f"{section} is not a settings table")
    table = document.get(section)
    if table is None:
        table = tomlkit.table()
        _insert_section(document, section, table)
        return table
    if not isinstance(table, (Table, Container, MutableMapping)):
        raise ValueError(f"[{section}] is not a table in the file")
    return table


def _insert_section(document: tomlkit.TOMLDocument, section: str, table: Table) -> None:
    text = document.as_string()
    if text and not text.endswith("\n\n"):
        # A blank line before the new header, as the default file has.
        document.add(tomlkit.nl())
    document.add(section, table)
