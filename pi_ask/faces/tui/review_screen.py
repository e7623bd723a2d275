"""The review tab (behaviour.md §7.7): the answers so far and Submit / Elaborate / Cancel.

Wide terminals (64 columns and more) put the actions in a 14-column left column beside the
review lines; narrower ones stack the review lines above the actions.
"""

from __future__ import annotations

from pi_ask.faces.tui import theme
from pi_ask.faces.tui.attaching import attached_lines
from pi_ask.faces.tui.body import Body
from pi_ask.faces.tui.question_screen import POINTER, saved_note
from pi_ask.faces.tui.styled_text import EMPTY, Line, join, span, text_width, truncate
from pi_ask.faces.tui.wrapping import wrapped
from pi_ask.i18n import N_, gettext
from pi_ask.state.model import REVIEW_ACTIONS, AskState
from pi_ask.state.review_tab import ReviewEntry, review_entries
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.words import NOT_SENT, REQUIRED, shown

REVIEW_TITLE = N_("Review answers")
UNANSWERED = N_("unanswered")
WIDE_MIN_WIDTH = 64
_MIN_REVIEW_WIDTH = 24
_NOTE_INDENT = "     "


def action_column_width() -> int:
    """Width of the widest action row (`❯ 2. Elaborate`)."""
    return max(
        text_width(f"{POINTER}{n}. {shown(label)}")
        for n, label in enumerate(REVIEW_ACTIONS, start=1)
    )


def _entry_lines(entry: ReviewEntry, width: int) -> list[Line]:
    lines = list(wrapped(sanitize_line(entry.label), width, theme.TEXT, span("", " ")))
    if entry.is_unanswered:
        unanswered = span(theme.DIM, f"→ {gettext(UNANSWERED)}")
        mark = span(theme.WARNING, f" {gettext(REQUIRED)}") if entry.required else span("", "")
        lines.append(truncate(join(span("", "   "), unanswered, mark), width))
        return [*lines, *_unsent_lines(entry, width)]
    if entry.note:
        lines += saved_note(entry.note, width, _NOTE_INDENT)
    arrow, more = span("", "   "), span("", "     ")
    if entry.one_per_line:
        for choice in entry.choices:
            lines += wrapped(f"→ {sanitize_block(choice.label)}", width, theme.SUCCESS, arrow, more)
            if choice.note:
                lines += saved_note(choice.note, width, _NOTE_INDENT)
    elif entry.choices:
        text = ", ".join(sanitize_block(choice.label) for choice in entry.choices)
        style = theme.TEXT if entry.custom_only else theme.SUCCESS
        lines += wrapped(f"→ {text}", width, style, arrow, more)
    for label, note in entry.other_notes:
        lines += saved_note(note, width, _NOTE_INDENT, label=label)
    return [*lines, *_unsent_lines(entry, width)]


def _unsent_lines(entry: ReviewEntry, width: int) -> list[Line]:
    """Notes on options not chosen, each followed by the dim mark saying Submit drops it."""
    lines: list[Line] = []
    mark = span("", _NOTE_INDENT + "  ")
    for label, note in entry.unsent_notes:
        lines += saved_note(note, width, _NOTE_INDENT, label=label)
        lines += wrapped(f"({gettext(NOT_SENT)})", width, theme.DIM, mark)
    return lines


def review_lines(state: AskState, width: int) -> list[Line]:
    """`` Review answers``, a blank line, then each question's entry, blank-separated."""
    lines = list(wrapped(gettext(REVIEW_TITLE), width, theme.ACCENT, span("", " ")))
    lines.append(EMPTY)
    entries = review_entries(state)
    for index, (entry, question) in enumerate(zip(entries, state.questions, strict=True)):
        lines += _entry_lines(entry, width)
        lines += attached_lines(state, question.id, width, _NOTE_INDENT)
        if index < len(entries) - 1:
            lines.append(EMPTY)
    return lines


def action_lines(state: AskState, width: int) -> list[Line]:
    """`❯ 1. Submit`, `  2. Elaborate`, `  3. Cancel` with the highlighted one in accent."""
    lines: list[Line] = []
    for index, label in enumerate(REVIEW_ACTIONS):
        chosen = index == state.action
        prefix = span("", POINTER if chosen else "  ")
        style = theme.ACCENT if chosen else theme.TEXT
        lines += wrapped(f"{index + 1}. {shown(label)}", width, style, prefix)
    return lines


def render_review(state: AskState, width: int, hint: str | None) -> Body:
    """The body of the review tab; ``hint`` is the double-press hint, when shown.

    The review lines scroll; the actions (beside them, or under them when stacked) and the
    hint do not, so the cursor and the hint stay on screen however long the review is.
    """
    left = action_column_width()
    hint_lines = [EMPTY, *wrapped(shown(hint), width, theme.DIM, span("", " "))] if hint else []
    if width >= WIDE_MIN_WIDTH and width - left - 2 >= _MIN_REVIEW_WIDTH:
        actions = tuple(action_lines(state, left))
        reviews = review_lines(state, max(1, width - left - 2))
        return Body(tuple(reviews), None, side=(actions, left), pinned=tuple(hint_lines))
    pinned = [EMPTY, *action_lines(state, width), *hint_lines]
    return Body(tuple(review_lines(state, width)), None, pinned=tuple(pinned))
