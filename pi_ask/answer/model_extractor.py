"""The model extractor: one ``ask_user`` tool call from any OpenAI-compatible endpoint.

Uses the official ``openai`` SDK, an optional extra (``pi-ask[llm]``) imported only here.
Each attempt has the configured timeout; an unusable reply is retried with the problem fed
back; after the last attempt a reply that parsed is repaired if it can be (behaviour.md §14.3).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pi_ask.answer.extraction import (
    GAVE_UP,
    ExtractionError,
    ExtractorUnavailable,
    Parsed,
    failure_text,
    parse_reply,
    repair,
    validation_issues,
)
from pi_ask.answer.extraction_prompt import (
    EXTRACTION_SCHEMA,
    SYSTEM_PROMPT,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    user_message,
)
from pi_ask.answer.providers import Endpoint
from pi_ask.contract.kinds import JsonObject

if TYPE_CHECKING:
    from openai import OpenAI
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageParam,
        ChatCompletionNamedToolChoiceParam,
    )

INSTALL_HINT = "The model extractor needs the openai package: add the llm extra ({command})."
# Local servers take any key, but the SDK insists on one.
_PLACEHOLDER_KEY = "not-needed"

Notify = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class ModelRun:
    """How to run the model extractor."""

    endpoint: Endpoint
    timeout_ms: int = 30000
    retries: int = 1


def extract_with_model(
    assistant_text: str,
    previous_user_text: str | None,
    run: ModelRun,
    *,
    notify: Notify,
) -> JsonObject:
    """Ask the model for the questions of ``assistant_text``.

    Args:
        assistant_text: the assistant message.
        previous_user_text: the user message before it, as context.
        run: the endpoint, the per-attempt timeout and the number of retries.
        notify: receives the progress lines (``Extracting questions using ...``).

    Returns:
        ``ask_user`` arguments (``{"questions": []}`` when the model found none).

    Raises:
        ExtractorUnavailable: ``openai`` is not installed.
        ExtractionError: no attempt gave a usable form; the message is the notice to show.
    """
    client = _client(run)
    notify(f"Extracting questions using {run.endpoint.name}...")
    retry: tuple[str, str] | None = None
    last_parsed: Parsed | None = None
    failure = GAVE_UP
    for attempt in range(run.retries + 1):
        if attempt:
            notify(f"Retrying question extraction ({attempt}/{run.retries})...")
        content = user_message(assistant_text, previous_user_text, retry=retry)
        try:
            response = _complete(client, run.endpoint.model, content)
        except Exception as err:  # the SDK's errors, whatever the transport raised
            if not _is_openai_error(err):
                raise
            failure, retry = str(err) or type(err).__name__, None
            continue
        candidate = candidate_text(response)
        parsed = parse_reply(candidate.text) if candidate.error is None else candidate.error
        if isinstance(parsed, Parsed):
            last_parsed = parsed
            if not parsed.issues:
                return parsed.params
            parsed = "\n".join(parsed.issues)
        failure, retry = GAVE_UP, (parsed, candidate.text)
    if last_parsed is not None:
        repaired = repair(last_parsed.params)
        if not repaired["questions"] or not validation_issues(repaired):
            return repaired
        failure = GAVE_UP
    raise ExtractionError(failure_text(failure))


@dataclass(frozen=True, slots=True)
class Candidate:
    """What an attempt answered: the text to parse, or why there is none."""

    text: str
    error: str | None = None


def candidate_text(response: ChatCompletion) -> Candidate:
    """Step 5: the one ``ask_user`` call's arguments, else the reply's text."""
    if not response.choices:
        return Candidate("")
    message = response.choices[0].message
    calls = list(message.tool_calls or [])
    asks = [
        function.arguments
        for call in calls
        if (function := getattr(call, "function", None)) is not None and function.name == TOOL_NAME
    ]
    if len(asks) == 1:
        return Candidate(asks[0])
    if calls:
        shown = json.dumps([call.model_dump() for call in calls], ensure_ascii=False)
        return Candidate(
            shown, f"Expected exactly one {TOOL_NAME} tool call; received {len(asks)}."
        )
    return Candidate(message.content or "")


def _client(run: ModelRun) -> OpenAI:
    try:
        import openai  # the optional extra, loaded only when a model is used
    except ImportError as err:
        from pi_ask.install_hint import extra_command

        raise ExtractorUnavailable(INSTALL_HINT.format(command=extra_command("llm"))) from err
    return openai.OpenAI(
        api_key=run.endpoint.api_key or _PLACEHOLDER_KEY,
        base_url=run.endpoint.base_url,
        timeout=run.timeout_ms / 1000,
        max_retries=0,
    )


def _complete(client: OpenAI, model: str, content: str) -> ChatCompletion:
    messages: list[ChatCompletionMessageParam] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": content},
    ]
    tool: ChatCompletionFunctionToolParam = {
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": TOOL_DESCRIPTION,
            "parameters": EXTRACTION_SCHEMA,
        },
    }
    choice: ChatCompletionNamedToolChoiceParam = {
        "type": "function",
        "function": {"name": TOOL_NAME},
    }
    return client.chat.completions.create(
        model=model, messages=messages, tools=[tool], tool_choice=choice
    )


def _is_openai_error(err: Exception) -> bool:
    import openai

    return isinstance(err, openai.OpenAIError)
