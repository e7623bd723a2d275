"""Every glyph the TUI draws is one cell wide in every width table we know of.

The ``wcwidth`` package (prompt_toolkit's and pyte's table) and glibc's ``wcwidth()`` (what
most terminals and tmux follow) are asked directly; tests/e2e/test_tmux_sizes.py asks tmux.
"""

from __future__ import annotations

import ast
import ctypes
import ctypes.util
import locale
from pathlib import Path

import pytest
import wcwidth

from pi_ask.faces.tui import glyphs
from pi_ask.keymaps import key_ids

TUI = Path(glyphs.__file__).parent


def _glibc_wcwidth() -> ctypes._FuncPointer | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    libc = ctypes.CDLL(name)
    if not hasattr(libc, "wcwidth"):
        return None
    function = libc.wcwidth
    function.argtypes = [ctypes.c_wchar]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


def _drawn_strings() -> set[str]:
    """String constants of the TUI's modules and the key labels, docstrings left out."""
    found: set[str] = set(key_ids._ARROW_LABELS.values())
    for path in TUI.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and id(node) not in docstrings:
                found.add(node.value)
    return found


def test_the_tui_draws_no_glyph_outside_the_table() -> None:
    drawn = {char for text in _drawn_strings() for char in text if not char.isascii()}
    assert drawn - set(glyphs.ALL) == set()
    assert glyphs.TAB_REVIEW in drawn  # the scan does see the renderers' strings


@pytest.mark.parametrize("glyph", glyphs.ALL)
def test_glyph_is_one_cell_in_the_wcwidth_package(glyph: str) -> None:
    assert wcwidth.wcwidth(glyph) == 1


@pytest.mark.parametrize("glyph", glyphs.ALL)
def test_glyph_is_one_cell_in_glibc(glyph: str) -> None:
    function = _glibc_wcwidth()
    if function is None:
        pytest.skip("no C library with wcwidth() here")
    previous = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    except locale.Error:
        pytest.skip("no C.UTF-8 locale")
    try:
        assert function(glyph) == 1
    finally:
        locale.setlocale(locale.LC_CTYPE, previous)


def test_the_reference_review_glyph_is_the_one_the_tables_disagree_on() -> None:
    """Why ☰ went: this wcwidth counts it 2 cells where glibc (and tmux) draw 1."""
    function = _glibc_wcwidth()
    if function is None:
        pytest.skip("no C library with wcwidth() here")
    previous = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    try:
        if wcwidth.wcwidth("☰") == function("☰"):
            pytest.skip("these two tables agree on ☰")
        assert "☰" not in glyphs.ALL
    finally:
        locale.setlocale(locale.LC_CTYPE, previous)
