"""The words users read for keys and actions: one table, so every face and doc says the same.

Footers, the dirty guard, README.md and docs/keymaps.md are checked against this table
(tests/test_words.py), and it is the message source for translations: a word shown next to a
key comes from here or nowhere. The table holds the English message ids; the functions here
return them in the user's language (``pi_ask.i18n``), except the ``english_*`` ones, which the
pure engine (``state/``) uses so that its values stay English and a face translates them with
``shown``. Esc *cancels* the ask, Ctrl+C *dismisses* it (behaviour.md
§5.9); both end it unanswered, dismiss also from inside an editor without saving it.
"""

import re
from typing import Final, NamedTuple

from pi_ask.i18n import N_, gettext, ngettext


class Word(NamedTuple):
    """The word shown after an action's keys, and what it does (for docs and translators)."""

    text: str
    meaning: str


ACTION_WORDS: Final[dict[tuple[str, str], Word]] = {
    ("global", "dismiss"): Word(N_("dismiss"), "end the ask unanswered, even from an editor"),
    ("global", "settings"): Word(N_("settings"), "open the settings overlay"),
    ("main", "confirm"): Word(N_("confirm"), "choose the option under the cursor and go on"),
    ("main", "cancel"): Word(N_("cancel"), "end the ask unanswered"),
    ("main", "toggle"): Word(N_("toggle"), "tick or untick the option (several answers)"),
    ("main", "change_question_type"): Word(N_("question type"), "switch one answer / several"),
    ("main", "option_note"): Word(N_("note"), "write a note on the option under the cursor"),
    ("main", "question_note"): Word(N_("note"), "write a note on the whole question"),
    ("main", "attach"): Word(N_("attach"), "attach a copy of a file to the current answer"),
    ("main", "detach"): Word(N_("detach"), "remove the file attached last to the current answer"),
    ("editor", "submit"): Word(N_("submit"), "keep the typed answer"),
    ("editor", "close"): Word(N_("close"), "close the editor, keeping what was typed as a draft"),
    ("note_editor", "save"): Word(N_("save"), "keep the note"),
    ("note_editor", "close"): Word(N_("close"), "close the note editor"),
}
"""Action → its word, for every action a footer names."""

CONTINUE: Final = Word(N_("continue"), "confirm on a question with several answers: go on")
"""What ``main.confirm`` reads on a question that takes several answers."""

HOTKEYS: Final = Word(N_("hotkeys"), "the review's number keys: 1 Submit, 2 Elaborate, 3 Cancel")
"""The review's digits (``1..9``), which are not configurable."""

DIRTY_GUARD: Final = N_("Unsaved ask answers or drafts. Press {keys} again to discard.")
"""The dirty-dismiss guard (behaviour.md §6.4), naming the keys that discard."""

NOT_SENT: Final = N_("not sent unless you choose it or Elaborate")
"""The review's mark on a note written on an option that is not chosen (Submit drops it)."""

NO_TERMINAL_LINE: Final = (
    "pi-ask: {why}, so nothing was asked; to answer later, start it with pi-ask ask --detach "
    "(or --wait) and answer with pi-ask inbox, pi-ask attach or pi-ask web"
)
"""``pi-ask ask``'s stderr line when it returns ``no_terminal`` (the model's text says the same).
It stays English in every language: the agent that ran the command reads it too."""
NO_TERMINAL_TO_DRAW_ON: Final = "no terminal to draw on"
NO_TERMINAL_REACHED: Final = "no terminal could reach you"

DEFERRED: Final = N_("Deferred: the ask is still pending (pi-ask inbox lists it)")
"""What the terminal keeps after the inbox's defer key put the open ask back."""

REQUIRED: Final = N_("(required)")
"""The mark of a question the payload flags ``required``: advisory, Submit still goes through
(behaviour.md keeps it so), but it shows on the question and on the review when unanswered."""

OR: Final = N_(" or ")
"""Between two sets of keys that do the same (``Esc or Ctrl+C``)."""

TYPE_CHANGE_CONFIRM: Final = N_(
    "Switching to single-select will clear selected options for this question. "
    "Press the type key again to confirm."
)
"""The notice before a type change that would drop selections (behaviour.md §5.8)."""

TYPE_CHANGED: Final = N_("Question type changed from {old} to {new}.")
"""The notice after a type change; ``old`` and ``new`` are question types (``QUESTION_TYPES``)."""

QUESTION_TYPES: Final = {"single": N_("single"), "multi": N_("multi"), "preview": N_("preview")}
"""A question type as the notices name it."""

REVIEW_IDLE_HINT: Final = N_("Press 1, 2, or 3 twice to confirm a review action.")
REVIEW_PENDING_HINT: Final = N_("Press {digit} again to {action}.")
"""The review's double-press hints (behaviour.md §6.5); ``action`` is a ``REVIEW_ACTIONS`` word."""

REVIEW_ACTIONS: Final = (N_("Submit"), N_("Elaborate"), N_("Cancel"))
"""The review tab's actions, in row order (digits 1-3 pick them)."""

REVIEW_TAB: Final = N_("Review")
CUSTOM_LABEL: Final = N_("Type your own")
FREEFORM_LABEL: Final = N_("Type your answer:")
"""The synthetic rows: after a question's options, and the one row of a freeform question."""

# Engine texts with fields: ``shown`` reads the fields back out of the English text and
# fills the translated template, translating the fields that hold words.
_TEMPLATES: Final = (TYPE_CHANGED, REVIEW_PENDING_HINT)
_WORD_FIELDS: Final = frozenset({"old", "new", "action"})


def action_word(context: str, action: str) -> str:
    """The word shown after ``context.action``'s keys.

    Example:
        >>> action_word("main", "cancel"), action_word("global", "dismiss")
        ('cancel', 'dismiss')
    """
    return gettext(ACTION_WORDS[(context, action)].text)


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
    keys = gettext(OR).join(dict.fromkeys(named)) or gettext(ACTION_WORDS[("main", "cancel")].text)
    return gettext(DIRTY_GUARD).format(keys=keys)


def english_dirty_guard(cancel_keys: str, dismiss_keys: str) -> str:
    """The guard in English, as the engine holds it (a face shows it with ``shown``)."""
    named = [keys for keys in (cancel_keys, dismiss_keys) if keys]
    return DIRTY_GUARD.format(keys=OR.join(dict.fromkeys(named)) or "cancel")


def question_count(count: int) -> str:
    """``1 question``, ``2 questions`` (never ``1 question(s)``)."""
    return ngettext("{count} question", "{count} questions", count).format(count=count)


def english_plural(count: int, singular: str, plural: str) -> str:
    """The English word for ``count`` of something, in the lines that stay English for now
    (configuration problems: docs/translating.md); others use ``ngettext``."""
    return singular if count == 1 else plural


def _template_pattern(template: str) -> str:
    return "".join(
        f"(?P<{part[1:-1]}>.+?)" if part.startswith("{") else re.escape(part)
        for part in re.split(r"(\{\w+\})", template)
        if part
    )


def shown(text: str) -> str:
    """An English text of the engine (a notice, a hint, a label) in the user's language.

    A text the catalogues do not know (a config notice, payload text) is returned as it is.

    Example:
        >>> shown("Question type changed from single to multi.")
        'Question type changed from single to multi.'
    """
    translated = gettext(text)
    if translated != text:
        return translated
    for template in _TEMPLATES:
        found = re.fullmatch(_template_pattern(template), text)
        if found is not None:
            fields = {
                name: gettext(value) if name in _WORD_FIELDS else value
                for name, value in found.groupdict().items()
            }
            return gettext(template).format(**fields)
    return text
