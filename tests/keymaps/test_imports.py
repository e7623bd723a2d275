"""Importing the keymaps package must not import prompt_toolkit (style.md §2)."""

from __future__ import annotations

from tests.child_processes import python_output


def test_import_leaves_prompt_toolkit_out() -> None:
    code = (
        "import sys\n"
        "from pi_ask.keymaps.validation import resolve_keymaps\n"
        "resolve_keymaps({'main': {'confirm': 'ctrl+k'}}).keymaps.label('main', 'confirm')\n"
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
