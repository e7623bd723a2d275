"""Where a payload issue sits: its 0-based JSON path and the 1-based prefix its message starts with.

Paths look like ``questions[1].options[2].value``; messages start ``Question 2, option 3: ``
(behaviour.md §2.3). Both the structural and the semantic checks build issues through here so
the two never disagree on numbering.
"""

from __future__ import annotations

from pi_ask.contract.kinds import Issue


def question_issue(index: int, field: str | None, text: str) -> Issue:
    """An issue about question ``index`` (0-based), or one of its fields.

    Args:
        index: The question's 0-based position.
        field: The field the issue is about, or ``None`` for the question itself.
        text: The message after the ``Question <n>: `` prefix.

    Returns:
        The issue, e.g. ``questions[1].id`` / ``Question 2: id is required``.
    """
    path = f"questions[{index}]" if field is None else f"questions[{index}].{field}"
    return Issue(path, f"Question {index + 1}: {text}")


def option_issue(index: int, option_index: int, field: str | None, text: str) -> Issue:
    """An issue about option ``option_index`` of question ``index`` (both 0-based).

    Args:
        index: The question's 0-based position.
        option_index: The option's 0-based position within the question.
        field: The field the issue is about, or ``None`` for the option itself.
        text: The message after the ``Question <n>, option <m>: `` prefix.

    Returns:
        The issue, e.g. ``questions[0].options[1].value`` /
        ``Question 1, option 2: value is required``.
    """
    path = f"questions[{index}].options[{option_index}]"
    if field is not None:
        path = f"{path}.{field}"
    return Issue(path, f"Question {index + 1}, option {option_index + 1}: {text}")
