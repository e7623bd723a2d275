"""The one-way import rule of docs/architecture.md, checked on the source with ``ast``."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from pi_ask.cli import AREA_COMMANDS
from tests.child_processes import python_output

PACKAGE = Path(__file__).resolve().parents[1] / "pi_ask"

# Lowest first. A module may import its own package and anything on a lower layer.
LAYERS: dict[str, float] = {
    # Above the contract: FlowInterrupted carries a ToolResult.
    "pi_ask.errors": 1,
    "pi_ask.demo": 0,
    "pi_ask.terminal_text": 0,
    "pi_ask.guarded_parse": 0,
    "pi_ask.signal_latch": 0,
    "pi_ask.lazy_names": -1,
    "pi_ask.contract": 0,
    "pi_ask.state": 1,
    "pi_ask.keymaps": 1,
    "pi_ask.config": 2,
    "pi_ask.events": 3,
    "pi_ask.session": 3,
    "pi_ask.notifications": 3,
    "pi_ask.tui": 4,
    "pi_ask.dialogs": 4,
    "pi_ask.mcp_face": 4.75,  # above the inbox: its terminal route goes through it
    "pi_ask.plain": 4,
    # Answering from elsewhere runs the faces: above them, below the api that routes to it.
    "pi_ask.inbox": 4.5,
    "pi_ask.api": 5,
    "pi_ask.cli_help": 5,
    "pi_ask.skill": 5,
    "pi_ask.completion": 5,
    "pi_ask.cli": 6,
    "pi_ask.__main__": 7,
}
FACES = ("pi_ask.tui", "pi_ask.dialogs", "pi_ask.mcp_face", "pi_ask.plain")
PURE = ("pi_ask.contract", "pi_ask.state")
# Subcommand modules import the api and are imported by cli: between the two.
COMMANDS_LAYER = (LAYERS["pi_ask.api"] + LAYERS["pi_ask.cli"]) / 2


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def unit_of(module: str) -> str | None:
    """The layer unit a module belongs to (its package, or the top-level module)."""
    for unit in sorted(LAYERS, key=len, reverse=True):
        if module == unit or module.startswith(unit + "."):
            return unit
    return None


def layer_of(module: str) -> float:
    # A subcommand module is a command-line face, whatever package it sits in.
    if module in AREA_COMMANDS:
        return COMMANDS_LAYER
    if module == "pi_ask":
        return LAYERS["pi_ask.__main__"]
    unit = unit_of(module)
    assert unit is not None, f"{module} is not placed on a layer in tests/test_architecture.py"
    return LAYERS[unit]


def imports_of(path: Path, own: str | None = None) -> list[tuple[str, int]]:
    """Absolute module names imported by a file, with line numbers (TYPE_CHECKING included).

    ``own`` is the file's module name (by default, from its place in the package).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = own or module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, node.lineno))
    return found


def source_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_sits_on_a_layer() -> None:
    for path in source_files():
        layer_of(module_name(path))


def wrong_way_imports(path: Path, own: str) -> list[str]:
    """The imports of ``path`` (module ``own``) that do not run down the layers."""
    problems = []
    own_unit, own_layer = unit_of(own), layer_of(own)
    for target, line in imports_of(path, own):
        if not target.startswith("pi_ask"):
            continue
        target_unit = unit_of(target)
        if target_unit is None or target_unit == own_unit:
            continue
        if layer_of(target) >= own_layer and target != "pi_ask":
            problems.append(f"{path.name}:{line}: {own} imports {target}")
    return problems


def test_imports_only_run_downwards() -> None:
    problems = [
        problem for path in source_files() for problem in wrong_way_imports(path, module_name(path))
    ]
    assert not problems, "imports against the layer order:\n" + "\n".join(problems)


def test_faces_do_not_import_each_other() -> None:
    problems = []
    for path in source_files():
        own_unit = unit_of(module_name(path))
        if own_unit not in FACES:
            continue
        for target, line in imports_of(path):
            if unit_of(target) in FACES and unit_of(target) != own_unit:
                problems.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not problems, "\n".join(problems)


def test_engine_imports_only_the_standard_library() -> None:
    problems = []
    for path in source_files():
        if unit_of(module_name(path)) not in PURE:
            continue
        for target, line in imports_of(path):
            top = target.split(".")[0]
            if top in ("pi_ask", "__future__") or top in sys.stdlib_module_names:
                continue
            problems.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not problems, "the engine must stay pure:\n" + "\n".join(problems)


def test_only_the_tui_imports_prompt_toolkit_bindings() -> None:
    problems = []
    for path in source_files():
        own = module_name(path)
        for target, line in imports_of(path):
            wants_ptk = (
                target.startswith("prompt_toolkit") or target == "pi_ask.keymaps.ptk_bindings"
            )
            allowed = unit_of(own) == "pi_ask.tui" or own == "pi_ask.keymaps.ptk_bindings"
            if wants_ptk and not allowed:
                problems.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("module", ["pi_ask.contract", "pi_ask.state"])
def test_engine_import_leaves_heavy_libraries_out(module: str) -> None:
    heavy = ["prompt_toolkit", "pydantic", "pydantic_settings", "apprise", "tomlkit", "openai"]
    code = f"import sys, {module}\nprint(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = python_output(code).strip()
    assert out == "", f"import {module} loaded {out}"


def test_a_wrong_way_import_is_caught(tmp_path: Path) -> None:
    """The checker itself must be able to fail: an engine module importing the TUI.

    The probe lives outside the package, so tests running beside this one never see it.
    """
    bad = tmp_path / "_architecture_probe.py"
    bad.write_text("from pi_ask.tui import something\n", encoding="utf-8")
    problems = wrong_way_imports(bad, "pi_ask.state._architecture_probe")
    assert problems == [
        "_architecture_probe.py:1: pi_ask.state._architecture_probe imports pi_ask.tui"
    ]


def test_every_path_named_in_the_architecture_doc_exists() -> None:
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+(?:\.py|/))`", doc))
    assert len(named) > 10, "the pattern no longer finds the doc's paths"
    missing = [
        name
        for name in sorted(named)
        if not (PACKAGE.parent / name).exists()
        and not (PACKAGE / name).exists()
        and not any(PACKAGE.glob(f"*/{name}"))
    ]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_no_package_exports_a_name_its_submodule_has() -> None:
    # Importing ``pkg.name`` sets the package attribute ``name`` to the module, so a lazily
    # exported function of that name would turn into the module (docs/architecture.md).
    clashes = []
    for package in [PACKAGE, *(p.parent for p in PACKAGE.rglob("__init__.py"))]:
        init = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
        exported: list[str] = []
        for node in init.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                exported = [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
        submodules = {p.stem for p in package.glob("*.py")} | {
            p.parent.name for p in package.glob("*/__init__.py")
        }
        clashes += [f"{package.name}.{name}" for name in exported if name in submodules]
    assert clashes == []
