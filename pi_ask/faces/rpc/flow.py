"""The portable dialog flow: one ``select`` card per question, over any dialog port.

Where the rich TUI cannot be drawn but a host can show simple dialogs (pi RPC clients, IDE
front ends), questions are asked one after another (behaviour.md §12):

- the card's title is ``[i/N] `` + the flow title and `` — `` when there is one + ``label:
  prompt``; its options are the declared options flattened into strings (number, label,
  `` (recommended)``, description, preview), then ``Type something…``;
- choosing an option records that one option, even on a multi question;
- ``Type something…`` opens one ``input`` dialog; its text is trimmed and recorded as a
  single-choice custom answer, blank text leaves the question unanswered;
- a dismissed card or input skips the question (its answer is cleared);
- an answer that is none of the offered strings cancels the whole flow (python-port.md §6
  decision 9), as does the abort signal (``timeout`` once the deadline has passed);
- after the last question the result is a normal submit.

No notes, review tab, elaboration or type changes exist here. Display strings never replace
canonical labels or values: answers are recorded from the option itself. Every answer and
the end reach the state through ``state.dispatcher.apply``, as the other faces' keys do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pi_ask.ask.services import now_ms
from pi_ask.contract.payload import Option, Question
from pi_ask.state.commands import Abort, ChooseOnly, Command, SubmitAnswers, TypeAnswer
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour, Selection

TYPE_SOMETHING = "Type something…"
SEPARATOR = " — "
PLACEHOLDER_MULTI = "Enter one or more answers"
PLACEHOLDER_SINGLE = "Enter your answer"


class DialogPort(Protocol):
    """The two dialogs a host offers. Both block until answered, dismissed or aborted.

    ``None`` means dismissed (or given up because the abort signal fired). A port raises
    :class:`InvalidResponse` when the host answered with something that is no answer at all.
    """

    def select(self, title: str, options: Sequence[str]) -> str | None: ...

    def input(self, title: str, placeholder: str) -> str | None: ...


class AbortSignal(Protocol):
    """Anything with ``is_set()``, such as :class:`threading.Event`."""

    def is_set(self) -> bool: ...


class InvalidResponse(Exception):
    """The host answered a dialog with a value of the wrong kind; the flow is cancelled."""


@dataclass(frozen=True, slots=True)
class _NeverAborted:
    def is_set(self) -> bool:
        return False


def compact(text: str) -> str:
    """Every whitespace run, newlines included, becomes one space; ends trimmed."""
    return " ".join(text.split())


def dialog_title(state: AskState, index: int, *, custom: bool = False) -> str:
    """The title of question ``index``'s card, or of its input dialog when ``custom``."""
    question = state.questions[index]
    title = f"[{index + 1}/{len(state.questions)}] "
    if state.title:
        title += compact(state.title) + SEPARATOR
    title += f"{compact(question.label)}: {compact(question.prompt)}"
    return title + SEPARATOR + TYPE_SOMETHING if custom else title


def option_text(option: Option, position: int) -> str:
    """One option flattened for a select card; ``position`` is its 1-based place."""
    text = f"{position}. {compact(option.label)}"
    if option.recommended:
        text += " (recommended)"
    if option.description:
        text += SEPARATOR + compact(option.description)
    if option.preview:
        text += SEPARATOR + "Preview: " + compact(option.preview)
    return text


def card_options(question: Question) -> tuple[tuple[str, Selection | None], ...]:
    """The card's strings, each with the selection it records (``None``: type something).

    The number prefix keeps every string unique, so a returned string maps back to exactly
    one option.
    """
    rows: list[tuple[str, Selection | None]] = [
        (option_text(option, position), Selection(option.value, option.label, position))
        for position, option in enumerate(question.options, 1)
        if not option.freeform
    ]
    rows.append((TYPE_SOMETHING, None))
    return tuple(rows)


class _Cancelled(Exception):
    """Internal: stop asking; the flow ends cancelled with the answers so far."""


def run_dialog_flow(
    state: AskState,
    port: DialogPort,
    *,
    abort: AbortSignal | None = None,
    report: Callable[[str], None] | None = None,
    on_commit: Callable[[AskState], None] | None = None,
    deadline_ms: int | None = None,
) -> AskState:
    """Ask every question of ``state`` through ``port`` and return the flow's final state.

    Args:
        state: the flow state (``state.opening.new_state``, with a draft's answers when the
            ask is resumed: a dismissed card keeps its question's answer).
        port: the host's dialogs.
        abort: checked before and after every dialog; once set, the flow is cancelled.
        report: told in one line why a flow was cancelled by an unreadable answer.
        on_commit: called with the state after every answered card (the draft hook).
        deadline_ms: when the ask times out (epoch ms): an abort after it is a ``timeout``.

    Returns:
        A completed state: submitted, or cancelled keeping the answers given so far.

    Example:
        >>> build_result(run_dialog_flow(new_state(payload), port)).details.mode
        'submit'
    """
    signal = abort if abort is not None else _NeverAborted()
    try:
        for index in range(len(state.questions)):
            before, state = state, _ask(state, index, port, signal)
            if on_commit is not None and state.answers != before.answers:
                on_commit(state)
    except _Cancelled:
        return _aborted(state, deadline_ms)
    except InvalidResponse as err:
        if report is not None:
            report(f"{err}; the ask is cancelled")
        return _send(state, Abort())
    if signal.is_set():
        return _aborted(state, deadline_ms)
    return _send(state, SubmitAnswers())


def _send(state: AskState, command: Command) -> AskState:
    return apply(state, command, Behaviour())


def _aborted(state: AskState, deadline_ms: int | None) -> AskState:
    timed_out = deadline_ms is not None and now_ms() >= deadline_ms
    return _send(state, Abort(reason="timeout" if timed_out else "aborted"))


def _ask(state: AskState, index: int, port: DialogPort, signal: AbortSignal) -> AskState:
    question = state.questions[index]
    rows = card_options(question)
    if signal.is_set():
        raise _Cancelled
    choice = port.select(dialog_title(state, index), [text for text, _ in rows])
    if signal.is_set():
        raise _Cancelled
    if choice is None:
        return state  # skipped: the question keeps what it had (nothing, or a draft's answer)
    chosen = dict(rows)
    if choice not in chosen:
        raise InvalidResponse(
            f"the answer {choice[:80]!r} to question {index + 1} is none of the "
            f"{len(rows)} options offered"
        )
    selection = chosen[choice]
    if selection is not None:
        return _send(state, ChooseOnly(question.id, selection.value))
    placeholder = PLACEHOLDER_MULTI if question.type == "multi" else PLACEHOLDER_SINGLE
    text = port.input(dialog_title(state, index, custom=True), placeholder)
    if signal.is_set():
        raise _Cancelled
    if text is None:
        return state
    # Trimmed like every other save path (python-port.md §6 decision 5); blank = unanswered.
    return _send(state, TypeAnswer(question.id, text))
