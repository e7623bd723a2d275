"""The face table is the one source of the faces' names (pi_ask/face_table.py)."""

from __future__ import annotations

import argparse
import ast
import importlib
import re
from pathlib import Path

import pytest

from pi_ask.config.catalogue import KEYS
from pi_ask.face_table import FACE_HELP, FACE_NAMES, TERMINAL_FACES, UI_MODES, face_module

ROOT = Path(__file__).resolve().parents[1]


def ui_choices(command: str) -> tuple[str, ...]:
    from pi_ask.cli.main import build_parser

    parser = build_parser(command)
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    found = subparsers.choices[command]
    ui = next(action for action in found._actions if "--ui" in action.option_strings)
    assert ui.choices is not None
    return tuple(ui.choices)


def test_every_face_is_a_package_with_one_entry() -> None:
    for name in FACE_NAMES:
        module = importlib.import_module(face_module(name))
        assert callable(module.run), name
        assert (ROOT / "pi_ask" / "faces" / name / "face.py").is_file()


@pytest.mark.parametrize("command", ["ask", "demo", "replay", "resume", "answer"])
def test_ui_offers_every_face_of_the_table(command: str) -> None:
    assert ui_choices(command) == UI_MODES
    assert set(FACE_NAMES) < set(UI_MODES)


def test_ui_help_describes_every_face() -> None:
    from pi_ask.cli.main import build_parser

    assert set(FACE_HELP) == set(FACE_NAMES)
    subparsers = next(
        a for a in build_parser("ask")._actions if isinstance(a, argparse._SubParsersAction)
    )
    ui = next(a for a in subparsers.choices["ask"]._actions if "--ui" in a.option_strings)
    assert ui.help is not None
    for name in FACE_NAMES:
        described = f"{name} ({FACE_HELP[name]})" if FACE_HELP[name] else f" {name},"
        assert described in ui.help, name


@pytest.mark.parametrize("command", ["attach", "inbox"])
def test_the_answering_terminals_offer_every_terminal_face(command: str) -> None:
    assert ui_choices(command) == TERMINAL_FACES


def test_the_face_setting_takes_the_terminal_faces() -> None:
    # [ui] face is also what the MCP terminal route's popup (pi-ask attach) opens.
    key = next(key for key in KEYS if key.key == "ui.face")
    assert key.kind == "face"
    from pi_ask.config.catalogue import FACES, is_valid

    assert FACES == TERMINAL_FACES
    assert all(is_valid("face", name) for name in TERMINAL_FACES)
    assert not is_valid("face", "rpc")


def test_no_other_module_spells_out_the_faces() -> None:
    """A literal tuple, list, set or ``Literal[...]`` naming two faces is a second source."""
    problems = []
    for path in sorted((ROOT / "pi_ask").rglob("*.py")):
        if path.name == "face_table.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            elements = None
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                elements = node.elts
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
                elements = node.slice.elts
            if elements is None:
                continue
            names = {e.value for e in elements if isinstance(e, ast.Constant)}
            if len(names & set(FACE_NAMES)) >= 2:
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not problems, "faces named outside pi_ask/face_table.py: " + ", ".join(problems)


def test_the_docs_name_every_face() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"--ui ([a-z|\\]+)\]", readme)
    assert listed is not None
    assert tuple(listed.group(1).replace("\\", "").split("|")) == UI_MODES
    configuration = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    row = next(line for line in configuration.splitlines() if line.startswith("| `ui.face`"))
    assert all(f'"{name}"' in row for name in TERMINAL_FACES)
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"`pi_ask/faces/{name}/`" in architecture for name in FACE_NAMES)
