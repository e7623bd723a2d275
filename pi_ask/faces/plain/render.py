"""The plain face's words: the state drawn as plain lines, no colour, no cursor movement.

Everything a colour or a glyph says in the TUI is said here in words — ``(recommended)``,
``(chosen)``, ``not chosen`` — so a screen reader, a log or a serial console lose nothing.
Payload text is sanitized like everywhere else (python-port.md §7): no escape sequence a
payload carries reaches the terminal.
"""

from __future__ import annotations

from pi_ask.contract.attachments import Attachment, size_text
from pi_ask.contract.payload import Option, Question
from pi_ask.i18n import N_, gettext, ngettext
from pi_ask.markdown.clean_text import plain_lines, plain_text
from pi_ask.state.dismissal import DISMISS_NOTICE
from pi_ask.state.model import REVIEW_ACTIONS, AskState
from pi_ask.state.question_types import TYPE_CHANGE_CONFIRM_NOTICE
from pi_ask.state.review_tab import ReviewEntry, review_entries
from pi_ask.state.selectors import Row, answer_for, is_row_selected, question_rows
from pi_ask.terminal_text import sanitize_block, sanitize_line
from pi_ask.words import NOT_SENT, REQUIRED, dirty_guard, shown

PREVIEW_LINES = 12
"""Preview lines shown under an option before ``/preview N`` is needed for the rest."""

QUESTION_PROMPT = N_("answer> ")
TEXT_PROMPT = N_("your answer> ")
REVIEW_PROMPT = N_("review> ")
"""The prompts (English message ids: the flow shows them with ``gettext``)."""

HELP = N_("""\
How to answer:
  a number (2) chooses that option; a list (1,3) chooses several on a multiple-choice question
  any other line is your own answer; start it with \\ to begin it with / or a digit
  an empty line keeps the answer as it is and goes to the next question
Commands:
  /note N text   write a note on option N (/note N alone removes it)
  /qnote text    write a note on the question (/qnote alone removes it)
  /attach PATH   attach a copy of a file (under this folder or home) to this answer
  /detach N      remove attached file N from this answer
  /back          go to the previous question
  /review        go to the review
  /skip          leave this question unanswered and go on
  /type          switch the question between one answer and several
  /preview N     show all of option N's preview
  /cancel        cancel the ask (Ctrl+C too); with answers given, asked twice
  /help          this help
End of input (Ctrl+D) ends the ask without an answer; it can be resumed later.""")
"""The ``/help`` text (a message id: shown with ``gettext``)."""

# What the engine's notices say about keys, in the plain face's words.
NOTICE_HINTS = {
    TYPE_CHANGE_CONFIRM_NOTICE: N_(" (Type /type again.)"),
}


def notice_text(notice: str) -> str:
    """An engine notice in the plain face's words and the user's language.

    The guard names the plain face's own keys (it has no Esc); a notice about the type key
    says which command repeats it.
    """
    if notice == DISMISS_NOTICE:
        return dirty_guard("Ctrl+C", "/cancel")
    hint = NOTICE_HINTS.get(notice)
    return shown(notice) + (gettext(hint) if hint else "")


_INDENT = "     "
ELABORATE = REVIEW_ACTIONS.index("Elaborate")
_KIND = {
    "single": N_("choose one"),
    "multi": N_("choose any number"),
    "preview": N_("choose one, each option has a preview"),
}


def _block(text: str, indent: str) -> list[str]:
    """A multi-line payload text (Markdown as clean text), each line after ``indent``."""
    return [indent + line for line in sanitize_block(plain_text(text)).split("\n")]


def _labelled(label: str, text: str, indent: str = "") -> list[str]:
    """``label`` then a multi-line text, its later lines indented under its first."""
    first, *rest = sanitize_block(plain_text(text)).split("\n")
    under = indent + " " * len(label)
    return [indent + label + first, *(under + line for line in rest)]


def title_lines(state: AskState) -> list[str]:
    """The flow's opening lines: its title and how many questions follow."""
    count = len(state.questions)
    lines = [f"pi-ask: {sanitize_line(state.title)}"] if state.title else []
    lines.append(
        ngettext(
            "{count} question. Type /help at any prompt for the commands.",
            "{count} questions. Type /help at any prompt for the commands.",
            count,
        ).format(count=count)
    )
    return lines


def question_lines(state: AskState, index: int) -> list[str]:
    """Question ``index`` as it stands: header, prompt, numbered rows, notes, how to answer."""
    question = state.questions[index]
    kind = gettext("type your answer") if question.is_freeform else _KIND.get(question.type, "")
    header = gettext("Question {number} of {total}: {label} ({kind})").format(
        number=index + 1,
        total=len(state.questions),
        label=sanitize_line(question.label),
        kind=gettext(kind) if kind else "",
    )
    if question.required:
        header += f" {gettext(REQUIRED)}"
    lines = ["", header, *_block(question.prompt, "")]
    answer = answer_for(state, question.id)
    for row in question_rows(question):
        lines += _row_lines(state, question, row)
    if answer is not None and answer.note:
        lines += _labelled(gettext("Question note: "), answer.note)
    if answer is not None and answer.attachments:
        from pi_ask.ask.attachments import ATTACHED_LINE  # loaded once there are files

        lines += [
            "  " + gettext(ATTACHED_LINE).format(number=number, file=attachment_text(item))
            for number, item in enumerate(answer.attachments, start=1)
        ]
    lines.append(how_to_answer(question))
    return lines


def attachment_text(item: Attachment) -> str:
    """``name (size)``, the name made inert."""
    return f"{sanitize_line(item.name)} ({size_text(item.size)})"


def how_to_answer(question: Question) -> str:
    """The one line under the rows saying what to type."""
    if question.is_freeform:
        return gettext("Type your answer; an empty line keeps it and goes on.")
    last = len(question_rows(question))
    if question.type == "multi":
        return gettext(
            "Type the numbers you choose (1,3), from 1 to {last}, or your own answer; "
            "an empty line keeps the answer and goes on."
        ).format(last=last)
    return gettext(
        "Type a number from 1 to {last}, or your own answer; "
        "an empty line keeps the answer and goes on."
    ).format(last=last)


def _row_lines(state: AskState, question: Question, row: Row) -> list[str]:
    chosen = is_row_selected(state, question, row)
    answer = answer_for(state, question.id)
    if row.is_custom:
        if question.is_freeform:
            text = answer.custom_text if answer is not None else None
            return [gettext("Your answer: ") + sanitize_line(text)] if text else []
        text = answer.custom_text if answer is not None else None
        line = f"  {row.number}. {shown(row.label)}"
        if text:
            line += f": {sanitize_line(text)} " + (
                gettext("(chosen)") if chosen else gettext("(not chosen)")
            )
        return [line]
    option = row.option
    assert option is not None
    line = f"  {row.number}. {sanitize_line(row.label)}"
    if option.recommended:
        line += " " + gettext("(recommended)")
    if chosen:
        line += " " + gettext("(chosen)")
    lines = [line]
    if option.description:
        lines += _block(option.description, _INDENT)
    if option.preview:
        lines += preview_lines(option, row.number or 0, PREVIEW_LINES)
    note = answer.option_note(option.value) if answer is not None else None
    if note:
        lines += _labelled(gettext("Note: "), note, _INDENT)
    return lines


def preview_lines(option: Option, number: int, limit: int | None) -> list[str]:
    """Option ``number``'s preview under ``Preview:``, cut to ``limit`` lines when given."""
    visible, hidden = plain_lines(option.preview or "", limit)
    lines = [
        _INDENT + gettext("Preview:"),
        *(_INDENT + "  " + sanitize_block(line) for line in visible),
    ]
    if hidden:
        more = ngettext(
            "({hidden} more line: /preview {number} shows them all)",
            "({hidden} more lines: /preview {number} shows them all)",
            hidden,
        )
        lines.append(_INDENT + more.format(hidden=hidden, number=number))
    return lines


def review_lines(state: AskState) -> list[str]:
    """Every answer and every note, then the three actions."""
    # Listed as with Submit highlighted (what 1 sends), note-only questions shown too; notes
    # on options not chosen show, marked as not sent.
    submit = review_entries(state._replace(action=0))
    elaborate = review_entries(state._replace(action=ELABORATE))
    entries = tuple(
        s if s.choices else e._replace(other_notes=(), unsent_notes=s.unsent_notes)
        for s, e in zip(submit, elaborate, strict=True)
    )
    lines = ["", gettext("Review your answers")]
    for question, entry in zip(state.questions, entries, strict=True):
        answer = answer_for(state, question.id)
        typed = answer is not None and answer.custom_selected and bool(answer.custom_text)
        lines += _entry_lines(entry, typed)
    actions = ", ".join(f"{n} {shown(label)}" for n, label in enumerate(REVIEW_ACTIONS, start=1))
    lines.append(
        gettext("Type {actions}. /back returns to the last question.").format(actions=actions)
    )
    return lines


def recorded_line(state: AskState, question: Question) -> str | None:
    """ "Recorded: SQLite": what a question now holds, said as the flow moves on from it;
    ``None`` when it holds no answer."""
    index = next(i for i, q in enumerate(state.questions) if q.id == question.id)
    entry = review_entries(state._replace(action=0))[index]
    if not entry.choices:
        return None
    answer = ", ".join(sanitize_line(choice.label) for choice in entry.choices)
    return gettext("Recorded: {answer}").format(answer=answer)


def _entry_lines(entry: ReviewEntry, typed: bool) -> list[str]:
    """One question's review lines; ``typed``: its last choice is the user's own text."""
    label = sanitize_line(entry.label)
    if not entry.choices:
        lines = [f"  {label}: " + gettext("unanswered")]
        if entry.required:
            lines[0] += f" {gettext(REQUIRED)}"
    else:
        texts = [sanitize_line(choice.label) for choice in entry.choices]
        if typed:
            texts[-1] += " " + gettext("(your own answer)")
        lines = [f"  {label}: {', '.join(texts)}"]
        lines += [
            "    "
            + gettext("Note on {option}: {note}").format(
                option=sanitize_line(choice.label), note=sanitize_line(choice.note)
            )
            for choice in entry.choices
            if choice.note
        ]
    if entry.note:
        lines.append("    " + gettext("Question note: ") + sanitize_line(entry.note))
    lines += [
        "    "
        + gettext("Note on {option} ({mark}): {note}").format(
            option=sanitize_line(option), mark=gettext(NOT_SENT), note=sanitize_line(note)
        )
        for option, note in entry.unsent_notes
    ]
    return lines
