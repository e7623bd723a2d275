"""Question fixtures built straight from the contract dataclasses, and a command runner."""

from __future__ import annotations

from pi_ask.contract.payload import AskPayload, Option, Question, QuestionType
from pi_ask.state.commands import Command
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from pi_ask.state.opening import new_state

DEFAULT = Behaviour()
NO_GUARD = Behaviour(confirm_dismiss_when_dirty=False)
SINGLE_PRESS = Behaviour(double_press_review_shortcuts=False)
AUTO_SUBMIT = Behaviour(auto_submit_when_answered_without_notes=True)


def option(
    value: str,
    label: str | None = None,
    *,
    description: str | None = None,
    preview: str | None = None,
    recommended: bool | None = None,
) -> Option:
    return Option(value, label or value.capitalize(), description, preview, recommended)


def question(
    qid: str,
    *values: str,
    type: QuestionType = "single",
    requested: QuestionType | None = None,
    label: str | None = None,
    prompt: str | None = None,
) -> Question:
    return Question(
        id=qid,
        label=label or qid.capitalize(),
        prompt=prompt or f"Pick {qid}?",
        type=type,
        requested_type=requested or type,
        options=tuple(option(v) for v in values),
    )


def freeform(qid: str) -> Question:
    return Question(
        id=qid,
        label=qid.capitalize(),
        prompt=f"Describe {qid}.",
        type="single",
        requested_type="single",
        options=(Option(value="freeform", label="Type answer", freeform=True),),
    )


LANG = question("lang", "py", "go", "rs", label="Language")
FEAT = question("feat", "login", "export", "sync", type="multi", label="Features")
LAYOUT = Question(
    id="layout",
    label="Layout",
    prompt="Pick a layout.",
    type="preview",
    requested_type="preview",
    options=(
        Option("flat", "Single file", preview="config.toml"),
        Option("split", "Split", preview="config/"),
    ),
)


def start(*questions: Question, title: str | None = None) -> AskState:
    return new_state(AskPayload(questions=questions or (LANG, FEAT, LAYOUT), title=title))


def run(state: AskState, *commands: Command, behaviour: Behaviour = DEFAULT) -> AskState:
    for command in commands:
        state = apply(state, command, behaviour)
    return state
