"""The ``pi-ask answer`` corpus (tests/fixtures/answer_corpus) and how a form is scored on it.

A case is exactly right when the extracted form has the questions a person listed, in order,
each with the same prompt, the same option labels and the same multi flag, compared after
folding markdown emphasis, surrounding punctuation, case and whitespace.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent.parent / "fixtures" / "answer_corpus"
_EMPHASIS = re.compile(r"\*\*|__|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_EDGE_PUNCTUATION = " \t\n.,;:!?\"'()[]-—–"
_WORD = re.compile(r"\w(?:[\w.+/-]*\w)?")


@dataclass(frozen=True, slots=True)
class Expected:
    """One question as a person lists it."""

    prompt: str
    options: tuple[str, ...]
    multi: bool


@dataclass(frozen=True, slots=True)
class Case:
    """One assistant message of the corpus and its questions."""

    file: str
    name: str
    message: str
    questions: tuple[Expected, ...]
    source: str = ""  # the public thread a real agent's message was quoted in

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"


def load_corpus() -> tuple[Case, ...]:
    """Every case of every ``*.toml`` file, in file and case order."""
    cases: list[Case] = []
    for path in sorted(CORPUS.glob("*.toml")):
        for raw in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            questions = tuple(
                Expected(q["prompt"], tuple(q["options"]), bool(q.get("multi", False)))
                for q in raw.get("questions", [])
            )
            cases.append(
                Case(path.stem, raw["name"], raw["message"], questions, raw.get("source", ""))
            )
    return tuple(cases)


def fold(text: str) -> str:
    """Text with emphasis, surrounding punctuation, case and whitespace folded."""
    plain = _EMPHASIS.sub("", text)
    return " ".join(plain.split()).strip(_EDGE_PUNCTUATION).casefold()


def found_questions(form: dict[str, object]) -> tuple[Expected, ...]:
    """The questions of an extracted form, in the corpus's terms."""
    out: list[Expected] = []
    questions = form.get("questions")
    assert isinstance(questions, list)
    for question in questions:
        options = tuple(
            str(o.get("label", o.get("value")))
            for o in question["options"]
            if not o.get("freeform")
        )
        out.append(Expected(question["prompt"], options, question.get("type") == "multi"))
    return tuple(out)


def differences(case: Case, form: dict[str, object]) -> list[str]:
    """What the form gets wrong about the case; empty when it is exactly right."""
    found = found_questions(form)
    problems: list[str] = []
    if len(found) != len(case.questions):
        problems.append(f"{len(found)} questions, expected {len(case.questions)}")
    for number, (want, got) in enumerate(zip(case.questions, found, strict=False), start=1):
        if fold(want.prompt) != fold(got.prompt):
            problems.append(f"q{number} prompt {got.prompt!r}, expected {want.prompt!r}")
        if [fold(o) for o in want.options] != [fold(o) for o in got.options]:
            problems.append(f"q{number} options {list(got.options)}, expected {list(want.options)}")
        if want.multi != got.multi:
            problems.append(f"q{number} multi {got.multi}, expected {want.multi}")
    return problems


def invented(case: Case, form: dict[str, object]) -> list[str]:
    """Options not made of the message's own words, or cut through a parenthesis (yes/no aside)."""
    words = set(_WORD.findall(fold(case.message)))
    out: list[str] = []
    for question in found_questions(form):
        for option in question.options:
            folded = fold(option)
            if folded in ("yes", "no"):
                continue
            if not set(_WORD.findall(folded)) <= words or option.count("(") != option.count(")"):
                out.append(option)
    return out


def score(extract: Callable[[str], dict[str, object]]) -> tuple[int, list[str]]:
    """How many cases ``extract`` gets exactly right, and a line for each one it does not."""
    right = 0
    report: list[str] = []
    for case in load_corpus():
        problems = differences(case, extract(case.message))
        if problems:
            report.append(f"{case.id}: " + "; ".join(problems))
        else:
            right += 1
    return right, report
