"""Loading a payload: raw text or decoded arguments in, a valid payload or its issues out.

The pipeline, in order (python-port.md §10, behaviour.md §2):

1. text only: at most 1 MiB, UTF-8, valid JSON (``document.decode_document``);
2. JSON data nested at most 32 levels deep (``document.check_document``);
3. label preparation (``prepare_payload``);
4. field names (a near miss of an absent field is a typo, ``field_names``), the structural
   check, then the semantic rules, all issues collected;
5. normalization.

Whole-payload problems (steps 1-2, or a payload that is not an object) stop the pipeline with one
issue whose path is ``""``. Nothing here raises on bad input: every problem is an issue.
"""

from typing import NamedTuple, cast

from pi_ask.contract.document import check_document, decode_document
from pi_ask.contract.field_names import check_field_names, typo_targets
from pi_ask.contract.kinds import Issue, JsonObject
from pi_ask.contract.normalization import normalize
from pi_ask.contract.payload import AskPayload
from pi_ask.contract.preparation import prepare_payload
from pi_ask.contract.semantics import check_semantics
from pi_ask.contract.structure import check_structure


class LoadedPayload(NamedTuple):
    """A valid payload.

    Attributes:
        payload: The normalized payload the engine runs on.
        params: The prepared, un-normalized arguments: what the session log persists as
            ``ask:payload`` ``params`` (behaviour.md §15.1).
    """

    payload: AskPayload
    params: JsonObject
    # JSON paths of fields no object knows (and no typo of one): accepted, listed once by the
    # caller (stderr in the CLI, ``warnings.warn`` in the Python API).
    unknown_fields: tuple[str, ...] = ()


class InvalidPayload(NamedTuple):
    """A payload that cannot be asked, with every reason.

    Attributes:
        issues: At least one issue, structural ones first, then the semantic ones.
        raw_title: The payload's ``title`` exactly as given when it is a string, else ``None``.
        prepared: The arguments after label preparation, in whatever shape they came; ``None``
            when the source text could not be decoded.
    """

    issues: tuple[Issue, ...]
    raw_title: str | None = None
    prepared: object = None


def _raw_title(params: object) -> str | None:
    title = params.get("title") if isinstance(params, dict) else None
    # A title JSON cannot carry (a lone surrogate) must not reach the printed result.
    return title if isinstance(title, str) and check_document(title) is None else None


def _validate(
    params: object, *, present_single_as_multi: bool, allow_freeform: bool
) -> LoadedPayload | InvalidPayload:
    problem = check_document(params)
    if problem is not None:
        return InvalidPayload((problem,), _raw_title(params), params)
    prepared = prepare_payload(params)
    # Before labels are derived: a derived label must not hide a misspelt "lable".
    names = check_field_names(params)
    issues = check_structure(prepared) + check_semantics(prepared, allow_freeform=allow_freeform)
    if names.typos:
        # "did you mean prompt" says it all: no second "prompt is required" for the same field.
        targets = typo_targets(names.typos)
        kept = (i for i in issues if not (i.path in targets and i.message.endswith("required")))
        issues = (*names.typos, *kept)
    if issues:
        return InvalidPayload(issues, _raw_title(prepared), prepared)
    payload = normalize(prepared, present_single_as_multi=present_single_as_multi)
    return LoadedPayload(payload, cast(JsonObject, prepared), names.unknown)


def parse_payload(
    source: str | bytes, *, present_single_as_multi: bool = False, allow_freeform: bool = False
) -> LoadedPayload | InvalidPayload:
    """Load a payload from raw JSON text (a PAYLOAD file, standard input, an RPC line).

    Args:
        source: The JSON text; bytes are read as UTF-8 (a leading BOM is allowed).
        present_single_as_multi: Present requested ``single`` questions as ``multi``.
        allow_freeform: Accept ``freeform: true`` options (``pi-ask answer`` forms only).

    Returns:
        ``LoadedPayload`` when valid, else ``InvalidPayload``; never raises on bad input.

    Example:
        >>> parse_payload("[]").issues
        (Issue(path='', message='payload must be a JSON object'),)
    """
    params = decode_document(source)
    if isinstance(params, Issue):
        return InvalidPayload((params,))
    return _validate(
        params, present_single_as_multi=present_single_as_multi, allow_freeform=allow_freeform
    )


def load_payload(
    source: str | bytes | object,
    *,
    present_single_as_multi: bool = False,
    allow_freeform: bool = False,
) -> LoadedPayload | InvalidPayload:
    """Load a payload from JSON text or from already-decoded arguments: the one entry point.

    ``str``/``bytes`` go through ``parse_payload``; anything else is taken as decoded tool
    arguments (a ``dict`` from ``json.loads``, a session entry, a Python API call). Arrays must
    be ``list`` and objects ``dict``, as ``json.loads`` makes them.

    Args:
        source: JSON text, or the decoded arguments.
        present_single_as_multi: Present requested ``single`` questions as ``multi``.
        allow_freeform: Accept ``freeform: true`` options (``pi-ask answer`` forms only).

    Returns:
        ``LoadedPayload`` when valid, else ``InvalidPayload``; never raises on bad input.

    Example:
        >>> loaded = load_payload({"questions": [{"id": "lang", "prompt": "Language?",
        ...     "options": [{"value": "python"}]}]})
        >>> loaded.payload.questions[0].options[0].label
        'Python'
    """
    if isinstance(source, (str, bytes)):
        return parse_payload(
            source, present_single_as_multi=present_single_as_multi, allow_freeform=allow_freeform
        )
    return _validate(
        source, present_single_as_multi=present_single_as_multi, allow_freeform=allow_freeform
    )
