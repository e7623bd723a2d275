"""Typed lines turned into the engine commands a TUI user's keys would send.

A number is the cursor moved to that row and Enter (Space on a multi question), text is the
answer editor opened on ``Type your own`` and saved, ``/note 2 text`` the note editor opened
on row 2 and saved, a review digit the highlight moved and Enter. The engine decides what
follows (advancing, the dirty-dismiss guard, auto-submit, the type-change confirmation).
``PlainFlow`` supplies the state, the way to send commands and the way to speak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.faces.plain import render
from pi_ask.faces.plain.lines import (
    Empty,
    Numbers,
    Slash,
    Text,
    Typed,
    Unknown,
    parse_line,
    split_number,
)
from pi_ask.i18n import gettext
from pi_ask.state.commands import (
    Cancel,
    ChangeQuestionType,
    CloseEditor,
    Command,
    Confirm,
    MoveOption,
    MoveTab,
    OpenOptionNote,
    OpenQuestionNote,
    SubmitEditor,
    Toggle,
)
from pi_ask.state.model import AskState, EditAnswer, EditNote
from pi_ask.state.selectors import (
    answer_for,
    current_question,
    editor_draft,
    is_review_tab,
    is_row_selected,
    question_rows,
)

if TYPE_CHECKING:
    from pi_ask.ask.face import FaceRequest
    from pi_ask.contract.payload import Question


class _Problem(Exception):
    """A line that cannot be applied: its message is printed and nothing changes."""


class LineAnswers:
    """What each typed line does to the flow (mixed into ``PlainFlow``)."""

    state: AskState
    # The custom row was chosen without text: the next line is that text.
    _awaiting_text: bool
    _shown: object
    _request: FaceRequest

    def _send(self, *commands: Command) -> None:
        raise NotImplementedError

    def _say(self, *lines: str) -> None:
        raise NotImplementedError

    # --- one line -----------------------------------------------------------------------------

    def _line(self, line: str) -> None:
        """One line; when it leaves a question with an answer, one line says what was kept."""
        left = None if is_review_tab(self.state) else current_question(self.state)
        self._handle_line(line)
        if left is not None and not self.state.completed and current_question(self.state) != left:
            recorded = render.recorded_line(self.state, left)
            if recorded is not None:
                self._say(recorded)

    def _handle_line(self, line: str) -> None:
        typed = parse_line(line)
        try:
            if self._awaiting_text:
                self._awaiting_text = False
                if not isinstance(typed, Slash | Unknown):
                    self._typed_text(line)
                    return
            if isinstance(typed, Unknown):
                raise _Problem(
                    gettext("There is no command {command}; /help lists them.").format(
                        command=typed.word
                    )
                )
            if isinstance(typed, Slash):
                self._command(typed)
            elif is_review_tab(self.state):
                self._review_line(typed)
            else:
                self._question_line(typed, line)
        except _Problem as problem:
            self._say(str(problem))

    def _question_line(self, typed: Typed, line: str) -> None:
        question = self._question()
        if isinstance(typed, Empty):
            self._move_on()
        elif isinstance(typed, Numbers) and not question.is_freeform:
            self._choose(question, typed.values)
        else:
            text = typed.text if isinstance(typed, Text) else line
            self._own_answer(question, text)
            if question.type == "multi":
                self._move_on()

    def _review_line(self, typed: Typed) -> None:
        if isinstance(typed, Numbers) and len(typed.values) == 1 and 1 <= typed.values[0] <= 3:
            self._send(MoveOption(typed.values[0] - 1 - self.state.action), Confirm())
            return
        raise _Problem(
            gettext("Type 1 to submit, 2 to ask for elaboration, 3 to cancel; /help for more.")
        )

    def _typed_text(self, line: str) -> None:
        """The line after choosing ``Type your own``: the text, or empty for none."""
        question = self._question()
        if line.strip():
            self._own_answer(question, line.removeprefix("\\"))
            if question.type != "multi":
                return
        self._move_on()

    # --- answering ----------------------------------------------------------------------------

    def _question(self) -> Question:
        question = current_question(self.state)
        if question is None:
            raise _Problem(gettext("That works on a question: /back goes to the last one."))
        return question

    def _leave_editor(self) -> None:
        """Close an editor the engine opened by itself (on an empty ``Type your own`` row)."""
        if isinstance(self.state.view, EditAnswer | EditNote):
            self._send(CloseEditor(editor_draft(self.state)))

    def _go_to_row(self, index: int) -> None:
        self._send(MoveOption(index - self.state.row))

    def _move_on(self) -> None:
        self._leave_editor()
        self._send(MoveTab(1))

    def _own_answer(self, question: Question, text: str) -> None:
        """Open the answer editor on ``Type your own`` and save ``text`` (the engine trims)."""
        self._leave_editor()
        self._go_to_row(len(question_rows(question)) - 1)
        if not isinstance(self.state.view, EditAnswer):
            self._send(Confirm())
        self._send(SubmitEditor(text))

    def _choose(self, question: Question, numbers: tuple[int, ...]) -> None:
        rows = question_rows(question)
        wrong = [n for n in numbers if not 1 <= n <= len(rows)]
        if wrong:
            raise _Problem(
                gettext("There is no option {number}: type a number from 1 to {last}.").format(
                    number=wrong[0], last=len(rows)
                )
            )
        if question.type == "multi":
            self._choose_several(question, numbers)
        elif len(numbers) > 1:
            raise _Problem(
                gettext("This question takes one answer: type one number (/type allows several).")
            )
        elif numbers[0] == len(rows):
            self._choose_own(question)
        else:
            self._leave_editor()
            self._go_to_row(numbers[0] - 1)
            self._send(Confirm())

    def _choose_own(self, question: Question) -> None:
        """``Type your own`` on a one-answer question: its saved text, or ask for the text."""
        answer = answer_for(self.state, question.id)
        if answer is not None and answer.custom_text:
            self._own_answer(question, answer.custom_text)
        else:
            self._ask_for_text()

    def _ask_for_text(self) -> None:
        self._awaiting_text = True
        self._say(gettext("Type your answer (an empty line goes on without one)."))

    def _choose_several(self, question: Question, numbers: tuple[int, ...]) -> None:
        """Make the chosen options exactly ``numbers`` (in that order), by toggling rows."""
        self._leave_editor()
        rows = question_rows(question)
        custom = len(rows)
        for index, row in enumerate(rows[:-1]):
            if is_row_selected(self.state, question, row) and index + 1 not in numbers:
                self._go_to_row(index)
                self._send(Toggle())
        for number in numbers:
            if number != custom and not is_row_selected(self.state, question, rows[number - 1]):
                self._go_to_row(number - 1)
                self._send(Toggle())
        answer = answer_for(self.state, question.id)
        if answer is None or not answer.custom_text:
            if custom in numbers:
                self._ask_for_text()
                return
        elif answer.custom_selected != (custom in numbers):
            self._go_to_row(custom - 1)
            self._send(Toggle())
        self._move_on()

    def _skip(self, question: Question) -> None:
        """Leave the question unanswered (notes stay) and go on."""
        self._leave_editor()
        rows = question_rows(question)
        for index, row in enumerate(rows[:-1]):
            if is_row_selected(self.state, question, row):
                self._go_to_row(index)
                self._send(Toggle())
        if is_row_selected(self.state, question, rows[-1]):
            if question.type == "multi":
                self._go_to_row(len(rows) - 1)
                self._send(Toggle())
            else:
                self._own_answer(question, "")
        self._move_on()

    # --- commands -----------------------------------------------------------------------------

    def _command(self, typed: Slash) -> None:
        name, rest = typed.name, typed.rest
        if name == "help":
            self._say(gettext(render.HELP))
        elif name == "cancel":
            self._send(Cancel())
        elif name == "review":
            self._leave_editor()
            self._shown = None
            self._send(MoveTab(len(self.state.questions) - self.state.tab))
        elif name == "back":
            if self.state.tab == 0:
                raise _Problem(gettext("This is the first question."))
            self._leave_editor()
            self._send(MoveTab(-1))
        elif name == "skip":
            self._skip(self._question())
        elif name == "type":
            self._question()
            self._leave_editor()
            self._send(ChangeQuestionType())
        elif name == "qnote":
            self._question_note(rest)
        elif name == "note":
            self._option_note(rest)
        elif name == "preview":
            self._preview(rest)
        elif name == "attach":
            self._attach(rest)
        elif name == "detach":
            self._detach(rest)

    def _attach(self, typed: str) -> None:
        """``/attach PATH``: a copy of the file joins this question's answer."""
        from pathlib import Path

        from pi_ask.ask.attachments import ATTACHED, CANNOT_ATTACH, AttachRefused, attach_command

        question = self._question()
        folder = self._request.attachments_folder
        if folder is None:
            raise _Problem(gettext(CANNOT_ATTACH))
        if not typed:
            raise _Problem(
                gettext("Type /attach and the path of a file (under this folder or home).")
            )
        try:
            command = attach_command(
                typed,
                self.state,
                question.id,
                folder=folder,
                limits=self._request.file_limits(),
                cwd=Path.cwd(),
            )
        except AttachRefused as refused:
            raise _Problem(str(refused)) from None
        self._send(command)
        file = render.attachment_text(command.attachment)
        self._say(gettext(ATTACHED).format(file=file))

    def _detach(self, rest: str) -> None:
        """``/detach N``: attachment N of this question leaves the answer."""
        from pi_ask.ask.attachments import NOTHING_ATTACHED, REMOVED
        from pi_ask.state.commands import DetachFile

        question = self._question()
        answer = answer_for(self.state, question.id)
        items = answer.attachments if answer is not None else ()
        number, _ = split_number(rest)
        if not items:
            raise _Problem(gettext(NOTHING_ATTACHED))
        if number is None or not 1 <= number <= len(items):
            raise _Problem(
                gettext("Type /detach and a number from 1 to {last}.").format(last=len(items))
            )
        item = items[number - 1]
        self._send(DetachFile(question.id, item.path))
        file = render.attachment_text(item)
        self._say(gettext(REMOVED).format(file=file))

    def _question_note(self, text: str) -> None:
        self._question()
        self._leave_editor()
        self._send(OpenQuestionNote(), SubmitEditor(text))
        self._say(gettext("Question note saved.") if text else gettext("Question note removed."))

    def _option_note(self, rest: str) -> None:
        question = self._question()
        number, text = split_number(rest)
        options = len(question_rows(question)) - 1
        if question.is_freeform or number is None or not 1 <= number <= options:
            if question.is_freeform or options < 1:
                raise _Problem(
                    gettext("This question has no options to note; /qnote notes the question.")
                )
            raise _Problem(
                gettext("Type /note, an option number from 1 to {last}, then the note.").format(
                    last=options
                )
            )
        self._leave_editor()
        self._go_to_row(number - 1)
        self._send(OpenOptionNote(), SubmitEditor(text))
        self._say(
            (
                gettext("Note saved on option {number}.")
                if text
                else gettext("Note removed from {number}.")
            ).format(number=number)
        )

    def _preview(self, rest: str) -> None:
        question = self._question()
        number, _ = split_number(rest)
        rows = question_rows(question)
        row = rows[number - 1] if number is not None and 1 <= number < len(rows) else None
        if row is None or row.option is None or not row.option.preview:
            with_preview = [r.number for r in rows if r.option is not None and r.option.preview]
            if not with_preview:
                raise _Problem(gettext("No option of this question has a preview."))
            listed = ", ".join(str(n) for n in with_preview)
            raise _Problem(
                gettext("Type /preview and the number of an option with one: {listed}.").format(
                    listed=listed
                )
            )
        self._say(*render.preview_lines(row.option, number or 0, None))
