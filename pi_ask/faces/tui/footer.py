"""Footer hints (behaviour.md §7.8), written from the live keymaps.

The hint of an action is built from the keys that really trigger it, so a remapped key shows
up in the footer at once and the footer can never disagree with the keyboard.
"""

from __future__ import annotations

from typing import Literal

from pi_ask.faces.tui.styled_text import text_width
from pi_ask.faces.tui.wrapping import wrap_text
from pi_ask.keymaps.keymap import Keymaps

FooterKind = Literal["single", "multi", "review", "editor", "note_editor"]
SEPARATOR = " · "
DIGITS_LABEL = "1..9"


def footer_chunks(kind: FooterKind, keymaps: Keymaps) -> list[str]:
    """The hint chunks of one footer, in order."""
    settings = f"{keymaps.label('global', 'settings')} settings"
    if kind == "editor":
        return [
            f"{keymaps.label('editor', 'submit')} submit",
            f"{keymaps.label('editor', 'close')} close",
            settings,
        ]
    if kind == "note_editor":
        return [
            f"{keymaps.label('note_editor', 'save')} save",
            f"{keymaps.label('note_editor', 'close')} close",
            settings,
        ]
    if kind == "review":
        return [
            f"{DIGITS_LABEL} hotkeys",
            f"{keymaps.label('main', 'confirm')} confirm",
            f"{keymaps.label('main', 'cancel')} cancel",
            settings,
        ]
    notes = f"{keymaps.label('main', 'option_note')}/{keymaps.label('main', 'question_note')}"
    chunks = [
        f"{keymaps.ids_label('main', 'change_question_type')} question type",
        f"{keymaps.label('main', 'confirm')} {'continue' if kind == 'multi' else 'confirm'}",
        f"{notes} note",
        f"{keymaps.label('main', 'cancel')} dismiss",
        settings,
    ]
    if kind == "multi":
        chunks.insert(0, f"{keymaps.label('main', 'toggle')} toggle")
    return chunks


def footer_text(kind: FooterKind, keymaps: Keymaps) -> str:
    """The whole footer on one line, starting with one space."""
    return " " + SEPARATOR.join(footer_chunks(kind, keymaps))


def wrap_footer(text: str, width: int) -> list[str]:
    """Wrap a ``·``-separated footer: chunks join while they fit, else start a new line.

    Example:
        >>> wrap_footer(" Esc dismiss · ? settings", 14)
        [' Esc dismiss', '? settings']
    """
    lines: list[str] = []
    for chunk in text.split(SEPARATOR):
        candidate = f"{lines[-1]}{SEPARATOR}{chunk}" if lines else chunk
        if text_width(candidate) <= width:
            lines[-1:] = [candidate]
        else:
            lines.extend(wrap_text(chunk, width))
    return lines
