"""Label preparation: the step that runs on raw tool arguments before any validation.

Agents often send an option's ``value`` without a ``label``; the contract derives the label
from the value (behaviour.md §2.1) so such payloads still pass. The prepared arguments are
also what the session log stores, so preparation copies instead of mutating the caller's data.
"""

from __future__ import annotations

import re

# A run of hyphens/underscores is one word break; so is a run of whitespace. Text, compiled
# (and cached) by ``re`` when a label is first derived: most payloads give every label.
_SEPARATOR_RUN = r"[-_]+"
_WHITESPACE_RUN = r"\s+"


def derive_label(value: str) -> str | None:
    """Derive a visible label from an option value.

    Separator runs (``-``/``_``) become one space, whitespace runs collapse, the result is
    trimmed and only its first character is upper-cased.

    Args:
        value: The option's ``value`` as given.

    Returns:
        The derived label, or ``None`` when the value holds nothing but separators or blanks.

    Example:
        >>> derive_label("region-local-kms-reencrypt-dek")
        'Region local kms reencrypt dek'
    """
    words = re.sub(_WHITESPACE_RUN, " ", re.sub(_SEPARATOR_RUN, " ", value)).strip()
    if not words:
        return None
    return words[0].upper() + words[1:]


def _needs_label(option: dict[str, object]) -> bool:
    # Only an absent or blank *string* label is replaced; a label of another type is left for
    # the structural check to report.
    if "label" not in option:
        return True
    label = option["label"]
    return isinstance(label, str) and not label.strip()


def _prepare_option(option: object) -> object:
    if not isinstance(option, dict) or not _needs_label(option):
        return option
    value = option.get("value")
    if not isinstance(value, str):
        return option
    label = derive_label(value)
    if label is None:
        return option
    return {**option, "label": label}


def _prepare_question(question: object) -> object:
    if not isinstance(question, dict):
        return question
    options = question.get("options")
    if not isinstance(options, list):
        return question
    return {**question, "options": [_prepare_option(o) for o in options]}


def prepare_payload(params: object) -> object:
    """Fill in missing or blank option labels derived from option values (behaviour.md §2.1).

    Runs only where the shape allows it: on an object with a ``questions`` array, per question
    object with an ``options`` array, per option object. Anything else passes through unchanged,
    so the later checks can report it. The input is never mutated; changed containers are copied.

    Args:
        params: The decoded tool arguments, in any shape.

    Returns:
        The prepared arguments: the same shape with derived labels filled in.

    Example:
        >>> prepare_payload({"questions": [{"options": [{"value": "follow_up"}]}]})
        {'questions': [{'options': [{'value': 'follow_up', 'label': 'Follow up'}]}]}
    """
    if not isinstance(params, dict):
        return params
    questions = params.get("questions")
    if not isinstance(questions, list):
        return params
    return {**params, "questions": [_prepare_question(q) for q in questions]}
