"""One MCP elicitation form per ask, and its reply turned into the engine's submission.

The form (protocols.md §5.6) is flat: for question N a titled select ``qN`` (single and
preview: ``oneOf``; multi: ``items.anyOf``) whose consts are the option values, and an
optional string ``qN_text`` for "Type your own". Markdown in prompts, descriptions and
previews is sent as clean text (``pi_ask.markdown.clean_text``). Option titles carry the label, a
``(recommended)`` marker and the description; previews go into the select's description.
Nothing has a default and nothing is required: recommendations are never preselected, and
``required`` is advisory in the contract.

A reply is validated like any other input: unknown keys are ignored, a select holding
anything but offered consts is dropped (and reported), text is trimmed. On a single-choice
question a typed answer wins over the select, because many hosts cannot clear a select once
it is set. The accepted answers become one ``ReplaceAnswers`` command, so the result comes
from the same transition and result builder as every other face.

Pure: no MCP SDK, no I/O, so the mapping is tested on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import AskPayload, Option, Question
from pi_ask.contract.results import ToolResult
from pi_ask.markdown.clean_text import plain_text
from pi_ask.state.commands import Abort, ReplaceAnswers, SubmittedAnswer
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import CUSTOM_LABEL, Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result

DEFAULT_MESSAGE = "Your agent has questions for you"
RECOMMENDED = " (recommended)"
SEPARATOR = " — "
SINGLE_TEXT_HINT = "Optional. When filled, it is your answer instead of the choice above."
MULTI_TEXT_HINT = "Optional. Added to the choices above."

FormAnswers = tuple[tuple[str, SubmittedAnswer], ...]


@dataclass(frozen=True, slots=True)
class Form:
    """An ``elicitation/create`` form: its message and its ``requestedSchema``."""

    message: str
    schema: JsonObject


def select_key(number: int) -> str:
    """The property of question ``number``'s choice (1-based)."""
    return f"q{number}"


def text_key(number: int) -> str:
    """The property of question ``number``'s typed answer (1-based)."""
    return f"q{number}_text"


def build_form(payload: AskPayload) -> Form:
    """The one form asking every question of ``payload``.

    Property keys depend only on question positions, so the same arguments always give the
    same form (the 2026-07-28 retry rebuilds it to read the answers).
    """
    properties: JsonObject = {}
    for number, question in enumerate(payload.questions, 1):
        options = _options(question)
        if options:
            properties[select_key(number)] = _select(question, options)
        properties[text_key(number)] = {
            "type": "string",
            "title": f"{_one_line(question.label)}: {CUSTOM_LABEL}",
            "description": MULTI_TEXT_HINT if question.type == "multi" else SINGLE_TEXT_HINT,
        }
    message = payload.title or DEFAULT_MESSAGE
    return Form(message, {"type": "object", "properties": properties})


def read_form(payload: AskPayload, content: object) -> tuple[FormAnswers, tuple[str, ...]]:
    """The answers an accepted form holds, and a line for each value that was dropped.

    Args:
        payload: the payload the form was built from.
        content: the reply's ``content`` as the client sent it (anything).
    """
    if content is None:
        return (), ()
    if not isinstance(content, Mapping):
        return (), ("the form reply is not an object; no answer was taken from it",)
    answers: list[tuple[str, SubmittedAnswer]] = []
    problems: list[str] = []
    for number, question in enumerate(payload.questions, 1):
        values = _chosen(question, content.get(select_key(number)), number, problems)
        text = _typed(content.get(text_key(number)), number, problems)
        if text is not None and question.type != "multi":
            values = ()
        if values or text is not None:
            answers.append((question.id, SubmittedAnswer(values=values, custom_text=text)))
    return tuple(answers), tuple(problems)


def form_result(
    payload: AskPayload, action: str, content: object
) -> tuple[ToolResult, tuple[str, ...]]:
    """The tool result of a form reply: ``accept`` submits, decline and cancel cancel.

    Returns:
        The result, and a line for each reply value that was dropped.
    """
    state = new_state(payload)
    if action != "accept":
        return build_result(apply(state, Abort(reason="cancelled"), Behaviour())), ()
    answers, problems = read_form(payload, content)
    return build_result(apply(state, ReplaceAnswers(answers), Behaviour())), problems


def _options(question: Question) -> tuple[Option, ...]:
    return tuple(option for option in question.options if not option.freeform)


def _select(question: Question, options: tuple[Option, ...]) -> JsonObject:
    choices = [{"const": option.value, "title": _option_title(option)} for option in options]
    prompt = _one_line(plain_text(question.prompt))
    field: JsonObject = {"title": f"{_one_line(question.label)}: {prompt}"}
    if question.type == "multi":
        field |= {"type": "array", "items": {"anyOf": choices}}
    else:
        field |= {"type": "string", "oneOf": choices}
    previews = [
        f"{option.label}:\n{plain_text(option.preview)}" for option in options if option.preview
    ]
    if previews:
        field["description"] = "\n\n".join(previews)
    return field


def _option_title(option: Option) -> str:
    title = _one_line(option.label)
    if option.recommended:
        title += RECOMMENDED
    if option.description:
        title += SEPARATOR + _one_line(plain_text(option.description))
    return title


def _one_line(text: str) -> str:
    # Form titles are one line in every host; a payload's newlines would break them.
    return " ".join(text.split())


def _chosen(question: Question, value: object, number: int, problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    offered = {option.value for option in _options(question)}
    if question.type == "multi":
        chosen = value if isinstance(value, list) else None
        if chosen is not None and all(isinstance(v, str) and v in offered for v in chosen):
            return tuple(dict.fromkeys(chosen))
    elif isinstance(value, str) and value in offered:
        return (value,)
    elif isinstance(value, str) and not value:
        return ()  # Some hosts send an empty string for an untouched select.
    problems.append(f"question {number}: the choice is not one of the options offered; ignored")
    return ()


def _typed(value: object, number: int, problems: list[str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(f"question {number}: the typed answer is not text; ignored")
        return None
    return value.strip() or None
