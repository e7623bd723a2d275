"""The fast path and the model agree: same settings, same problems, on any document.

style.md §2: the fast path exists only to keep pydantic-settings off the first frame. These
properties hold it to the model: whenever the fast path accepts a document, the model reads
the very same ``Settings``; whenever it declines, the model finds a problem to report.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.config.catalogue import KEYS, SettingKey, is_valid
from pi_ask.config.document import canonical_values
from pi_ask.config.loading import evaluate

_TEXT = st.text(alphabet="abcxyz-_:/. ", max_size=12)
_ANY = st.one_of(st.booleans(), st.integers(-5, 50_000), st.floats(allow_nan=False), _TEXT)
_VALID: dict[str, st.SearchStrategy[object]] = {
    "bool": st.booleans(),
    "schema_version": st.just(1),
    "seconds": st.one_of(st.integers(1, 600), st.floats(0.001, 600)),
    "interval": st.one_of(st.integers(1, 86400), st.floats(0.001, 86400)),
    "reminders": st.integers(0, 10),
    "milliseconds": st.integers(1, 10**9),
    "retries": st.integers(0, 3),
    "extractor": st.sampled_from(["auto", "offline", "model"]),
    "mcp_face": st.sampled_from(["auto", "elicitation", "terminal"]),
    "tool_name": st.sampled_from(["ask_user", "pi_ask", "Ask-2"]),
    "human_ms": st.integers(0, 3_600_000),
    "models": st.lists(
        st.fixed_dictionaries(
            {"provider": st.sampled_from(["openai", "ollama"]), "id": st.sampled_from(["m", "n"])},
            optional={"base_url": st.just("http://h"), "api_key_env": st.just("KEY")},
        ),
        max_size=3,
    ),
    "channels": st.lists(
        st.one_of(
            st.sampled_from(
                ["bell", "osc9", "osc777", "osc99", "terminal", "desktop", "ntfys://topic"]
            ),
            st.fixed_dictionaries(
                {"type": st.just("command"), "command": st.just("echo hi")},
                optional={"when": st.sampled_from(["always", "unfocused", "later"])},
            ),
            st.fixed_dictionaries(
                {"type": st.just("apprise")},
                optional={
                    "config": st.just("a.yml"),
                    "url": st.just("json://h/"),
                    "tags": st.sampled_from([["a"], [], [""], "a"]),
                    "when": st.just("unfocused"),
                },
            ),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["desktop", "bell", "nope"])},
                optional={"when": st.sampled_from(["unfocused", 3])},
            ),
        ),
        min_size=1,
        max_size=3,
    ),
    "theme": st.sampled_from(["dark", "light", "high-contrast", "ansi", "auto"]),
    "face": st.sampled_from(["tui", "plain"]),
    "deadline": st.one_of(st.integers(0, 86400), st.floats(0, 86400)),
    "no_terminal": st.sampled_from(["answer", "wait"]),
    "tmux": st.sampled_from(["popup", "window", "off"]),
    "hyperlinks": st.sampled_from(["auto", "on", "off"]),
    "web_host": st.sampled_from(["127.0.0.1", "::1", "0.0.0.0", "box.local"]),
    "port": st.integers(0, 65535),
    "files": st.integers(1, 100),
    "megabytes": st.integers(1, 1024),
    "web_url": st.sampled_from(["", "https://box.example/", "http://127.0.0.1:8787"]),
    "path": st.sampled_from(["", "/etc/ssl/me.pem", "cert.pem"]),
    "language": st.sampled_from(["auto", "en", "de", "es", "ja", "zh_CN", "x-pseudo"]),
    "styles": st.dictionaries(
        st.sampled_from(["accent", "muted", "syntax_string", "selected-bg"]),
        st.sampled_from(["bold", "#005f87", "bg:ansiblue underline", "fg:#fff nobold"]),
        max_size=3,
    ),
}
_INVALID_ENTRY = st.one_of(_ANY, st.fixed_dictionaries({"provider": _TEXT}))


def _value(spec: SettingKey) -> st.SearchStrategy[object]:
    valid = _VALID[spec.kind]
    if spec.kind in ("models", "channels"):
        broken = st.lists(
            st.one_of(valid.map(lambda items: items[0] if items else "bell"), _INVALID_ENTRY),
            max_size=3,
        )
        return st.one_of(valid, valid, broken, _ANY)
    return st.one_of(valid, valid, valid, _ANY)


@st.composite
def documents(draw: st.DrawFn) -> dict[str, object]:
    document: dict[str, object] = {}
    for spec in KEYS:
        if not draw(st.booleans()):
            continue
        name = draw(st.sampled_from([spec.name, spec.alias]))
        value = draw(_value(spec))
        table = document if not spec.section else document.setdefault(spec.section, {})
        table[name] = value  # type: ignore[index]
    if draw(st.booleans()):
        document.setdefault("behaviour", {})["unknown_key"] = 1  # type: ignore[index]
    return document


@settings(max_examples=150, deadline=None)
@given(documents())
def test_fast_path_and_model_read_the_same_settings(document: dict[str, object]) -> None:
    fast = evaluate(document, {})
    thorough = evaluate(document, {}, thorough=True)
    assert thorough.thorough
    assert fast.settings == thorough.settings
    assert fast.problems == thorough.problems


@settings(max_examples=150, deadline=None)
@given(documents())
def test_the_fast_path_declines_exactly_the_documents_with_a_bad_value(
    document: dict[str, object],
) -> None:
    canonical = canonical_values(document)
    all_valid = all(
        is_valid(next(s.kind for s in KEYS if s.key == key), value)
        for key, value in canonical.values.items()
    )
    assert evaluate(document, {}).thorough is not all_valid
    value_problems = [
        problem
        for problem in evaluate(document, {}, thorough=True).problems
        if "unknown setting" not in problem.message and "set twice" not in problem.message
    ]
    assert bool(value_problems) is not all_valid
