"""The tool result for a payload that cannot be asked (behaviour.md §2.5).

The result is cancelled, in ``submit`` mode, with no questions or answers, and carries the
issues both as text for the agent and as ``details.error``. Unlike the reference, the title is
trimmed like every other title (python-port.md §6.6).
"""

from __future__ import annotations

from pi_ask.contract.kinds import Issue
from pi_ask.contract.loading import InvalidPayload
from pi_ask.contract.results import ResultDetails, ToolResult

INVALID_PAYLOAD_HEADING = "Invalid ask_user payload:"


def _issue_line(issue: Issue) -> str:
    # Whole-payload issues have the empty path; "- : message" would read as a typo.
    if not issue.path:
        return f"- {issue.message}"
    return f"- {issue.path}: {issue.message}"


def invalid_result(invalid: InvalidPayload) -> ToolResult:
    """Build the ``invalid_input`` tool result for an invalid payload.

    Args:
        invalid: What ``load_payload``/``parse_payload`` returned for the bad payload.

    Returns:
        The result: text ``Invalid ask_user payload:`` plus one ``- <path>: <message>`` line
        per issue; details cancelled, mode ``submit``, empty questions and answers, the trimmed
        title when not blank, and ``error`` of kind ``invalid_input``.

    Example:
        >>> from pi_ask.contract.loading import parse_payload
        >>> print(invalid_result(parse_payload('{"questions": []}')).text)
        Invalid ask_user payload:
        - questions: At least one question is required
    """
    text = "\n".join([INVALID_PAYLOAD_HEADING, *(_issue_line(i) for i in invalid.issues)])
    title = invalid.raw_title.strip() if invalid.raw_title is not None else ""
    details = ResultDetails(
        cancelled=True,
        mode="submit",
        title=title or None,
        error_issues=invalid.issues,
    )
    return ToolResult(text=text, details=details)
