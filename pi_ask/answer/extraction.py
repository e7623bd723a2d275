"""Rules every extracted form is held to, whichever extractor made it (behaviour.md §14.3).

Reading a candidate reply (steps 5-6): the text is parsed as JSON, its shape is checked
against the extraction schema, then the contract's semantic rules and the business rules
(no small-talk questions, at most four options, no option that restates the question) give
the issues fed back to the model. Step 7's repair drops what the business rules forbid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.loading import InvalidPayload, load_payload
from pi_ask.errors import PiAskError
from pi_ask.guarded_parse import load_json

MAX_OPTIONS = 4
FREEFORM_OPTION: JsonObject = {"value": "freeform", "label": "Type answer", "freeform": True}
GENERIC_PROMPTS = (
    "how can i help",
    "could you clarify",
    "let me know what you need",
    "what else is on your mind",
    "anything on your mind i can help with",
)
_RESTATE_MIN_CHARS = 8
_ID_MAX_CHARS = 48
_FENCE = re.compile(r"^```[\w+-]*[ \t]*\n(?P<body>.*?)\n?```$", re.DOTALL)
_QUESTION_TYPES = ("single", "multi", "preview")
_OPTION_KEYS = frozenset({"value", "label", "description", "preview", "freeform"})

NO_QUESTIONS = "No questions found in the latest assistant message."
GAVE_UP = (
    "Question extraction did not return a valid ask_user tool call or JSON fallback after retries."
)
TIMED_OUT = "Question extraction timed out. Try again or configure a faster extraction model."
CANCELLED = "Question extraction cancelled."


class ExtractionError(PiAskError):
    """Question extraction failed; the message is the notice to show (step 8)."""


class ExtractorUnavailable(ExtractionError):
    """The model extractor cannot even start: no usable model, or ``openai`` not installed."""


def snake_id(text: str) -> str:
    """A stable snake_case id: lower-case word characters joined by ``_``, at most 48 chars."""
    words = re.sub(r"[^\w]+", " ", text.lower()).replace("_", " ").split()
    out = ""
    for word in words:
        joined = f"{out}_{word}" if out else word
        if len(joined) > _ID_MAX_CHARS:
            break
        out = joined
    return out or "_".join(words)[:_ID_MAX_CHARS]


def _normalized(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def is_other(option: JsonObject) -> bool:
    """True for an "Other"-like option, which the four-option cap keeps as the last one."""
    label = str(option.get("label", "")).strip().lower()
    return label == "other" or "something else" in label or option.get("value") == "other"


def cap_options(options: Sequence[JsonObject]) -> list[JsonObject]:
    """At most four options; an "Other"-like option beyond the first four takes the fourth place."""
    if len(options) <= MAX_OPTIONS:
        return list(options)
    other = next((o for o in options if is_other(o)), None)
    if other is None:
        return list(options[:MAX_OPTIONS])
    kept = [o for o in options if o is not other][: MAX_OPTIONS - 1]
    return [*kept, other]


@dataclass(frozen=True, slots=True)
class Parsed:
    """A reply that parsed and has the extraction shape; ``issues`` is empty when usable."""

    params: JsonObject
    issues: tuple[str, ...]


def strip_fence(text: str) -> str:
    """The body of one surrounding Markdown code fence (with or without a language tag)."""
    stripped = text.strip()
    match = _FENCE.match(stripped)
    return match.group("body") if match else stripped


def parse_reply(text: str) -> Parsed | str:
    """Read a candidate reply; a string is the error to feed back (steps 5-6).

    Args:
        text: the ``ask_user`` call's arguments, or the reply's text (raw or fenced JSON).

    Returns:
        ``Parsed`` with its issues, or the error when the text is not JSON of the right shape.
    """
    body = strip_fence(text)
    if not body:
        return "model returned no text content"
    try:
        value = load_json(body)
    except ValueError as err:
        return str(err)
    shape = shape_error(value)
    if shape is not None:
        return shape
    assert isinstance(value, dict)  # shape_error checked it
    return Parsed(value, tuple(validation_issues(value)) + tuple(business_issues(value)))


def shape_error(value: object) -> str | None:
    """The first way ``value`` breaks the extraction schema, as ``<path or "root"> <message>``."""
    if not isinstance(value, dict):
        return "root must be an object"
    questions = value.get("questions")
    if not isinstance(questions, list):
        return (
            "questions must be an array"
            if "questions" in value
            else "root must have property questions"
        )
    if "title" in value and not isinstance(value["title"], str):
        return "title must be a string"
    for i, question in enumerate(questions):
        problem = _question_shape(f"questions[{i}]", question)
        if problem is not None:
            return problem
    return None


def _question_shape(path: str, question: object) -> str | None:
    if not isinstance(question, dict):
        return f"{path} must be an object"
    for key in ("id", "prompt"):
        if not isinstance(question.get(key), str):
            return (
                f"{path}.{key} must be a string"
                if key in question
                else f"{path} must have property {key}"
            )
    if "label" in question and not isinstance(question["label"], str):
        return f"{path}.label must be a string"
    if "type" in question and question["type"] not in _QUESTION_TYPES:
        return f'{path}.type must be one of "single", "multi", "preview"'
    if "required" in question and not isinstance(question["required"], bool):
        return f"{path}.required must be a boolean"
    options = question.get("options")
    if not isinstance(options, list):
        return (
            f"{path}.options must be an array"
            if "options" in question
            else f"{path} must have property options"
        )
    if not options:
        return f"{path}.options must have at least 1 item"
    for j, option in enumerate(options):
        problem = _option_shape(f"{path}.options[{j}]", option)
        if problem is not None:
            return problem
    return None


def _option_shape(path: str, option: object) -> str | None:
    if not isinstance(option, dict):
        return f"{path} must be an object"
    extra = sorted(set(option) - _OPTION_KEYS)
    if extra:
        return f'{path} must not have property "{extra[0]}"'
    if not isinstance(option.get("value"), str):
        return (
            f"{path}.value must be a string"
            if "value" in option
            else f"{path} must have property value"
        )
    for key in ("label", "description", "preview"):
        if key in option and not isinstance(option[key], str):
            return f"{path}.{key} must be a string"
    if "freeform" in option and not isinstance(option["freeform"], bool):
        return f"{path}.freeform must be a boolean"
    return None


def validation_issues(params: JsonObject) -> list[str]:
    """The contract's issues as ``<path>: <message>`` (none for an empty question list)."""
    if not params.get("questions"):
        return []
    loaded = load_payload(params, allow_freeform=True)
    if isinstance(loaded, InvalidPayload):
        return [f"{issue.path}: {issue.message}" for issue in loaded.issues]
    return []


def business_issues(params: JsonObject) -> list[str]:
    """Issues the contract allows but an extracted form must not have."""
    issues: list[str] = []
    for i, question in enumerate(_questions(params)):
        if _is_generic(question):
            issues.append(
                f"questions[{i}].prompt is generic conversational text; "
                "omit this question unless it includes concrete choices"
            )
        options = _options(question)
        if len(options) > MAX_OPTIONS:
            issues.append(f"questions[{i}].options has {len(options)} items; max is {MAX_OPTIONS}")
        if _restates(question):
            issues.append(
                f"questions[{i}].options[0] merely restates the question; "
                "omit this question or provide meaningful distinct options"
            )
    return issues


def repair(params: JsonObject) -> JsonObject:
    """Step 7: drop small-talk and restating questions, cap options at four."""
    kept: list[JsonObject] = []
    for question in _questions(params):
        if _is_generic(question) or _restates(question):
            continue
        kept.append({**question, "options": cap_options(_options(question))})
    return {**params, "questions": kept}


def _questions(params: JsonObject) -> list[JsonObject]:
    questions = params.get("questions")
    return [q for q in questions if isinstance(q, dict)] if isinstance(questions, list) else []


def _options(question: JsonObject) -> list[JsonObject]:
    options = question.get("options")
    return [o for o in options if isinstance(o, dict)] if isinstance(options, list) else []


def _is_generic(question: JsonObject) -> bool:
    prompt = f" {_normalized(str(question.get('prompt', '')))} "
    return any(f" {phrase} " in prompt for phrase in GENERIC_PROMPTS)


def _restates(question: JsonObject) -> bool:
    options = _options(question)
    if len(options) != 1:
        return False
    label = _normalized(str(options[0].get("label", "")))
    prompt = _normalized(str(question.get("prompt", "")))
    return len(label) > _RESTATE_MIN_CHARS and (label in prompt or prompt in label)


def failure_text(message: str) -> str:
    """The notice for a failed extraction (step 8)."""
    if "valid JSON" in message:
        return message
    if "cancelled" in message:
        return CANCELLED
    if any(word in message for word in ("aborted", "AbortError", "timed out")):
        return TIMED_OUT
    return message
