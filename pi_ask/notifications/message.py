"""The "question waiting" notification text (behaviour.md §11, python-port.md §10)."""

from __future__ import annotations

from pi_ask.i18n import gettext
from pi_ask.terminal_text import clean_line, truncate

TITLE = "pi ask"
EVENT = "question.waiting"
MESSAGE_LIMIT = 120


def given_label(label: str) -> str | None:
    """The label as the payload gave it; ``Q<n>`` labels were made up by normalization.

    Example:
        >>> given_label("Q2"), given_label("Database")
        (None, 'Database')
    """
    return None if label.startswith("Q") and label[1:].isdigit() else label


def subject_for(label_given: str | None, prompt: str) -> str:
    """Pick what the notification names: the question's own label, else its prompt.

    Args:
        label_given: The label exactly as the payload gave it, or ``None`` when it gave none.
            A derived label (``Q1``) says nothing, so callers pass the payload's value.
        prompt: The question's prompt.

    Returns:
        The label when it has any non-space text, else the prompt.

    Example:
        >>> subject_for(None, "Which database?")
        'Which database?'
    """
    if label_given is not None and label_given.strip():
        return label_given
    return prompt


def reminder_message(subject: str) -> str:
    """``Still waiting: <subject>``, cleaned and cut like ``waiting_message``.

    Example:
        >>> reminder_message("Which database?")
        'Still waiting: Which database?'
    """
    text = gettext("Still waiting: {subject}").format(subject=subject)
    return truncate(clean_line(text), MESSAGE_LIMIT)


def waiting_message(subject: str) -> str:
    """Build ``Question waiting: <subject>`` as one clean line of at most 120 characters.

    Args:
        subject: What the question is about (see ``subject_for``); may be hostile text.

    Returns:
        The message with whitespace runs collapsed, controls shown as visible escapes, and
        cut to 120 characters (119 + ``…``) when longer.

    Example:
        >>> waiting_message("  Pick\\n a  database ")
        'Question waiting: Pick a database'
    """
    text = gettext("Question waiting: {subject}").format(subject=subject)
    return truncate(clean_line(text), MESSAGE_LIMIT)
