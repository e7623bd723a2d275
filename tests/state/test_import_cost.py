from __future__ import annotations

from tests.child_processes import python_output


def test_the_model_loads_without_the_commands_transitions_and_results() -> None:
    code = (
        "import sys\n"
        "from pi_ask.state.model import AskState, Behaviour\n"
        "print(sorted(m for m in sys.modules if m.startswith('pi_ask.state.')))\n"
    )
    output = python_output(code)
    assert output.strip() == "['pi_ask.state.model']"
