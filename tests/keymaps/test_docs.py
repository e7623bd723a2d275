"""docs/keymaps.md must agree with the tables in the code."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.key_ids import BASE_ALIASES, MODIFIER_ALIASES
from pi_ask.keymaps.terminal_keys import is_available

DOC = (Path(__file__).parents[2] / "docs" / "keymaps.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "row",
    [
        f"| `{spec.name}` | `{action.name}` | "
        + ", ".join(f"`{key}`" for key in action.default_keys)
        + " |"
        for spec in CONTEXTS
        for action in spec.actions
    ],
)
def test_every_action_and_its_defaults_are_documented(row: str) -> None:
    assert row in DOC


def test_every_alias_is_documented() -> None:
    for alias in [*MODIFIER_ALIASES, *BASE_ALIASES]:
        assert f"`{alias}`" in DOC or f"/`{alias}`" in DOC, alias
    for spec in CONTEXTS:
        for name in [spec.alias, *(action.alias for action in spec.actions)]:
            assert f"`{name}`" in DOC, name


@pytest.mark.parametrize(
    "key_id",
    [
        "super+k",
        "ctrl+shift+p",
        "ctrl+shift+?",
        "shift+enter",
        "ctrl+enter",
        "shift+space",
        "shift+esc",
        "ctrl+esc",
        "shift+backspace",
        "ctrl+tab",
        "shift+/",
        "ctrl+/",
        "clear",
        "alt+f1",
        "ctrl+shift+f1",
        "shift+f3",
        "ctrl+f3",
        "shift+insert",
        "ctrl+insert",
        "ctrl+shift+insert",
        "ctrl+alt+delete",
        "ctrl+shift+alt+delete",
        "ctrl+alt+pageUp",
        "ctrl+shift+alt+pageDown",
        "alt+tab",
        "ctrl+alt+i",
    ],
)
def test_the_documented_unavailable_keys_are_unavailable(key_id: str) -> None:
    assert not is_available(key_id)


@pytest.mark.parametrize("key_id", ["shift+tab", "ctrl+space", "ctrl+backspace", "ctrl+["])
def test_the_documented_exceptions_work(key_id: str) -> None:
    assert is_available(key_id)


@pytest.mark.parametrize(
    "module",
    ["key_ids", "keymap", "legacy", "terminal_bytes", "terminal_keys", "validation"],
)
def test_docstring_examples_run(module: str) -> None:
    results = doctest.testmod(importlib.import_module(f"pi_ask.keymaps.{module}"))
    assert results.attempted > 0
    assert results.failed == 0


def test_the_fixed_keys_table_lists_every_fixed_key_where_it_works() -> None:
    from pi_ask.faces.tui.flow_bindings import DEFER_KEY, EDGE_KEYS, EDGE_KEYS_EVERYWHERE, PAGE_KEYS

    section = DOC.split("### Fixed keys", 1)[1].split("\n### ", 1)[0]
    rows = {line.split(" | ")[0]: line for line in section.splitlines() if line.startswith("| `")}

    def row_of(keys: list[str]) -> str:
        return rows["| " + " / ".join(f"`{key}`" for key in keys)]

    assert "editors too" in row_of(list(PAGE_KEYS))
    assert "in an editor they move the text cursor" in row_of(list(EDGE_KEYS))
    assert "editors too" in row_of(list(EDGE_KEYS_EVERYWHERE))
    assert "| `1`–`9` |" in section
    assert "pi-ask inbox" in row_of([DEFER_KEY])
