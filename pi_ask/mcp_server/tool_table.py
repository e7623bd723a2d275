"""The one table of what ``pi-ask mcp`` publishes: its identity and its tools, as plain JSON.

Standard library only: the stdio front (``front.py``) answers ``initialize`` and
``tools/list`` from it before the SDK is imported, and the SDK server (``server.py``) lists
the same dictionaries, so both answer with identical schemas (a test compares them).
"""

from __future__ import annotations

from typing import Final

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.tool import (
    PROMPT_SNIPPET,
    TOOL_LABEL,
    TOOL_NAME,
    host_parameters,
    tool_definition,
)
from pi_ask.version import __version__

SERVER_NAME: Final = "pi-ask"
SERVER_TITLE: Final = "pi-ask"
SERVER_VERSION: Final = __version__
INSTRUCTIONS: Final = PROMPT_SNIPPET
DEFAULT_TOOL_NAME: Final = TOOL_NAME
MAX_WAIT_S: Final = 50.0
"""The longest an ``_result`` call waits: well under every host's tool timeout."""
DEFAULT_WAIT_S: Final = 25.0
START_SUFFIX: Final = "_start"
RESULT_SUFFIX: Final = "_result"
MODERN_VERSION: Final = "2026-07-28"
"""The first protocol revision of the modern era: no initialize handshake, form rounds as
``input_required`` results, extensions such as tasks."""
TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"
"""The MCP Tasks extension, advertised on 2026-07-28 connections (``tasks.py``)."""


def ask_tool(name: str = DEFAULT_TOOL_NAME) -> JsonObject:
    """The blocking ask tool as ``tools/list`` shows it: ``pi-ask tool --format mcp``, hinted."""
    tool = tool_definition("mcp")
    tool["name"] = name
    tool["annotations"] = {"title": TOOL_LABEL, "readOnlyHint": True, "openWorldHint": False}
    return tool


def start_tool(name: str = DEFAULT_TOOL_NAME) -> JsonObject:
    """``<name>_start``: the same input, the ask handed over at once (python-port.md §12)."""
    return {
        "name": name + START_SUFFIX,
        "title": f"{TOOL_LABEL} (start, do not wait)",
        "description": (
            f"Start the same ask as `{name}` without waiting for the answers: it returns "
            '`{"id": "<ask id>", "status": "pending"}` at once, and the ask stays pending '
            "for the user (in `pi-ask inbox`, `pi-ask attach`, `pi-ask web`, or a tmux popup) "
            f"even past this call. Fetch the answers with `{name}{RESULT_SUFFIX}` and the id. "
            f"Use it instead of `{name}` when the user may take longer than this host waits "
            "for a tool call, or when you have other work to do meanwhile. Same input as "
            f"`{name}`; an invalid input gets the same invalid_input result."
        ),
        "inputSchema": host_parameters(),
        "annotations": {
            "title": f"{TOOL_LABEL} (start)",
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": False,
            "openWorldHint": False,
        },
    }


def result_tool(name: str = DEFAULT_TOOL_NAME) -> JsonObject:
    """``<name>_result``: a started ask's result, waiting a bounded time for it."""
    return {
        "name": name + RESULT_SUFFIX,
        "title": f"{TOOL_LABEL} (result)",
        "description": (
            f"The result of an ask started with `{name}{START_SUFFIX}`: waits up to `wait_s` "
            f"seconds (at most {MAX_WAIT_S:g}, default {DEFAULT_WAIT_S:g}) for the user, then "
            f"returns the same result `{name}` would, or "
            '`{"id": "<ask id>", "status": "pending"}` while the user has not answered yet '
            "(call it again later). Do not assume any answer while it is pending."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": f"The id `{name}{START_SUFFIX}` returned."},
                "wait_s": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": MAX_WAIT_S,
                    "default": DEFAULT_WAIT_S,
                    "description": "Seconds to wait for the answers before returning pending.",
                },
            },
            "required": ["id"],
        },
        "annotations": {
            "title": f"{TOOL_LABEL} (result)",
            "readOnlyHint": True,
            "openWorldHint": False,
        },
    }


def published_tools(name: str = DEFAULT_TOOL_NAME) -> list[JsonObject]:
    """Every tool the server publishes, in ``tools/list`` order."""
    return [ask_tool(name), start_tool(name), result_tool(name)]
