"""A validated remote submission replacing all answers (behaviour.md §13, "On success")."""

from __future__ import annotations

from pi_ask.state.commands import (
    Digit,
    MoveOption,
    OpenQuestionNote,
    ReplaceAnswers,
    SubmitEditor,
    SubmittedAnswer,
)
from pi_ask.state.model import Answer, EditAnswer, Review, Selection
from pi_ask.state.selectors import answer_for
from tests.state.builders import FEAT, LANG, freeform, run, start


def test_replaces_every_answer_and_completes_on_review() -> None:
    state = run(start(LANG, FEAT), Digit(1), OpenQuestionNote(), SubmitEditor("kept?"))
    state = run(state, ReplaceAnswers((("feat", SubmittedAnswer(values=("sync", "login"))),)))
    assert answer_for(state, "lang") is None
    assert answer_for(state, "feat") == Answer(
        selected=(Selection("sync", "Sync", 3), Selection("login", "Login", 1))
    )
    assert (state.completed, state.cancelled, state.mode) == (True, False, "submit")
    assert (state.tab, state.view) == (2, Review())


def test_mode_elaborate_is_kept() -> None:
    state = run(start(LANG), ReplaceAnswers((), mode="elaborate"))
    assert (state.completed, state.mode, state.answers) == (True, "elaborate", ())


def test_custom_text_counts_as_selected_and_is_trimmed() -> None:
    answers = (("lang", SubmittedAnswer(custom_text="  Zig ")),)
    state = run(start(LANG), ReplaceAnswers(answers))
    assert answer_for(state, "lang") == Answer(custom_text="Zig", custom_selected=True)


def test_blank_text_and_notes_are_dropped() -> None:
    submitted = SubmittedAnswer(
        custom_text="  ", note=" ", option_notes=(("py", " "), ("go", " fast "))
    )
    state = run(start(LANG), ReplaceAnswers((("lang", submitted),)))
    assert answer_for(state, "lang") == Answer(option_notes=(("go", "fast"),))


def test_works_from_an_open_editor() -> None:
    state = run(start(freeform("details")))
    assert state.view == EditAnswer("details")
    answers = (("details", SubmittedAnswer(custom_text="all")),)
    state = run(state, ReplaceAnswers(answers))
    assert state.completed
    assert answer_for(state, "details") == Answer(custom_text="all", custom_selected=True)


def test_unknown_ids_and_values_are_skipped() -> None:
    answers = (
        ("nope", SubmittedAnswer(values=("x",))),
        ("feat", SubmittedAnswer(values=("login", "bogus"), option_notes=(("bogus", "n"),))),
    )
    state = run(start(FEAT), ReplaceAnswers(answers))
    assert answer_for(state, "feat") == Answer(selected=(Selection("login", "Login", 1),))


def test_single_choice_keeps_one_choice_even_if_given_more() -> None:
    answers = (("lang", SubmittedAnswer(values=("go", "rs"), custom_text="x")),)
    state = run(start(LANG), MoveOption(1), ReplaceAnswers(answers))
    assert answer_for(state, "lang") == Answer(selected=(Selection("go", "Go", 2),))
