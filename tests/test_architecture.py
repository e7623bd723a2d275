"""The floor plan of docs/architecture.md, checked on the source with ``ast``."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tests.child_processes import python_output

PACKAGE = Path(__file__).resolve().parents[1] / "pi_ask"

# Lowest first. A module imports its own unit and units on lower layers only, so units on one
# layer never import each other. Every face (``pi_ask.faces.<name>``) is a unit of its own.
LAYERS: dict[str, int] = {
    "pi_ask.errors": 0,
    "pi_ask.face_table": 0,
    "pi_ask.guarded_parse": 0,
    "pi_ask.install_hint": 0,
    "pi_ask.private_folders": 0,
    "pi_ask.regular_files": 0,
    "pi_ask.signal_latch": 0,
    "pi_ask.terminal_text": 0,
    "pi_ask.version": 0,
    "pi_ask.words": 1,
    "pi_ask.demo": 1,
    "pi_ask.i18n": 0,
    "pi_ask.contract": 1,
    "pi_ask.markdown": 1,
    "pi_ask.state": 2,
    "pi_ask.keymaps": 3,
    "pi_ask.config": 4,
    "pi_ask.notifications": 5,
    "pi_ask.events": 5,
    "pi_ask.session": 5,
    "pi_ask.http_listener": 5,
    "pi_ask.ask": 6,
    "pi_ask.answer": 6,
    "pi_ask.relay": 6,
    "pi_ask.faces": 7,
    "pi_ask.api": 8,
    "pi_ask.inbox": 8,
    "pi_ask.mcp_server": 8,
    "pi_ask.web_server": 8,
    "pi_ask.cli": 9,
    "pi_ask.__main__": 10,
    "pi_ask": 10,
}
FACES = "pi_ask.faces"
PURE = ("pi_ask.contract", "pi_ask.state")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def unit_of(module: str) -> str | None:
    """The unit a module belongs to: its face, its package, or the top-level module."""
    if module.startswith(FACES + "."):
        return ".".join(module.split(".")[:3])
    for unit in sorted(LAYERS, key=len, reverse=True):
        if module == unit or module.startswith(unit + "."):
            return unit
    return None


def layer_of(module: str) -> int:
    unit = unit_of(module)
    assert unit is not None, f"{module} is not placed on a layer in tests/test_architecture.py"
    return LAYERS[FACES if unit.startswith(FACES) else unit]


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


def test_every_layer_is_an_integer_and_every_module_sits_on_one() -> None:
    assert all(type(layer) is int for layer in LAYERS.values())
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
        if layer_of(target) >= own_layer:
            problems.append(f"{path.name}:{line}: {own} imports {target}")
    return problems


def test_imports_only_run_downwards() -> None:
    problems = [
        problem for path in source_files() for problem in wrong_way_imports(path, module_name(path))
    ]
    assert not problems, "imports against the layer order:\n" + "\n".join(problems)


def test_a_wrong_way_import_is_caught(tmp_path: Path) -> None:
    """The checker itself must be able to fail: an engine module importing a face, a face
    importing another, a service importing one of its neighbours on the same layer.

    The probe lives outside the package, so tests running beside this one never see it.
    """
    bad = tmp_path / "_architecture_probe.py"
    bad.write_text("from pi_ask.faces.tui import flow\n", encoding="utf-8")
    assert wrong_way_imports(bad, "pi_ask.state._probe") == [
        "_architecture_probe.py:1: pi_ask.state._probe imports pi_ask.faces.tui"
    ]
    assert wrong_way_imports(bad, "pi_ask.faces.plain._probe") == [
        "_architecture_probe.py:1: pi_ask.faces.plain._probe imports pi_ask.faces.tui"
    ]
    assert wrong_way_imports(bad, "pi_ask.faces.tui._probe") == []
    bad.write_text("if False:\n    from pi_ask.relay import wire\n", encoding="utf-8")
    assert wrong_way_imports(bad, "pi_ask.ask._probe") == [
        "_architecture_probe.py:2: pi_ask.ask._probe imports pi_ask.relay"
    ]


def test_faces_are_the_folders_under_faces() -> None:
    faces = {path.parent.name for path in (PACKAGE / "faces").glob("*/__init__.py")}
    assert faces == {"tui", "plain", "rpc", "mcp", "web"}


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
            allowed = unit_of(own) == "pi_ask.faces.tui" or own == "pi_ask.keymaps.ptk_bindings"
            if wants_ptk and not allowed:
                problems.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not problems, "\n".join(problems)


def test_argparse_is_imported_only_under_cli() -> None:
    problems = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in source_files()
        if unit_of(module_name(path)) != "pi_ask.cli"
        for target, line in imports_of(path)
        if target == "argparse"
    ]
    assert not problems, "argparse outside pi_ask/cli/: " + ", ".join(problems)


def test_no_package_but_pi_ask_hands_names_on() -> None:
    """Every ``__init__.py`` is a docstring, except ``pi_ask``'s own lazy public surface."""
    problems = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        if init.parent == PACKAGE:
            continue
        body = ast.parse(init.read_text(encoding="utf-8")).body
        is_docstring = (
            len(body) == 1
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        )
        if not is_docstring:
            problems.append(str(init.relative_to(PACKAGE.parent)))
    assert not problems, "an __init__.py holds more than its docstring: " + ", ".join(problems)


@pytest.mark.parametrize("module", ["pi_ask.contract.loading", "pi_ask.state.dispatcher"])
def test_engine_import_leaves_heavy_libraries_out(module: str) -> None:
    heavy = ["prompt_toolkit", "pydantic", "pydantic_settings", "apprise", "tomlkit", "openai"]
    code = f"import sys, {module}\nprint(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = python_output(code).strip()
    assert out == "", f"import {module} loaded {out}"


def doc_paths(doc: str) -> set[str]:
    """The files and folders docs/architecture.md names in backticks (``pi_ask/x/y.py``...)."""
    return set(re.findall(r"`((?:pi_ask|tests|benchmarks|docs)/[\w/.-]*)`", doc))


def test_every_path_named_in_the_architecture_doc_exists() -> None:
    """Every file or folder it names in backticks, from the repository or from ``pi_ask/``."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/.-]+(?:\.py|\.md|/))`", doc))
    assert len(named) > 40, "the pattern no longer finds the doc's paths"
    missing = [
        name
        for name in sorted(named)
        if not (PACKAGE.parent / name).exists() and not (PACKAGE / name).exists()
    ]
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_the_architecture_doc_has_a_row_for_every_wing() -> None:
    """Its module map names every package and top-level module of the tree."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = doc_paths(doc)
    wings = {
        f"pi_ask/{path.name}/" if path.is_dir() else f"pi_ask/{path.name}"
        for path in PACKAGE.iterdir()
        if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py"
    }
    wings |= {f"pi_ask/faces/{path.parent.name}/" for path in PACKAGE.glob("faces/*/__init__.py")}
    missing = sorted(wings - named - {"pi_ask/__main__.py"})
    assert not missing, f"docs/architecture.md's module map lacks: {missing}"
