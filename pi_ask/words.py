"""The words users read for keys and actions: one table, so every face and doc says the same.

Footers, the dirty guard, README.md and docs/keymaps.md are checked against this table
(tests/test_words.py), and it is the message source for translations: a word shown next to a
key comes from here or nowhere. Esc *cancels* the ask, Ctrl+C *dismisses* it (behaviour.md
§5.9); both end it unanswered, dismiss also from inside an editor without saving it.
"""

from typing import Final, NamedTuple


class Word(NamedTuple):
    """The word shown after an action's keys, and what it does (for docs and translators)."""

    text: str
    meaning: str


ACTION_WORDS: Final[dict[tuple[str, str], Word]] = {
    ("global", "dismiss"): Word("dismiss", "end the ask unanswered, even from an editor"),
    ("global", "settings"): Word("settings", "open the settings overlay"),
    ("main", "confirm"): Word("confirm", "choose the option under the cursor and go on"),
    ("main", "cancel"): Word("cancel", "end the ask unanswered"),
    ("main", "toggle"): Word("toggle", "tick or untick the option (several answers)"),
    ("main", "change_question_type"): Word("question type", "switch one answer / several"),
    ("main", "option_note"): Word("note", "write a note on the option under the cursor"),
    ("main", "question_note"): Word("note", "write a note on the whole question"),
    ("editor", "submit"): Word("submit", "keep the typed answer"),
    ("editor", "close"): Word("close", "close the editor, keeping what was typed as a draft"),
    ("note_editor", "save"): Word("save", "keep the note"),
    ("note_editor", "close"): Word("close", "close the note editor"),
}
"""Action → its word, for every action a footer names."""

CONTINUE: Final = Word("continue", "confirm on a question with several answers: go on")
"""What ``main.confirm`` reads on a question that takes several answers."""

HOTKEYS: Final = Word("hotkeys", "the review's number keys: 1 Submit, 2 Elaborate, 3 Cancel")
"""The review's digits (``1..9``), which are not configurable."""

DIRTY_GUARD: Final = "Unsaved ask answers or drafts. Press {keys} again to discard."
"""The dirty-dismiss guard (behaviour.md §6.4), naming the keys that discard."""

NOT_SENT: Final = "not sent unless you choose it or Elaborate"
"""The review's mark on a note written on an option that is not chosen (Submit drops it)."""

NO_TERMINAL_LINE: Final = (
    "pi-ask: {why}, so nothing was asked; to answer later, start it with pi-ask ask --detach "
    "(or --wait) and answer with pi-ask inbox, pi-ask attach or pi-ask web"
)
"""``pi-ask ask``'s stderr line when it returns ``no_terminal`` (the model's text says the same)."""
NO_TERMINAL_TO_DRAW_ON: Final = "no terminal to draw on"
NO_TERMINAL_REACHED: Final = "no terminal could reach you"

DEFERRED: Final = "Deferred: the ask is still pending (pi-ask inbox lists it)"
"""What the terminal keeps after the inbox's defer key put the open ask back."""

OR: Final = " or "


def action_word(context: str, action: str) -> str:
    """The word shown after ``context.action``'s keys.

    Example:
        >>> action_word("main", "cancel"), action_word("global", "dismiss")
        ('cancel', 'dismiss')
    """
    return ACTION_WORDS[(context, action)].text


def hint(keys: str, word: str) -> str:
    """One footer chunk: the keys, then the word (``Esc cancel``)."""
    return f"{keys} {word}"


def dirty_guard(cancel_keys: str, dismiss_keys: str) -> str:
    """The guard's text naming the keys that discard, each set once.

    Example:
        >>> dirty_guard("Esc", "Ctrl+C")
        'Unsaved ask answers or drafts. Press Esc or Ctrl+C again to discard.'
    """
    named = [keys for keys in (cancel_keys, dismiss_keys) if keys]
    return DIRTY_GUARD.format(keys=OR.join(dict.fromkeys(named)) or "cancel")


def question_count(count: int) -> str:
    """``1 question``, ``2 questions`` (never ``1 question(s)``)."""
    return f"{count} question" if count == 1 else f"{count} questions"
