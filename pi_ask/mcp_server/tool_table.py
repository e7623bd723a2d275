"""The one table of what ``pi-ask mcp`` publishes: its identity and its tools, as plain JSON.

Standard library only: the stdio front (``front.py``) answers ``initialize`` and
``tools/list`` from it before the SDK is imported, and the SDK server (``server.py``) lists
the same dictionaries, so both answer with identical schemas (a test compares them).
"""

from __future__ import annotations

from typing import Final

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.tool import PROMPT_SNIPPET, TOOL_LABEL, TOOL_NAME, tool_definition
from pi_ask.version import __version__

SERVER_NAME: Final = "pi-ask"
SERVER_TITLE: Final = "pi-ask"
SERVER_VERSION: Final = __version__
INSTRUCTIONS: Final = PROMPT_SNIPPET
DEFAULT_TOOL_NAME: Final = TOOL_NAME


def ask_tool(name: str = DEFAULT_TOOL_NAME) -> JsonObject:
    """The blocking ask tool as ``tools/list`` shows it: ``pi-ask tool --format mcp``, hinted."""
    tool = tool_definition("mcp")
    tool["name"] = name
    tool["annotations"] = {"title": TOOL_LABEL, "readOnlyHint": True, "openWorldHint": False}
    return tool


def published_tools(name: str = DEFAULT_TOOL_NAME) -> list[JsonObject]:
    """Every tool the server publishes, in ``tools/list`` order."""
    return [ask_tool(name)]
