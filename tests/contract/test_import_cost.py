from __future__ import annotations

from tests.child_processes import python_output


def test_loading_a_payload_leaves_the_schema_and_tool_metadata_unloaded() -> None:
    code = (
        "import sys\n"
        "from pi_ask.contract.loading import load_payload\n"
        "load_payload('{\"questions\": []}')\n"
        "names = ('pi_ask.contract.schema', 'pi_ask.contract.tool')\n"
        "print([m for m in names if m in sys.modules])\n"
    )
    output = python_output(code)
    assert output.strip() == "[]"
