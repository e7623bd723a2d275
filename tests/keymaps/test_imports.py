"""Importing the keymaps package must not import prompt_toolkit (style.md §2)."""

from __future__ import annotations

import pi_ask.keymaps
from tests.child_processes import python_output


def test_import_leaves_prompt_toolkit_out() -> None:
    code = (
        "import sys, pi_ask.keymaps as k\n"
        "k.resolve_keymaps({'main': {'confirm': 'ctrl+k'}}).keymaps.label('main', 'confirm')\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('prompt_toolkit', 'pydantic', 'tomlkit'))\n"
        "print(loaded)\n"
    )
    output = python_output(code)
    assert output.strip() == "[]"


def test_ptk_bindings_is_the_module_that_imports_it() -> None:
    code = "import sys, pi_ask.keymaps.ptk_bindings\nprint('prompt_toolkit' in sys.modules)\n"
    output = python_output(code)
    assert output.strip() == "True"


def test_the_package_only_re_exports() -> None:
    for name in pi_ask.keymaps.__all__:
        value = getattr(pi_ask.keymaps, name)
        module = getattr(value, "__module__", None)
        if callable(value) and module is not None and module != "typing":
            assert module.startswith("pi_ask.keymaps."), name
    assert "resolve_keymaps" in pi_ask.keymaps.__all__
    assert "load_context_bindings" not in pi_ask.keymaps.__all__
