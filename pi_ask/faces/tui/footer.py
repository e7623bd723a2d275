"""Footer hints (behaviour.md §7.8), written from the live keymaps.

The hint of an action is built from the keys that really trigger it, so a remapped key shows
up in the footer at once and the footer can never disagree with the keyboard.
"""

from __future__ import annotations

from typing import Literal

from pi_ask.faces.tui.styled_text import text_width
from pi_ask.faces.tui.wrapping import wrap_text
from pi_ask.i18n import gettext
from pi_ask.keymaps.contexts import Action, Context
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.words import CONTINUE, HOTKEYS, action_word, hint

FooterKind = Literal["single", "multi", "review", "editor", "note_editor", "attach"]
SEPARATOR = " · "
DIGITS_LABEL = "1..9"


def footer_chunks(
    kind: FooterKind, keymaps: Keymaps, attach: tuple[bool, bool] = (False, False)
) -> list[str]:
    """The hint chunks of one footer, in order: keys from the keymaps, words from the table.

    ``attach``: on a question, whether files can be attached, and whether its answer has one
    (the attach and detach hints show only then, so an ask that cannot carry files keeps
    the reference's footer).
    """

    def chunk(context: Context, action: Action) -> str:
        return hint(keymaps.label(context, action), action_word(context, action))

    settings = chunk("global", "settings")
    if kind == "attach":
        # The prompt is an editor: the answer editor's keys attach and close it.
        attach_word = action_word("main", "attach")
        return [hint(keymaps.label("editor", "submit"), attach_word), chunk("editor", "close")]
    if kind == "editor":
        return [chunk("editor", "submit"), chunk("editor", "close"), settings]
    if kind == "note_editor":
        return [chunk("note_editor", "save"), chunk("note_editor", "close"), settings]
    if kind == "review":
        return [
            hint(DIGITS_LABEL, gettext(HOTKEYS.text)),
            chunk("main", "confirm"),
            chunk("main", "cancel"),
            settings,
        ]
    notes = f"{keymaps.label('main', 'option_note')}/{keymaps.label('main', 'question_note')}"
    confirm = gettext(CONTINUE.text) if kind == "multi" else action_word("main", "confirm")
    chunks = [
        hint(keymaps.ids_label("main", "change_question_type"),
             action_word("main", "change_question_type")),
        hint(keymaps.label("main", "confirm"), confirm),
        hint(notes, action_word("main", "option_note")),
        chunk("main", "cancel"),
        settings,
    ]  # fmt: skip
    attachable, detachable = attach
    if detachable:
        chunks.insert(3, chunk("main", "detach"))
    if attachable:
        chunks.insert(3, chunk("main", "attach"))
    if kind == "multi":
        chunks.insert(0, chunk("main", "toggle"))
    return chunks


def footer_text(
    kind: FooterKind, keymaps: Keymaps, attach: tuple[bool, bool] = (False, False)
) -> str:
    """The whole footer on one line, starting with one space."""
    return " " + SEPARATOR.join(footer_chunks(kind, keymaps, attach))


def wrap_footer(text: str, width: int) -> list[str]:
    """Wrap a ``·``-separated footer: chunks join while they fit, else start a new line.

    Continuation lines are indented like the first (its leading space), so a wrapped footer
    reads as one block (a third-wave deviation from the reference's flush-left lines).

    Example:
        >>> wrap_footer(" Esc cancel · ? settings", 14)
        [' Esc cancel', ' ? settings']
    """
    indent = text[: len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    for chunk in text.strip(" ").split(SEPARATOR):
        candidate = f"{lines[-1]}{SEPARATOR}{chunk}" if lines else indent + chunk
        if text_width(candidate) <= width:
            lines[-1:] = [candidate]
        else:
            room = max(1, width - text_width(indent))
            lines.extend(indent + piece for piece in wrap_text(chunk, room))
    return lines
