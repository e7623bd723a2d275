"""What the model reads in an MCP result, whichever half of it the host forwards.

Some hosts hand the model only ``content`` (the text), others only ``structuredContent``
(issue 26's table). So the text stays in ``content`` and ``structuredContent`` carries the
details plus the same ``text``; a ``no_terminal`` result's questions carry their options
there, so the model can ask in plain text from either half.
"""

from __future__ import annotations

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import AskPayload
from pi_ask.contract.results import ToolResult, option_to_json
from pi_ask.state.results import non_interactive_result
from pi_ask.state.summary import REASON_LINES


def no_terminal_line(why: str, tool_name: str) -> str:
    """The line after the reference's "Needs user input" lines (python-port.md §12)."""
    return (
        f"No terminal could reach the user ({why}). Do not assume any answer. Ask the user "
        f"these questions in plain text, or let them answer later: call {tool_name}_start "
        f"with the same input and fetch the answers with {tool_name}_result (the user answers "
        "with `pi-ask inbox`, `pi-ask attach` or `pi-ask web`)."
    )


def unreached_result(payload: AskPayload, why: str, tool_name: str) -> ToolResult:
    """The ``no_terminal`` result, its last line saying why nobody was reached."""
    result = non_interactive_result(payload, "no_terminal")
    head, _, last = result.text.rpartition("\n")
    assert last == REASON_LINES["no_terminal"]
    return ToolResult(f"{head}\n{no_terminal_line(why, tool_name)}", result.details)


def structured(result: ToolResult) -> JsonObject:
    """``structuredContent``: the details, the text, and for ``no_terminal`` the options."""
    details = result.details.to_json()
    entries = details["questions"]
    if result.details.reason == "no_terminal" and isinstance(entries, list):
        for entry, question in zip(entries, result.details.questions, strict=True):
            entry["options"] = [option_to_json(o) for o in question.options if not o.freeform]
    details["text"] = result.text
    return details
