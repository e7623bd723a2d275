"""The ``ask_user`` input as ``TypedDict``s, so an editor completes a payload written in Python.

These describe the wire form (what ``pi-ask schema`` prints), not the normalized
``contract.payload`` dataclasses the engine works on. A test keeps their keys and required
keys equal to ``INPUT_SCHEMA``'s.

Example:
    >>> payload: AskUserInput = {
    ...     "questions": [{"id": "db", "prompt": "Which database?", "options": [{"value": "pg"}]}]
    ... }
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired from evaluated
# annotations on Python 3.11.
from typing import Literal, NotRequired, TypedDict


class OptionInput(TypedDict):
    """One choice. ``label`` defaults to ``value`` made readable (``dark_mode`` → ``Dark mode``)."""

    value: str
    label: NotRequired[str]
    description: NotRequired[str]
    preview: NotRequired[str]
    recommended: NotRequired[bool]


class QuestionInput(TypedDict):
    """One question: a stable ``id`` (its answer's key), a ``prompt``, its ``options``."""

    id: str
    label: NotRequired[str]
    prompt: str
    type: NotRequired[Literal["single", "multi", "preview"]]
    required: NotRequired[bool]
    options: list[OptionInput]


class AskUserInput(TypedDict):
    """The whole ``ask_user`` tool input."""

    title: NotRequired[str]
    questions: list[QuestionInput]
