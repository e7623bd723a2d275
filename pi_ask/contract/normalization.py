"""Normalization: a valid payload becomes the engine's ``AskPayload`` (behaviour.md §2.4).

Strings are trimmed at their ends only (interior whitespace, tabs included, is kept), blank
optional fields are dropped, question labels fall back to ``Q<n>``, and the presented type is
decided once, from ``present_single_as_multi``.
"""

from __future__ import annotations

from typing import cast

from pi_ask.contract.payload import QUESTION_TYPES, AskPayload, Option, Question, QuestionType

_INVALID = "normalize() needs a payload that passed validation"


def _text(container: dict[str, object], field: str) -> str:
    value = container.get(field)
    if not isinstance(value, str):
        raise ValueError(f"{_INVALID}: {field} is not a string")
    return value.strip()


def _optional_text(container: dict[str, object], field: str) -> str | None:
    """The trimmed string at ``field``, or ``None`` when missing or blank."""
    value = container.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{_INVALID}: {field} is not a string")
    return value.strip() or None


def _objects(container: dict[str, object], field: str) -> list[dict[str, object]]:
    items = container.get(field)
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ValueError(f"{_INVALID}: {field} is not an array of objects")
    return cast(list[dict[str, object]], items)


def _option(option: dict[str, object]) -> Option:
    recommended = option.get("recommended")
    return Option(
        value=_text(option, "value"),
        label=_text(option, "label"),
        description=_optional_text(option, "description"),
        preview=_optional_text(option, "preview"),
        # Kept when present, false included: elaboration items echo it back.
        recommended=recommended if isinstance(recommended, bool) else None,
        freeform=option.get("freeform") is True,
    )


def _requested_type(question: dict[str, object]) -> QuestionType:
    requested = question.get("type", "single")
    for question_type in QUESTION_TYPES:
        if requested == question_type:
            return question_type
    raise ValueError(f"{_INVALID}: type {requested!r} is not one of {QUESTION_TYPES}")


def _question(position: int, question: dict[str, object], single_as_multi: bool) -> Question:
    requested = _requested_type(question)
    presented: QuestionType = "multi" if single_as_multi and requested == "single" else requested
    return Question(
        id=_text(question, "id"),
        label=_optional_text(question, "label") or f"Q{position}",
        prompt=_text(question, "prompt"),
        type=presented,
        requested_type=requested,
        options=tuple(_option(o) for o in _objects(question, "options")),
        required=question.get("required") is True,
    )


def normalize(params: object, *, present_single_as_multi: bool = False) -> AskPayload:
    """Turn prepared, valid tool arguments into an ``AskPayload``.

    Args:
        params: Prepared arguments that passed ``check_structure`` and ``check_semantics``.
        present_single_as_multi: Present requested ``single`` questions as ``multi`` (the
            behaviour setting at flow creation); ``multi`` and ``preview`` never change.

    Returns:
        The normalized payload.

    Raises:
        ValueError: ``params`` did not pass validation (a caller bug, not a user error).

    Example:
        >>> payload = normalize(
        ...     {"title": "  ", "questions": [{"id": " a ", "prompt": "Pick",
        ...      "options": [{"value": "x", "label": "X"}]}]},
        ...     present_single_as_multi=True,
        ... )
        >>> payload.title, payload.questions[0].label, payload.questions[0].type
        (None, 'Q1', 'multi')
    """
    if not isinstance(params, dict):
        raise ValueError(f"{_INVALID}: not an object")
    prepared = cast(dict[str, object], params)
    questions = _objects(prepared, "questions")
    return AskPayload(
        questions=tuple(
            _question(n, q, present_single_as_multi) for n, q in enumerate(questions, start=1)
        ),
        title=_optional_text(prepared, "title"),
    )
