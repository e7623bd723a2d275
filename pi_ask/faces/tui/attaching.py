"""The TUI's attach action (python-port.md §12): a path prompt, and taking a file off again.

``main.attach`` opens a one-line prompt under the question, completing paths from the same
file list as the editors' ``@`` (``@path`` typed in an answer or a note stays text, as in
the reference: attaching is this explicit action). The answer editor's submit key copies
the file (``pi_ask.ask.attachments``, the I/O and the words every terminal face shares)
and hands the engine an ``AttachFile``; a refusal stays under the prompt with what was
typed, so nothing is lost. ``main.detach`` takes the file attached last off the current
answer (``DetachFile``). The prompt is the face's own, like the settings overlay: the engine
only sees the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.faces.tui import theme
from pi_ask.faces.tui.editor_field import EditorField, FileIndexHolder
from pi_ask.faces.tui.editor_view import AttachView, render_editor
from pi_ask.faces.tui.styled_text import Line, span
from pi_ask.faces.tui.wrapping import wrapped
from pi_ask.i18n import N_, gettext
from pi_ask.state.selectors import answer_for, current_question
from pi_ask.terminal_text import sanitize_block

if TYPE_CHECKING:
    from pi_ask.contract.attachments import Attachment, FileLimits
    from pi_ask.state.commands import AttachFile, DetachFile
    from pi_ask.state.model import AskState

PROMPT_TITLE = N_("Attach a copy of a file to this answer (under this folder or home):")
PROMPT_PLACEHOLDER = N_("path/to/file")
NO_QUESTION = N_("Go to a question to attach a file to its answer.")
_INDENT = " "


def attachment_text(item: Attachment) -> str:
    """``name (size)``, the name made inert for a terminal."""
    from pi_ask.contract.attachments import size_text

    return f"{sanitize_block(item.name)} ({size_text(item.size)})"


def attached_lines(
    state: AskState, question_id: str, width: int, indent: str = _INDENT
) -> list[Line]:
    """``Attached 1: shot.png (12.0 KB)`` per file of the question's answer, muted."""
    answer = answer_for(state, question_id)
    if answer is None or not answer.attachments:
        return []
    from pi_ask.ask.attachments import ATTACHED_LINE  # loaded once there are files

    lines: list[Line] = []
    for number, item in enumerate(answer.attachments, start=1):
        text = gettext(ATTACHED_LINE).format(number=number, file=attachment_text(item))
        lines += wrapped(text, width, theme.MUTED, span("", indent), span("", indent + "  "))
    return lines


def render_attach_prompt(view: AttachView, width: int) -> list[Line]:
    """The prompt's title, its editor bar and menu, then the refusal (a warning)."""
    title = wrapped(gettext(PROMPT_TITLE), width, theme.ACCENT, span("", _INDENT))
    lines = [*title, *render_editor(view.editor, width, _INDENT, PROMPT_PLACEHOLDER)]
    if view.problem:
        lines += wrapped(sanitize_block(view.problem), width, theme.WARNING, span("", _INDENT))
    return lines


class Attaching:
    """One flow's attach prompt: open or closed, the path typed, the last refusal.

    Args:
        files: The flow's file list (shared with the editors' ``@`` completion).
        folder: The ask's attachments folder; ``None``: this host cannot carry files.
        cwd: The working folder (relative paths start there; files must be under it or home).
    """

    def __init__(self, files: FileIndexHolder, folder: Path | None, cwd: Path) -> None:
        self.field = EditorField(files, bare=True)
        self.folder = folder
        self.cwd = cwd
        self.is_open = False
        self.problem: str | None = None

    @property
    def possible(self) -> bool:
        """True when the host gave the ask a folder for files."""
        return self.folder is not None

    def open(self, state: AskState) -> str | None:
        """Open the prompt on the current question; a notice when it cannot be opened."""
        if self.folder is None:
            from pi_ask.ask.attachments import CANNOT_ATTACH

            return gettext(CANNOT_ATTACH)
        if current_question(state) is None:
            return gettext(NO_QUESTION)
        self.is_open, self.problem = True, None
        self.field.load("")
        return None

    def close(self) -> None:
        """Close the prompt (what was typed goes with it)."""
        self.is_open, self.problem = False, None
        self.field.clear()

    def take(self, state: AskState, limits: FileLimits) -> tuple[AttachFile | None, str]:
        """Copy the file typed in the prompt into the ask's folder, within ``limits``
        (``FaceRequest.file_limits``).

        Returns:
            The command that attaches the copy and the notice saying so; or ``None`` and the
            refusal, which also stays under the open prompt.
        """
        from pi_ask.ask.attachments import ATTACHED, CANNOT_ATTACH, AttachRefused, attach_command

        question = current_question(state)
        if self.folder is None or question is None:
            self.close()
            return None, gettext(CANNOT_ATTACH if self.folder is None else NO_QUESTION)
        try:
            command = attach_command(
                self.field.text, state, question.id, folder=self.folder, limits=limits, cwd=self.cwd
            )
        except AttachRefused as refused:
            self.problem = str(refused)
            return None, self.problem
        self.close()
        return command, gettext(ATTACHED).format(file=attachment_text(command.attachment))

    def view(self) -> AttachView | None:
        """What the frame draws for the prompt, while it is open."""
        return AttachView(self.field.view(), self.problem) if self.is_open else None


def detach_last(state: AskState) -> tuple[DetachFile | None, str]:
    """The command taking the current answer's last attached file off, and the notice; or
    ``None`` and why there is nothing to take off."""
    from pi_ask.ask.attachments import NOTHING_ATTACHED, REMOVED
    from pi_ask.state.commands import DetachFile

    question = current_question(state)
    if question is None:
        return None, gettext(NO_QUESTION)
    answer = answer_for(state, question.id)
    if answer is None or not answer.attachments:
        return None, gettext(NOTHING_ATTACHED)
    item = answer.attachments[-1]
    return DetachFile(question.id, item.path), gettext(REMOVED).format(file=attachment_text(item))
