from __future__ import annotations

import importlib

import pytest

import pi_ask.state as state
from tests.child_processes import python_output


def test_every_exported_name_has_a_home() -> None:
    assert sorted(state.__all__) == sorted(state._HOMES)


def test_each_name_is_the_object_of_its_home_module() -> None:
    for name in state.__all__:
        home = importlib.import_module(state._HOMES[name])
        assert getattr(state, name) is getattr(home, name), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'apply_all'"):
        _ = state.apply_all


def test_the_model_loads_without_the_commands_transitions_and_results() -> None:
    code = (
        "import sys\n"
        "from pi_ask.state.model import Behaviour\n"
        "from pi_ask.state import AskState\n"
        "print(sorted(m for m in sys.modules if m.startswith('pi_ask.state.')))\n"
    )
    output = python_output(code)
    assert output.strip() == "['pi_ask.state.model']"


def test_review_entries_stays_the_function_after_its_module_is_imported() -> None:
    code = (
        "import pi_ask.state.review_tab\n"
        "from pi_ask.state import review_entries\n"
        "print(callable(review_entries), type(review_entries).__name__)\n"
    )
    output = python_output(code)
    assert output.strip() == "True function"
