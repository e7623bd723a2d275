from __future__ import annotations

import importlib

import pytest

import pi_ask.contract as contract
from tests.child_processes import python_output


def test_every_exported_name_has_a_home() -> None:
    assert sorted(contract.__all__) == sorted(contract._HOMES)


def test_each_name_is_the_object_of_its_home_module() -> None:
    for name in contract.__all__:
        home = importlib.import_module(contract._HOMES[name])
        assert getattr(contract, name) is getattr(home, name), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'load'"):
        _ = contract.load


def test_loading_a_payload_leaves_the_schema_and_tool_metadata_unloaded() -> None:
    code = (
        "import sys\n"
        "from pi_ask.contract import load_payload\n"
        "load_payload('{\"questions\": []}')\n"
        "names = ('pi_ask.contract.schema', 'pi_ask.contract.tool')\n"
        "print([m for m in names if m in sys.modules])\n"
    )
    output = python_output(code)
    assert output.strip() == "[]"
