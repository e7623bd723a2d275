"""Agent-facing metadata of the ``ask_user`` tool (behaviour.md §16), for ``pi-ask tool``.

The guidance is advisory: it shapes how an agent uses the tool, it enforces nothing. Each
guideline names `ask_user` itself because agent hosts list guidelines without a tool prefix.
"""

from __future__ import annotations

import copy
from typing import Final, Literal

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.schema import INPUT_SCHEMA

TOOL_NAME: Final = "ask_user"
TOOL_LABEL: Final = "Ask User"

TOOL_DESCRIPTION: Final = (
    "Ask the user structured clarification questions in an interactive flow and wait for the "
    "answers. Use it for decisions that hinge on the user's preferences or on requirements the "
    "available context does not settle, not for anything the context already answers. In a "
    "terminal (TUI) it shows a tabbed form that supports single-select, multi-select and "
    "preview-pane questions, with notes and a final review; over RPC it asks the questions "
    "one after another, each as one portable choice plus a typed-answer fallback, with previews "
    "flattened into the option text. Always give each question a stable `id` and a non-empty "
    "`prompt`, and each option a non-empty `value` and a visible `label`. Use type `preview` "
    "only when every option has non-empty `preview` text."
)

PROMPT_SNIPPET: Final = (
    "Clarify ambiguous or preference-sensitive decisions with a short interactive interview "
    "before proceeding"
)

PROMPT_GUIDELINES: Final[tuple[str, ...]] = (
    "Call `ask_user` only after checking the available context (code, docs, conversation, "
    "earlier answers), and only for a missing or conflicting requirement, an open preference "
    "that changes the outcome, missing authorization for a consequential or hard-to-reverse "
    "action, or an interview the user explicitly asked for.",
    "Keep each `ask_user` call small: 1-3 concise questions, one decision per question, short "
    "labels, clearly distinct options, and no filler options.",
    "Every `ask_user` question needs a stable `id` and a non-empty `prompt`; every option needs "
    "a non-empty machine-readable `value` and a visible `label`.",
    "When the context gives real grounds to prefer an option, mark it `recommended: true` in "
    "`ask_user` and give the reason in its `description`; recommended options are shown, never "
    "preselected.",
    "Choose the `ask_user` question `type` by meaning: `single` when one answer is expected, "
    "`multi` when several may apply, `preview` when options need detail shown side by side.",
    'Use `type: "preview"` in `ask_user` only when every option has non-empty `preview` text; '
    "descriptions alone do not count.",
    "After an `ask_user` elaboration result, answer the user's notes first; if a material "
    "decision still blocks progress, follow up with a structured `ask_user` call rather than a "
    "plain-text list of choices.",
    "In a follow-up `ask_user` call keep the settled answers and ask only what still blocks; "
    "reopen a settled decision only for materially new information.",
    "Bundle 2-3 related but independent decisions into one `ask_user` call instead of asking "
    "them one by one.",
    "Ask `ask_user` questions one at a time only when a later question depends on an earlier "
    "answer.",
    "Over RPC, `ask_user` asks questions one after another with one choice or a typed answer "
    "each and flattens previews into option text; do not promise same-screen forms, checkbox "
    "cards, or a preview pane there.",
    "A cancelled `ask_user` result, missing answers, or an ambiguous reply is not approval: "
    "keep unauthorized or high-risk actions blocked, and treat `required` as advisory only.",
)


def tool_metadata() -> JsonObject:
    """The tool's registration data, as ``pi-ask tool`` prints it.

    Returns:
        A fresh JSON object with ``name``, ``label``, ``description``, ``promptSnippet``,
        ``promptGuidelines`` (a list) and ``parameters`` (a copy of ``INPUT_SCHEMA``).

    Example:
        >>> tool_metadata()["name"]
        'ask_user'
    """
    return {
        "name": TOOL_NAME,
        "label": TOOL_LABEL,
        "description": TOOL_DESCRIPTION,
        "promptSnippet": PROMPT_SNIPPET,
        "promptGuidelines": list(PROMPT_GUIDELINES),
        "parameters": copy.deepcopy(INPUT_SCHEMA),
    }


MCP_NOTE: Final = (
    "Over MCP, `ask_user` asks through the host's own form when the host supports elicitation "
    "(all questions in one form, previews as text, no notes or review), otherwise through "
    "pi-ask's terminal UI when a pi-ask inbox or tmux is there."
)
"""What the MCP tool definition adds to the description: how an ask looks there."""

ToolFormat = Literal["pi", "mcp", "openai", "anthropic"]
TOOL_FORMATS: Final[tuple[ToolFormat, ...]] = ("pi", "mcp", "openai", "anthropic")


def host_description() -> str:
    """The description for hosts with no slot for guidelines: the guidelines follow it.

    OpenAI, Anthropic and MCP tool definitions carry only a description, so the guidance that
    pi shows beside the tool travels inside it, one bullet per guideline.
    """
    bullets = "\n".join(f"- {guideline}" for guideline in PROMPT_GUIDELINES)
    return f"{TOOL_DESCRIPTION}\n\nGuidelines:\n{bullets}"


def host_parameters() -> JsonObject:
    """The input schema without the keys some hosts refuse (``$schema``, ``title``)."""
    parameters = copy.deepcopy(INPUT_SCHEMA)
    parameters.pop("$schema", None)
    parameters.pop("title", None)
    return parameters


def tool_definition(host: ToolFormat = "pi") -> JsonObject:
    """The ``ask_user`` tool definition in the shape ``host`` registers tools in.

    Args:
        host: ``"pi"`` (``tool_metadata()``), ``"mcp"`` (an MCP ``Tool``: ``name``, ``title``,
            ``description``, ``inputSchema``, ``outputSchema``), ``"openai"`` (a Chat
            Completions ``{"type": "function", "function": {...}}`` entry) or ``"anthropic"``
            (a Messages API tool: ``name``, ``description``, ``input_schema``).

    Example:
        >>> tool_definition("anthropic")["input_schema"]["required"]
        ['questions']
    """
    if host == "pi":
        return tool_metadata()
    if host == "mcp":
        from pi_ask.contract.result_schema import RESULT_DETAILS_SCHEMA

        return {
            "name": TOOL_NAME,
            "title": TOOL_LABEL,
            "description": f"{host_description()}\n\n{MCP_NOTE}",
            "inputSchema": host_parameters(),
            "outputSchema": copy.deepcopy(RESULT_DETAILS_SCHEMA),
        }
    if host == "openai":
        return {
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": host_description(),
                "parameters": host_parameters(),
            },
        }
    return {"name": TOOL_NAME, "description": host_description(), "input_schema": host_parameters()}
