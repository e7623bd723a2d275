"""The semantic rules of a payload: exact order, paths and messages of behaviour.md §2.3.

All issues are collected, never only the first. Missing strings count as blank (the reference
can be called without its schema layer). Parts with the wrong JSON type are skipped here
because ``structure.py`` already reported them: a question that is not an object, an ``id``
that is a number, ``options`` that is not an array.
"""

from __future__ import annotations

import json

from pi_ask.contract.kinds import Issue
from pi_ask.contract.locations import option_issue, question_issue
from pi_ask.contract.payload import QUESTION_TYPES

NO_QUESTIONS = "At least one question is required"
# python-port.md §10: slash-command names in messages become our subcommands (/answer).
FREEFORM_NOT_ALLOWED = "freeform options are only supported for pi-ask answer forms"
FREEFORM_NOT_ALONE = "freeform options must be the only option"
PREVIEW_REQUIRED = (
    "preview questions require preview text for every option; "
    'add preview text or use type "single" instead'
)


def _json_text(value: object) -> str:
    """Render a value as compact JSON, the way the reference quotes an invalid type."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        # Only reachable from the Python API with values JSON cannot hold.
        return repr(value)


def _trimmed(container: dict[object, object], field: str) -> str | None:
    """The trimmed string at ``field``: ``""`` when missing, ``None`` when not a string."""
    value = container.get(field, "")
    return value.strip() if isinstance(value, str) else None


def _check_freeform(index: int, options: list[object], allow_freeform: bool) -> list[Issue]:
    freeform = sum(1 for o in options if isinstance(o, dict) and o.get("freeform") is True)
    if not freeform:
        return []
    if not allow_freeform:
        return [question_issue(index, "options", FREEFORM_NOT_ALLOWED)]
    if freeform > 1 or len(options) > freeform:
        return [question_issue(index, "options", FREEFORM_NOT_ALONE)]
    return []


def _check_options(index: int, options: list[object], is_preview: bool) -> list[Issue]:
    issues: list[Issue] = []
    seen_values: set[str] = set()
    for option_index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        value = _trimmed(option, "value")
        if value == "":
            issues.append(option_issue(index, option_index, "value", "value is required"))
        elif value is not None and value in seen_values:
            text = f'duplicate option value "{value}"'
            issues.append(option_issue(index, option_index, "value", text))
        if value:
            seen_values.add(value)
        if _trimmed(option, "label") == "":
            issues.append(option_issue(index, option_index, "label", "label is required"))
        if is_preview and _trimmed(option, "preview") == "":
            issues.append(option_issue(index, option_index, "preview", PREVIEW_REQUIRED))
    return issues


def _check_question(
    index: int, question: dict[object, object], seen_ids: set[str], allow_freeform: bool
) -> list[Issue]:
    issues: list[Issue] = []
    question_type = question.get("type")
    if "type" in question and question_type not in QUESTION_TYPES:
        text = f'invalid type {_json_text(question_type)}; expected "single", "multi", or "preview"'
        issues.append(question_issue(index, "type", text))
    question_id = _trimmed(question, "id")
    if question_id == "":
        issues.append(question_issue(index, "id", "id is required"))
    elif question_id is not None and question_id in seen_ids:
        text = f'duplicate question id "{question_id}"'
        issues.append(question_issue(index, "id", text))
    if question_id:
        seen_ids.add(question_id)
    if _trimmed(question, "prompt") == "":
        issues.append(question_issue(index, "prompt", "prompt is required"))
    options = question.get("options")
    if not isinstance(options, list):
        return issues
    if not options:
        issues.append(question_issue(index, "options", "at least one option is required"))
    issues.extend(_check_freeform(index, options, allow_freeform))
    # An invalid type counts as "single" here, so only a real "preview" needs preview text.
    issues.extend(_check_options(index, options, question_type == "preview"))
    return issues


def check_semantics(params: object, *, allow_freeform: bool = False) -> tuple[Issue, ...]:
    """Apply the semantic rules of behaviour.md §2.3 to prepared tool arguments.

    Args:
        params: The prepared arguments; parts of the wrong shape are skipped (the structural
            check reports them).
        allow_freeform: Accept ``freeform: true`` options, as ``pi-ask answer`` forms do.

    Returns:
        Every issue, in the contract's order; empty when the rules hold.

    Example:
        >>> check_semantics({"questions": []})
        (Issue(path='questions', message='At least one question is required'),)
    """
    if not isinstance(params, dict):
        return ()
    questions = params.get("questions")
    if not isinstance(questions, list):
        return ()
    if not questions:
        return (Issue("questions", NO_QUESTIONS),)
    issues: list[Issue] = []
    seen_ids: set[str] = set()
    for index, question in enumerate(questions):
        if isinstance(question, dict):
            issues.extend(_check_question(index, question, seen_ids, allow_freeform))
    return tuple(issues)
