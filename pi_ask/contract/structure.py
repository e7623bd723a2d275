"""The structural check: the published input schema, applied by hand.

In pi a payload that fails the tool's JSON Schema never reaches the tool. We have no separate
schema layer, so every structural problem becomes an ``invalid_input`` issue too
(python-port.md §10). To keep one message per problem, this check leaves to the semantic
rules (``semantics.py``) what they already report: missing ``id``/``prompt``/``value``/``label``
strings (reported as ``... is required``) and a ``type`` outside the three.

What it reports, in document order: a payload that is not an object; ``title`` not a string;
``questions`` missing or not an array; a question or option that is not an object; a present
string field that is not a string; a present boolean field that is not a boolean; ``options``
missing or not an array.
"""

from __future__ import annotations

from pi_ask.contract.kinds import Issue
from pi_ask.contract.locations import option_issue, question_issue

NOT_AN_OBJECT = "payload must be a JSON object"

_QUESTION_STRINGS = ("id", "label", "prompt")
_OPTION_STRINGS = ("value", "label", "description", "preview")


def json_type_name(value: object) -> str:
    """Name a value's JSON type for messages (``string``, ``number``, ``array``, ...).

    Args:
        value: Any decoded value; non-JSON Python values are named by their class.

    Returns:
        The JSON type name, or the Python class name for values JSON cannot hold.
    """
    # bool first: it is a subclass of int but a different JSON type.
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    names: tuple[tuple[type, str], ...] = (
        (str, "string"),
        (int, "number"),
        (float, "number"),
        (list, "array"),
        (dict, "object"),
    )
    for kind, name in names:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _wrong_type(field: str, expected: str, value: object) -> str:
    return f"{field} must be {expected}, got {json_type_name(value)}"


def _check_option(index: int, option_index: int, option: object) -> list[Issue]:
    if not isinstance(option, dict):
        text = f"expected an object, got {json_type_name(option)}"
        return [option_issue(index, option_index, None, text)]
    issues = [
        option_issue(index, option_index, field, _wrong_type(field, "a string", option[field]))
        for field in _OPTION_STRINGS
        if field in option and not isinstance(option[field], str)
    ]
    if "recommended" in option and not isinstance(option["recommended"], bool):
        text = _wrong_type("recommended", "a boolean", option["recommended"])
        issues.append(option_issue(index, option_index, "recommended", text))
    return issues


def _check_question(index: int, question: object) -> list[Issue]:
    if not isinstance(question, dict):
        return [question_issue(index, None, f"expected an object, got {json_type_name(question)}")]
    issues = [
        question_issue(index, field, _wrong_type(field, "a string", question[field]))
        for field in _QUESTION_STRINGS
        if field in question and not isinstance(question[field], str)
    ]
    if "required" in question and not isinstance(question["required"], bool):
        text = _wrong_type("required", "a boolean", question["required"])
        issues.append(question_issue(index, "required", text))
    if "options" not in question:
        issues.append(question_issue(index, "options", "options is required"))
        return issues
    options = question["options"]
    if not isinstance(options, list):
        issues.append(question_issue(index, "options", _wrong_type("options", "an array", options)))
        return issues
    for option_index, option in enumerate(options):
        issues.extend(_check_option(index, option_index, option))
    return issues


def check_structure(params: object) -> tuple[Issue, ...]:
    """Report every structural problem of prepared tool arguments, in document order.

    Args:
        params: The prepared arguments (see ``prepare_payload``), in any shape.

    Returns:
        The issues; empty when the shape matches the published schema apart from what the
        semantic rules report.

    Example:
        >>> check_structure({"questions": "all of them"})
        (Issue(path='questions', message='questions must be an array, got string'),)
    """
    if not isinstance(params, dict):
        return (Issue("", NOT_AN_OBJECT),)
    issues: list[Issue] = []
    if "title" in params and not isinstance(params["title"], str):
        issues.append(Issue("title", _wrong_type("title", "a string", params["title"])))
    if "questions" not in params:
        issues.append(Issue("questions", "questions is required"))
        return tuple(issues)
    questions = params["questions"]
    if not isinstance(questions, list):
        issues.append(Issue("questions", _wrong_type("questions", "an array", questions)))
        return tuple(issues)
    for index, question in enumerate(questions):
        issues.extend(_check_question(index, question))
    return tuple(issues)
