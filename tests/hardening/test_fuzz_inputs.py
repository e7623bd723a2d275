"""Fuzz every input pi-ask reads: nothing raises, and every output has its documented shape.

Inputs: payloads (bytes, text, decoded JSON, Python objects), keymap documents, config files
(random text and random TOML documents, plus setting variables), pi RPC response streams, and
session files. Outputs are checked with ``result_shape.check_result``.
"""

from __future__ import annotations

import datetime
import io
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pi_ask.config.catalogue import KEYS
from pi_ask.config.loading import evaluate
from pi_ask.config.problems import ConfigProblem, Notice
from pi_ask.config.settings import Settings
from pi_ask.config.store import SettingsStore
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.contract.payload import AskPayload
from pi_ask.contract.rejection import invalid_result
from pi_ask.faces.rpc.port import run_rpc
from pi_ask.keymaps.clashes import clash_in_scope
from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.key_ids import parse_key_id
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.validation import resolve_keymaps
from pi_ask.session.entries import DISMISSED_TYPE, DRAFT_TYPE, PAYLOAD_TYPE
from pi_ask.session.log import SessionLog, read_session
from pi_ask.session.replay import find_replay
from pi_ask.session.resume import find_resumables, restore
from pi_ask.state.commands import Abort
from pi_ask.state.dispatcher import apply
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result, non_interactive_result
from tests.hardening.payloads import HOSTILE_SNIPPETS, loaded, payload_documents, texts
from tests.hardening.result_shape import check_result

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# C0 controls (ESC among them) never reach a message; problem texts may carry C1 and bidi
# characters from the file, and every face sanitizes them when it shows them
# (test_terminal_injection.py).
C0_CONTROLS = {chr(c) for c in range(0x20)} - {"\n"}

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", " ", "single", "multi", "preview", "a", *HOSTILE_SNIPPETS]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)


def _tmp_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="pi-ask-fuzz-") as name:
        yield Path(name)


# --- payloads -----------------------------------------------------------------------------


def check_outcome(outcome: LoadedPayload | InvalidPayload) -> None:
    """Whatever loading gave, every result made from it has the result's shape."""
    if isinstance(outcome, InvalidPayload):
        assert outcome.issues
        check_result(invalid_result(outcome).to_json())
        return
    payload = outcome.payload
    # The params are what the session log stores: they must be JSON as they are.
    json.dumps(outcome.params, allow_nan=False).encode("utf-8")
    check_result(non_interactive_result(payload).to_json(), payload)
    state = new_state(payload)
    check_result(build_result(state).to_json(), payload)
    check_result(build_result(apply(state, Abort(), _behaviour())).to_json(), payload)


def _behaviour() -> object:
    from pi_ask.state.model import Behaviour

    return Behaviour()


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_as_a_payload(data: bytes) -> None:
    check_outcome(load_payload(data))


@FUZZ
@given(st.text(max_size=200))
def test_any_text_as_a_payload(text: str) -> None:
    check_outcome(load_payload(text))


@FUZZ
@given(json_values)
def test_any_json_value_as_a_payload(value: object) -> None:
    check_outcome(load_payload(value))
    check_outcome(load_payload(json.dumps(value)))


@st.composite
def bent_payloads(draw: st.DrawFn) -> object:
    """A valid payload with one node somewhere replaced by a random JSON value."""
    document: object = draw(payload_documents())
    path: list[object] = []
    node = document
    while isinstance(node, dict | list) and node and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]  # type: ignore[index]
    replacement = draw(json_values)
    if not path:
        return replacement
    parent = document
    for key in path[:-1]:
        parent = parent[key]  # type: ignore[index]
    parent[path[-1]] = replacement  # type: ignore[index]
    return document


@FUZZ
@given(bent_payloads(), st.booleans())
def test_valid_payloads_bent_out_of_shape(document: object, single_as_multi: bool) -> None:
    check_outcome(load_payload(document, present_single_as_multi=single_as_multi))
    check_outcome(load_payload(json.dumps(document), present_single_as_multi=single_as_multi))


@FUZZ
@given(payload_documents(), st.booleans())
def test_valid_payloads_load_and_answer_in_shape(document: object, single_as_multi: bool) -> None:
    outcome = load_payload(document, present_single_as_multi=single_as_multi)
    assert isinstance(outcome, LoadedPayload)
    check_outcome(outcome)
    # The result carries the payload's strings unchanged (only the terminal is sanitized).
    assert {q.id for q in outcome.payload.questions} == {
        q["id"]
        for q in document["questions"]  # type: ignore[index]
    }


python_oddities = st.sampled_from(
    [
        ("tuple", "not", "a list"),
        {"questions": ({"id": "a", "prompt": "p", "options": [{"value": "a"}]},)},
        {"questions": [{"id": "a", "prompt": "p", "options": [{"value": math.nan}]}]},
        {"questions": [{"id": "a", "prompt": "p", "options": [{"value": "a", 1: 2}]}]},
        {"title": "\ud800", "questions": []},
        {"questions": [{"id": "\udfff", "prompt": "p", "options": [{"value": "a"}]}]},
        {"questions": [{"id": "a", "prompt": b"bytes", "options": [{"value": "a"}]}]},
        {"questions": [{"id": "a", "prompt": "p", "options": [{"value": "a"}], "x": {1, 2}}]},
        {"questions": [{"id": "a", "prompt": "p", "options": [{"value": "a", "x": math.inf}]}]},
        object(),
        None,
    ]
)


def _deep(levels: int) -> object:
    node: object = "leaf"
    for _ in range(levels):
        node = [node]
    return {"questions": node}


@FUZZ
@given(st.one_of(python_oddities, st.integers(1, 3000).map(_deep)))
def test_python_objects_json_cannot_carry(value: object) -> None:
    outcome = load_payload(value)
    assert isinstance(outcome, InvalidPayload)
    check_outcome(outcome)


@pytest.fixture(scope="module")
def isolated_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """PI_ASK_CONFIG and PI_ASK_STATE_DIR in a folder of the module's own."""
    root = tmp_path_factory.mktemp("ask-user")
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith("PI_ASK_"):
                patch.delenv(name)
        patch.setenv("PI_ASK_CONFIG", str(root / "config.toml"))
        patch.setenv("PI_ASK_STATE_DIR", str(root / "state"))
        yield root


@settings(max_examples=60, deadline=None)
@given(st.one_of(payload_documents(max_questions=2), bent_payloads(), json_values))
def test_ask_user_without_a_ui(isolated_env: Path, document: object) -> None:
    from pi_ask.api import ask_user

    payload = document if isinstance(document, dict) else json.dumps(document)
    result = ask_user(payload, ui="none")
    outcome = load_payload(payload)
    check_result(result.to_json(), outcome.payload if isinstance(outcome, LoadedPayload) else None)


# --- keymaps ------------------------------------------------------------------------------

_KEY_NAMES = [
    "ctrl+c",
    "enter",
    "esc",
    "tab",
    "ctrl+i",
    "shift+tab",
    "space",
    "up",
    "down",
    "left",
    "right",
    "pageUp",
    "alt+f7",
    "ctrl+shift+x",
    "shift+n",
    "?",
    "1",
    "n",
    "t",
    "ctrl+m",
    "backspace",
    "ctrl+h",
    "hyper+a",
    "CTRL+C",
    " ctrl + c ",
    "",
]
_NAMES = [
    name
    for spec in CONTEXTS
    for name in (spec.name, spec.alias, *(n for a in spec.actions for n in (a.name, a.alias)))
]
_bindings = st.one_of(
    st.sampled_from(_KEY_NAMES),
    st.lists(st.sampled_from(_KEY_NAMES) | json_scalars, max_size=4),
    json_values,
)
keymap_documents = st.one_of(
    json_values,
    st.dictionaries(
        st.sampled_from(_NAMES) | st.text(max_size=6),
        st.one_of(
            st.dictionaries(st.sampled_from(_NAMES) | st.text(max_size=6), _bindings, max_size=6),
            _bindings,
        ),
        max_size=5,
    ),
)


@FUZZ
@given(keymap_documents)
def test_any_keymap_document_resolves(document: object) -> None:
    resolution = resolve_keymaps(document)
    bindings = resolution.keymaps.bindings
    for binding in bindings:
        if not binding.keys:  # only when its default is taken, and then said
            assert any("has no key for this session" in p.message for p in resolution.errors)
        assert all(parse_key_id(key) == key for key in binding.keys)
        # What the session binds never puts two actions on one key.
        others = [other for other in bindings if other is not binding]
        assert clash_in_scope(binding.context, binding.keys, others) is None, binding
    for problem in resolution.problems:
        line = str(problem)
        assert isinstance(problem.message, str) and problem.message
        assert not C0_CONTROLS & set(line), line
    session = resolution.session_keymaps
    assert session == resolution.keymaps
    # Through the config loader, the same document gives the same session keymaps.
    if isinstance(document, dict):
        assert evaluate({"keymaps": document}, {}).settings.keymaps == session


# --- config files -------------------------------------------------------------------------

_SECTIONS = ["behaviour", "notifications", "keymaps", "answer", "Behaviour", "extra"]
_CONFIG_NAMES = [key.key.rpartition(".")[2] for key in KEYS] + [
    "presentSingleAsMulti",
    "showFooterHints",
    "type",
    "command",
    "provider",
    "id",
    "base_url",
]
toml_scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.text(max_size=10),
    st.sampled_from(["bell", "osc9", "osc777", "ntfys://topic", "x://", "auto", "model"]),
    st.datetimes(),
    st.dates(),
    st.times(),
)
toml_values = st.recursive(
    toml_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(_CONFIG_NAMES) | st.text(min_size=1, max_size=6), inner, max_size=3
        )
    ),
    max_leaves=10,
)
config_documents = st.dictionaries(
    st.sampled_from([*_SECTIONS, "schema_version", *_CONFIG_NAMES]),
    st.one_of(
        st.dictionaries(
            st.sampled_from(_CONFIG_NAMES) | st.text(min_size=1, max_size=6),
            toml_values,
            max_size=6,
        ),
        toml_values,
    ),
    max_size=6,
)
toml_fragments = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "[behaviour]\n",
                "[notifications]\n",
                "[keymaps.main]\n",
                "[[answer.extraction_models]]\n",
                "show_footer_hints = false\n",
                'channels = ["osc9", { type = "command", command = "true" }]\n',
                'confirm = ["enter", "ctrl+m"]\n',
                "timeout_s = -1\n",
                "schema_version = 99\n",
                'extractor = "model"\n',
                "= broken\n",
                '"unterminated\n',
                "a.b.c = 1\n",
                "\ufeff",
                "\x00",
            ]
        ),
        st.text(max_size=20),
    ),
    max_size=8,
).map("".join)


def check_store(store: SettingsStore) -> None:
    """Whatever the file held: usable settings, problems as text, a one-line notice."""
    assert isinstance(store.snapshot(), Settings)
    assert isinstance(store.snapshot().keymaps, type(DEFAULT_KEYMAPS))
    for problem in store.problems:
        assert isinstance(problem, ConfigProblem)
        _check_problem(problem)
    notice = store.notice
    # A notice exactly when there is a problem to tell: one line, naming the file.
    assert (notice is None) == (not store.problems), (notice, store.problems)
    if notice is not None:
        assert isinstance(notice, Notice)
        assert notice.kind in ("error", "warning")
        assert notice.text.split(": ", 1)[0].endswith("config.toml"), notice.text
    # The notice may hold characters of unknown key names as they are: the faces sanitize
    # it when they draw it (test_terminal_injection.py).


def _store_on(data: bytes, folder: Path) -> tuple[SettingsStore, Path]:
    path = folder / "config.toml"
    path.write_bytes(data)
    return SettingsStore(path, create=False), path


@FUZZ
@given(st.one_of(toml_fragments, st.text(max_size=80)), st.binary(max_size=40))
def test_any_config_text_loads_settings(text: str, tail: bytes) -> None:
    for folder in _tmp_dir():
        for data in (text.encode("utf-8", "surrogatepass"), text.encode("utf-8", "replace") + tail):
            store, path = _store_on(data, folder)
            check_store(store)
            before = path.read_bytes()
            saved = store.set("behaviour.show_footer_hints", False)
            check_store(store)
            if store.file_status == "not_toml" or not saved.ok:
                # A file we cannot parse (or could not save) is never rewritten.
                assert path.read_bytes() == before
                assert saved.ok or isinstance(saved.error, str)
            else:
                assert store.snapshot().behaviour.show_footer_hints is False


def _dump(document: dict[str, object]) -> str | None:
    try:
        return tomlkit.dumps(document)
    except Exception:  # tomlkit refuses some shapes (e.g. a table inside an inline array)
        return None


@FUZZ
@given(config_documents)
@example({"behaviour": {"\n": []}})  # an unknown key that is a line break
def test_any_toml_document_loads_settings(document: dict[str, object]) -> None:
    for folder in _tmp_dir():
        text = _dump(document)
        if text is None:
            return
        store, _ = _store_on(text.encode("utf-8", "surrogatepass"), folder)
        check_store(store)
        # Same document, both loaders: the fast path and the model agree on the settings.
        import tomllib

        try:
            parsed = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return
        fast = evaluate(parsed, {})
        thorough = evaluate(parsed, {}, thorough=True)
        assert fast.settings == thorough.settings
        assert fast.settings == store.snapshot()


_env_values = st.one_of(
    st.sampled_from(["true", "false", "1", "0", "yes", "", "5", "-1", "nan", "1e999", '["osc9"]']),
    st.text(max_size=10).filter(lambda text: "\x00" not in text),
)


@FUZZ
@example({"PI_ASK_ANSWER__EXTRACTION_MODELS": '["osc9"]'}, {})  # a problem of an entry
@given(
    st.dictionaries(
        st.sampled_from(
            [key.env_var for key in KEYS]
            + ["PI_ASK_KEYMAPS__MAIN__CONFIRM", "PI_ASK_BEHAVIOUR__NOPE", "PI_ASK_"]
        ),
        _env_values,
        max_size=4,
    ),
    config_documents,
)
def test_setting_variables_never_break_loading(
    environ: dict[str, str], document: dict[str, object]
) -> None:
    evaluation = evaluate(document, environ)
    assert isinstance(evaluation.settings, Settings)
    for problem in evaluation.problems:
        _check_problem(problem)
        if problem.key.startswith("PI_ASK_"):  # a variable's problem names a variable given
            # (an entry of a list value is named ``PI_ASK_..._MODELS[0]``)
            assert problem.key.split("[", 1)[0] in environ, (problem, environ)
    # Both loaders agree, with the variables as with the file alone.
    assert evaluate(document, environ, thorough=True).settings == evaluation.settings


def _check_problem(problem: ConfigProblem) -> None:
    """A problem's message is one non-empty line, of a known severity.

    Its key may hold what the file spelled (an unknown key can be any string, even a line
    break): the faces sanitize it when they show it (test_terminal_injection.py).
    """
    assert problem.message.strip(), problem
    assert "\n" not in problem.message, problem
    assert problem.severity in ("error", "warning"), problem


# --- pi RPC streams -----------------------------------------------------------------------

_RESPONSE = "extension_ui_response"
noise_lines = st.one_of(
    st.binary(max_size=30).map(lambda data: data.replace(b"\n", b" ")),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.builds(
        lambda rid, fields: json.dumps({"type": _RESPONSE, "id": rid, **fields}).encode(),
        st.one_of(st.uuids().map(str), st.text(max_size=8), st.integers(), st.none()),
        st.dictionaries(
            st.sampled_from(["value", "cancelled", "confirmed"]), json_values, max_size=2
        ),
    ),
    st.just(b"\xff\xfe not utf-8"),
    st.just(b""),
)
# What the host answers a request with (after its noise).
replies = st.one_of(
    st.tuples(st.just("option"), st.integers(0, 20)),
    st.tuples(st.just("value"), texts),
    st.tuples(st.just("cancelled"), json_values),
    st.tuples(
        st.just("fields"),
        st.dictionaries(st.sampled_from(["value", "cancelled"]), json_values, max_size=2),
    ),
)
# After its last planned answer the host closes stdin, or (rarely) stops answering.
rpc_plans = st.tuples(
    st.lists(st.tuples(st.lists(noise_lines, max_size=3), replies), max_size=8),
    st.sampled_from(["eof", "eof", "eof", "eof", "stall"]),
)


class ScriptedHost:
    """pi's side of the protocol: answers each request line from a plan.

    ``send`` writes bytes to pi-ask's stdin and ``end`` closes it; ``stall`` is called when the
    host stops answering (a request came that the plan has no answer for), which is the moment
    a real host would give up. The host is also the stdout stream of an in-process
    ``run_rpc`` (``write``), or is handed each line (``answer``).
    """

    def __init__(
        self,
        plan: list[tuple[list[bytes], tuple[str, object]]],
        ending: str,
        send: Callable[[bytes], object],
        end: Callable[[], object],
        stall: Callable[[], object],
    ) -> None:
        self.plan = list(plan)
        self.ending = ending
        self._write = send
        self._end = end
        self._stall = stall
        self.requests: list[dict[str, object]] = []
        self.pending = ""
        self.closed = False

    # The stdout stream run_rpc writes request lines to.
    def write(self, text: str) -> int:
        self.pending += text
        while "\n" in self.pending:
            line, self.pending = self.pending.split("\n", 1)
            self.answer(json.loads(line))
        return len(text)

    def flush(self) -> None:
        pass

    def answer(self, request: dict[str, object]) -> None:
        """Reply to one request line as the plan says; past the plan, end or stall."""
        self.requests.append(request)
        if not self.plan:
            if self.ending == "eof":
                self.close()
            else:
                self._stall()
            return
        noise, (kind, arg) = self.plan.pop(0)
        lines = list(noise)
        reply: dict[str, object] = {"type": _RESPONSE, "id": request["id"]}
        options = request.get("options")
        if kind == "option" and isinstance(options, list):
            reply["value"] = options[int(arg) % len(options)]  # type: ignore[call-overload]
        elif kind in ("option", "value"):
            reply["value"] = arg if kind == "value" else "typed"
        elif kind == "cancelled":
            reply["cancelled"] = arg
        elif kind == "fields":
            reply.update(arg)  # type: ignore[arg-type]
        lines.append(json.dumps(reply).encode())
        self._send(b"".join(line + b"\n" for line in lines))

    def _send(self, data: bytes) -> None:
        if not self.closed and data:
            self._write(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._end()


def _reader_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "pi-ask rpc stdin"]


def _check_rpc_run(payload: AskPayload, requests: list[dict[str, object]], notes: str) -> None:
    ids = [request["id"] for request in requests]
    assert len(set(ids)) == len(ids)
    for request in requests:
        assert request["type"] == "extension_ui_request"
        assert str(uuid.UUID(str(request["id"]))) == request["id"]
        assert request["method"] in ("select", "input")
        assert isinstance(request["title"], str) and "\n" not in request["title"]
    assert len(requests) <= 2 * len(payload.questions)
    for line in notes.splitlines():
        assert line.startswith("pi-ask rpc: "), line


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload_documents(max_questions=3), rpc_plans)
def test_rpc_streams_with_random_answers(document: object, plan: tuple) -> None:  # type: ignore[type-arg]
    payload = loaded(document)
    read_fd, write_fd = os.pipe()
    abort = threading.Event()
    # A stalled host is given up on, as a signal would end the flow.
    host = ScriptedHost(*plan, partial(os.write, write_fd), partial(os.close, write_fd), abort.set)
    stderr = io.StringIO()
    started = time.monotonic()
    with os.fdopen(read_fd, "r", closefd=False) as stdin:
        try:
            result = build_result(
                run_rpc(new_state(payload), stdin=stdin, stdout=host, stderr=stderr, abort=abort)
            )  # type: ignore[arg-type]
        finally:
            host.close()
            for reader in _reader_threads():
                reader.join(30)
    os.close(read_fd)
    assert time.monotonic() - started < 60  # a cap: a stalled host must not hang the flow
    details = check_result(result.to_json(), payload)
    _check_rpc_run(payload, host.requests, stderr.getvalue())
    if not details["cancelled"]:
        # A submitted flow asked every question on its own card.
        titles = [r["title"] for r in host.requests if r["method"] == "select"]
        assert len(titles) == len(payload.questions)


@FUZZ
@given(payload_documents(max_questions=2), st.lists(noise_lines, max_size=8))
def test_rpc_stream_of_noise_then_end_of_input(document: object, lines: list[bytes]) -> None:
    payload = loaded(document)
    stdin = io.StringIO(b"\n".join(lines).decode("utf-8", "replace"))
    stdout, stderr = io.StringIO(), io.StringIO()
    result = build_result(run_rpc(new_state(payload), stdin=stdin, stdout=stdout, stderr=stderr))
    details = check_result(result.to_json(), payload)
    assert details["cancelled"] is True
    requests = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert len(requests) == 1
    _check_rpc_run(payload, requests, stderr.getvalue())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload_documents(max_questions=2), rpc_plans)
def test_rpc_streams_through_the_command(
    isolated_env: Path,
    document: object,
    plan: tuple,  # type: ignore[type-arg]
) -> None:
    """``pi-ask ask --ui rpc``: request lines, then one result line; the status agrees."""
    payload = loaded(document)
    path = isolated_env / "rpc-payload.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "pi_ask", "ask", "--ui", "rpc", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=isolated_env,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(data: bytes) -> None:
        process.stdin.write(data)  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    # A stalled host hangs up the way a closed terminal would: SIGTERM, sent once a request
    # is out (so the child's handler is in place) and left unanswered.
    host = ScriptedHost(
        *plan, send, process.stdin.close, partial(process.send_signal, signal.SIGTERM)
    )
    lines: list[dict[str, object]] = []
    try:
        for raw in process.stdout:
            lines.append(json.loads(raw))
            if lines[-1].get("type") == "extension_ui_request":
                host.answer(lines[-1])
        status = process.wait(timeout=60)
    finally:
        host.close()
        process.kill()
        process.wait()
        for stream in (process.stdout, process.stderr):
            stream.close()  # type: ignore[union-attr]
    *requests, result = lines
    assert requests == host.requests
    details = check_result(result, payload)
    _check_rpc_run(payload, host.requests, "")
    expected = {0} if not details["cancelled"] else {1, 128 + signal.SIGTERM}
    assert status in expected, (status, details)


# --- session files ------------------------------------------------------------------------

_entry_ids = st.sampled_from(["a", "b", "c", "d", "line-2", "0"]) | st.integers() | st.none()
session_objects = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("session")},
        optional={"version": st.sampled_from([1, 2, 3, "3", None]), "id": st.text(max_size=4)},
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["custom", "message", "model_change", 7])},
        optional={
            "id": _entry_ids,
            "parentId": _entry_ids,
            "customType": st.sampled_from([PAYLOAD_TYPE, DRAFT_TYPE, DISMISSED_TYPE, "other"]),
            "data": json_values,
        },
    ),
    json_values,
)
session_lines = st.lists(
    st.one_of(
        session_objects.map(lambda value: json.dumps(value).encode()),
        st.binary(max_size=30).map(lambda data: data.replace(b"\n", b"")),
    ),
    max_size=10,
)


def _check_session(path: Path) -> None:
    session = read_session(path)
    branch = session.branch()
    assert len(branch) <= len(session.entries)
    assert all(isinstance(entry.id, str) for entry in session.entries)
    assert all(isinstance(skip.reason, str) for skip in session.skipped)
    found = find_resumables([session])
    for item in found:
        check_result(non_interactive_result(item.loaded.payload).to_json(), item.loaded.payload)
    find_replay([session], "tool")
    find_replay([session], "answer-extraction")


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_as_a_session_file(data: bytes) -> None:
    for folder in _tmp_dir():
        path = folder / "session.jsonl"
        path.write_bytes(data)
        _check_session(path)


@FUZZ
@given(session_lines, st.booleans())
def test_appending_after_garbage_keeps_a_readable_chain(lines: list[bytes], torn: bool) -> None:
    for folder in _tmp_dir():
        path = folder / "session.jsonl"
        path.write_bytes(b"\n".join(lines) + (b"" if torn else b"\n"))
        _check_session(path)
        before = read_session(path).entries
        log = SessionLog(path, cwd=folder)
        first = log.append_custom(PAYLOAD_TYPE, {"n": 1})
        second = SessionLog(path, cwd=folder).append_custom(DRAFT_TYPE, {"n": 2})
        _check_session(path)
        after = read_session(path)
        assert len(after.entries) == len(before) + 2
        branch = after.branch()
        assert [entry.raw.get("id") for entry in branch[-2:]] == [first.id, second.id]
        assert after.entries[: len(before)] == before


# --- drafts of the session log, resumed ----------------------------------------------------


@st.composite
def draft_answers(draw: st.DrawFn, payload: AskPayload) -> dict[str, object]:
    """Draft answers as an older or damaged log could hold them for the payload's questions.

    Stale option values, wrong labels and row numbers, notes on any option, blank or padded
    text, an option selected twice, custom text next to an option on a single question.
    """
    answers: dict[str, object] = {}
    for question in payload.questions:
        if not draw(st.booleans()):
            continue
        values = [option.value for option in question.options] + ["gone"]
        selected = [
            {"value": value, "label": draw(st.text(max_size=4)), "index": draw(st.integers(-1, 9))}
            for value in draw(st.lists(st.sampled_from(values), max_size=3))
        ]
        answer: dict[str, object] = {"selected": selected}
        if draw(st.booleans()):
            answer["customText"] = draw(st.sampled_from(["x", "custom text", "  ", " padded "]))
        if draw(st.booleans()):
            answer["customSelected"] = True
        if draw(st.booleans()):
            answer["note"] = draw(st.sampled_from(["why?", "note", " ", " padded "]))
        if draw(st.booleans()):
            answer["optionNotes"] = [
                [draw(st.sampled_from(values)), draw(st.sampled_from(["n", "other", " "]))]
                for _ in range(draw(st.integers(1, 2)))
            ]
        answers[question.id] = answer
    return answers


@st.composite
def resumable_logs(draw: st.DrawFn) -> tuple[AskPayload, list[dict[str, object]]]:
    document = draw(payload_documents(max_questions=3))
    payload = loaded(document)
    ask_id = "ask-1"
    types = {
        q.id: draw(st.sampled_from(["single", "multi", "preview", "grid"]))
        for q in payload.questions
        if draw(st.booleans())
    }
    data = {"version": 1, "timestamp": 1, "toolCallId": ask_id}
    entries = [
        {
            "version": 1,
            "timestamp": 1,
            "source": "tool",
            "sourceEntryId": ask_id,
            "params": document,
        },
        {**data, "answers": draw(draft_answers(payload)), "types": types},
    ]
    return payload, entries


@settings(max_examples=100, deadline=None)
@given(resumable_logs())
def test_resumed_drafts_give_results_in_shape(log: tuple[AskPayload, list]) -> None:  # type: ignore[type-arg]
    payload, entries = log
    for folder in _tmp_dir():
        path = folder / "session.jsonl"
        writer = SessionLog(path, cwd=folder)
        writer.append_custom(PAYLOAD_TYPE, entries[0])
        writer.append_custom(DRAFT_TYPE, entries[1])
        found = find_resumables([read_session(path)])
        assert len(found) == 1
        restored, answers = restore(found[0].loaded, found[0].draft)
        state = new_state(restored.payload)
        state = state._replace(answers=answers)
        details = check_result(build_result(state).to_json(), payload)
        check_result(build_result(apply(state, Abort(), _behaviour())).to_json(), payload)
        _check_resumed_answers(payload, entries[1]["answers"], details["answers"])  # type: ignore[arg-type]


def _check_resumed_answers(
    payload: AskPayload, drafted: dict[str, dict[str, object]], got: dict[str, dict[str, object]]
) -> None:
    """What resuming keeps: every drafted option that still exists is answered, none invented.

    A draft naming at least one of a question's current options resumes with at least one of
    them selected (a single question keeps one); the result holds no value that is neither
    an option of the question nor the draft's own text.
    """
    for question in payload.questions:
        answer = drafted.get(question.id, {})
        offered = [option.value for option in question.options]
        selected = answer.get("selected", [])
        wanted = {item["value"] for item in selected if item["value"] in offered}  # type: ignore[index]
        values = got.get(question.id, {}).get("values", [])
        assert isinstance(values, list)
        own = str(answer.get("customText", "")).strip()
        assert all(value in offered or value == own for value in values), (values, answer)
        if wanted:
            assert wanted & set(values), (question.id, wanted, got.get(question.id))


SINGLE_DB = {"questions": [{"id": "db", "prompt": "Which database?", "options": [{"value": "pg"}]}]}


def _resumed_answers(
    folder: Path, answer: dict[str, object], document: object = SINGLE_DB
) -> dict[str, object]:
    """The result answers after resuming a draft holding ``answer`` for question ``db``."""
    writer = SessionLog(folder / "session.jsonl", cwd=folder)
    writer.append_custom(
        PAYLOAD_TYPE,
        {"version": 1, "timestamp": 1, "source": "tool", "sourceEntryId": "x", "params": document},
    )
    writer.append_custom(
        DRAFT_TYPE, {"version": 1, "timestamp": 2, "toolCallId": "x", "answers": {"db": answer}}
    )
    (found,) = find_resumables([read_session(folder / "session.jsonl")])
    restored, answers = restore(found.loaded, found.draft)
    state = new_state(restored.payload)
    state = state._replace(answers=answers)
    details = build_result(state).to_json()["details"]
    return details["answers"]  # type: ignore[index,no-any-return]


def test_a_resumed_draft_with_blank_notes_gives_trimmed_answers(tmp_path: Path) -> None:
    answer = {"selected": [{"value": "pg", "label": "Pg", "index": 1}], "note": "  "}
    answer["optionNotes"] = [["pg", " spaced "]]
    resumed = _resumed_answers(tmp_path, answer)
    assert resumed == {
        "db": {"values": ["pg"], "labels": ["Pg"], "indices": [1], "optionNotes": {"pg": "spaced"}}
    }


def test_a_resumed_draft_selects_an_option_once(tmp_path: Path) -> None:
    twice = {"value": "pg", "label": "Pg", "index": 1}
    document = {
        "questions": [
            {"id": "db", "type": "multi", "prompt": "Which?", "options": [{"value": "pg"}]}
        ]
    }
    resumed = _resumed_answers(tmp_path, {"selected": [twice, twice]}, document)
    assert resumed == {"db": {"values": ["pg"], "labels": ["Pg"], "indices": [1]}}


def test_a_resumed_draft_keeps_one_choice_on_a_single_question(tmp_path: Path) -> None:
    answer = {
        "selected": [{"value": "pg", "label": "Pg", "index": 1}],
        "customText": "x",
        "customSelected": True,
    }
    resumed = _resumed_answers(tmp_path, answer)
    # One choice: the option (the custom text stays in its editor, unselected).
    assert resumed == {"db": {"values": ["pg"], "labels": ["Pg"], "indices": [1]}}


def test_a_toml_date_where_a_flag_belongs_is_one_wrong_value() -> None:
    store_text = tomlkit.dumps({"behaviour": {"show_footer_hints": datetime.date(2024, 1, 1)}})
    for folder in _tmp_dir():
        store, _ = _store_on(store_text.encode(), folder)
        check_store(store)
        assert store.snapshot().behaviour.show_footer_hints is True
        assert any("show_footer_hints" in str(problem) for problem in store.problems)
