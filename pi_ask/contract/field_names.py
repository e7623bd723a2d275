"""Field names a payload may use, and the typos of them that would silently change a question.

Payload objects are open (behaviour.md §1.1): an unknown field is accepted and ignored. But
``"promt"`` or ``"tpye"`` is no extension, it is a misspelt field whose absence changes the
question (a required prompt missing, a multi question asked as single). So an unknown name
within Damerau-Levenshtein distance 1 of a field the same object lacks — 2 when that field's
name has 6 letters or more — is an invalid payload with "did you mean"; any other unknown
name stays accepted and is handed back for the caller to list once (python-port.md §12).
"""

from typing import NamedTuple

from pi_ask.contract.kinds import Issue
from pi_ask.contract.locations import option_issue, question_issue

TOP_FIELDS = ("title", "questions")
QUESTION_FIELDS = ("id", "label", "prompt", "type", "required", "options")
OPTION_FIELDS = ("value", "label", "description", "preview", "recommended")
# Accepted only in ``pi-ask answer`` forms (allow_freeform); never a typo target.
_OPTION_EXTRAS = ("freeform",)


class FieldReport(NamedTuple):
    """What the field names of a payload say.

    Attributes:
        typos: One issue per unknown name that is a near miss of an absent field.
        unknown: The JSON paths of the other unknown names, in document order.
    """

    typos: tuple[Issue, ...] = ()
    unknown: tuple[str, ...] = ()


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (optimal string alignment): edits, swaps of neighbours.

    Example:
        >>> edit_distance("tpye", "type"), edit_distance("promt", "prompt")
        (1, 1)
    """
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                best = min(best, previous2[j - 2] + 1)
            current.append(best)
        previous2, previous = previous, current
    return previous[-1]


def near_miss(name: str, absent: tuple[str, ...]) -> str | None:
    """The absent field ``name`` is a typo of, if any (the closest; ties: the first listed).

    Case counts as one edit per letter, so ``Prompt`` is a typo of ``prompt``.

    Example:
        >>> near_miss("lable", ("label", "type")), near_miss("colour", ("label",))
        ('label', None)
    """
    best: tuple[int, str] | None = None
    for field in absent:
        allowed = 2 if len(field) >= 6 else 1
        distance = edit_distance(name, field)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, field)
    return None if best is None else best[1]


def _did_you_mean(name: str, field: str) -> str:
    return f'unknown field "{name}"; did you mean "{field}"?'


def check_field_names(params: object) -> FieldReport:
    """Typos of field names (issues) and the other unknown fields (paths), in document order.

    Args:
        params: Prepared tool arguments in any shape; parts that are not objects are skipped
            (the structural check reports them).

    Example:
        >>> report = check_field_names({"questions": [{"id": "a", "promt": "?", "x": 1}]})
        >>> report.typos[0].message, report.unknown
        ('Question 1: unknown field "promt"; did you mean "prompt"?', ('questions[0].x',))
    """
    if not isinstance(params, dict):
        return FieldReport()
    typos: list[Issue] = []
    unknown: list[str] = []

    def sort(obj: dict[object, object], known: tuple[str, ...], path: str) -> list[tuple[str, str]]:
        """Unknown names go to ``unknown``; (name, field) of the near misses are returned."""
        absent = tuple(field for field in known if field not in obj)
        misses = []
        for name in obj:
            if not isinstance(name, str) or name in known:
                continue
            field = near_miss(name, absent)
            if field is None:
                unknown.append(f"{path}.{name}" if path else name)
            else:
                misses.append((name, field))
        return misses

    typos += (Issue(n, _did_you_mean(n, f)) for n, f in sort(params, TOP_FIELDS, ""))
    questions = params.get("questions")
    for index, question in enumerate(questions if isinstance(questions, list) else ()):
        if not isinstance(question, dict):
            continue
        misses = sort(question, QUESTION_FIELDS, f"questions[{index}]")
        typos += (question_issue(index, n, _did_you_mean(n, f)) for n, f in misses)
        options = question.get("options")
        for option_index, option in enumerate(options if isinstance(options, list) else ()):
            if not isinstance(option, dict):
                continue
            fields = {k: v for k, v in option.items() if k not in _OPTION_EXTRAS}
            misses = sort(fields, OPTION_FIELDS, f"questions[{index}].options[{option_index}]")
            typos += (option_issue(index, option_index, n, _did_you_mean(n, f)) for n, f in misses)
    return FieldReport(tuple(typos), tuple(unknown))


def typo_targets(typos: tuple[Issue, ...]) -> frozenset[str]:
    """The paths of the fields the typos stand for (``questions[0].prompt``), whose
    "is required" issues the typo's "did you mean" replaces."""
    targets = set()
    for issue in typos:
        head, _, _name = issue.path.rpartition(".")
        field = issue.message.rsplit('"', 2)[-2]
        targets.add(f"{head}.{field}" if head else field)
    return frozenset(targets)
