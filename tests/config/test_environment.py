"""The fast decoder of the ``PI_ASK_*`` variables and pydantic-settings agree on every setting.

Whenever ``config.environment`` decodes the variables (the first-frame path), the model
reads the very same settings with no problem; whenever it declines, ``evaluate`` goes
through the model. Misspelled names are reported, never silently dropped.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.config.catalogue import KEYS, SettingKey
from pi_ask.config.environment import fast_environment
from pi_ask.config.loading import evaluate

_WORDS = ["true", "false", "True", "FALSE", "1", "0", "yes", "no", "on", "off", "t", "f", "y"]
_JUNK = st.one_of(
    st.text(alphabet="abc01.-+ eE_[]{}\"',:", max_size=10),
    st.sampled_from(["", " true", "1.5", "-3", "1e3", "007", "inf", "nan", "null", "[]"]),
)
_RAW: dict[str, st.SearchStrategy[str]] = {
    "bool": st.sampled_from(_WORDS),
    "schema_version": st.sampled_from(["1", "2", "0", "01"]),
    "seconds": st.sampled_from(["1", "5", "0.5", "600", "601", "0", "2.25", "1.", ".5"]),
    "interval": st.sampled_from(["1", "300", "0.5", "86400", "86401", "0", "1."]),
    "reminders": st.sampled_from(["0", "1", "10", "11", "-1", "x"]),
    "milliseconds": st.sampled_from(["1", "30000", "0", "999999999"]),
    "retries": st.sampled_from(["0", "1", "3", "4"]),
    "extractor": st.sampled_from(["auto", "offline", "model", "Model", "none"]),
    "mcp_face": st.sampled_from(["auto", "elicitation", "terminal", "Terminal", "tty"]),
    "tool_name": st.sampled_from(["ask_user", "pi_ask", "2ask", "ask user", "a" * 49]),
    "human_ms": st.sampled_from(["0", "400", "600000", "3600001", "-1", "x"]),
    "theme": st.sampled_from(["dark", "light", "high-contrast", "ansi", "Dark", "solarized"]),
    "face": st.sampled_from(["tui", "plain", "TUI", "rpc"]),
    "deadline": st.sampled_from(["0", "30", "0.5", "86400", "86401", "-1", "1."]),
    "no_terminal": st.sampled_from(["answer", "wait", "Wait", "hang"]),
    "tmux": st.sampled_from(["popup", "window", "off", "Popup", "pane"]),
    "hyperlinks": st.sampled_from(["auto", "on", "off", "On", "yes"]),
    "web_host": st.sampled_from(["127.0.0.1", "::1", "box.local", "", "a b", "x/y"]),
    "port": st.sampled_from(["0", "8787", "65535", "65536", "-1", "http"]),
    "files": st.sampled_from(["1", "10", "100", "0", "101", "x"]),
    "megabytes": st.sampled_from(["1", "20", "1024", "0", "1025", "x"]),
    "web_url": st.sampled_from(["", "https://box.example/", "http://h:8/p", "ftp://h", "x"]),
    "path": st.sampled_from(["", "/etc/ssl/me.pem", "cert.pem", "~/c.pem"]),
    "language": st.sampled_from(["auto", "de", "zh_CN", "x-pseudo", "German", "de_DE.UTF-8"]),
    "styles": st.sampled_from(
        [
            json.dumps({"accent": "#005f87 bold"}),
            json.dumps({"accent": "bold", "muted": "fg:ansigray"}),
            json.dumps({}),
            json.dumps({"no-such-role": "bold"}),
            json.dumps({"accent": "not a style!"}),
            json.dumps(["accent"]),
        ]
    ),
    "models": st.sampled_from(
        [
            json.dumps([{"provider": "openai", "id": "m"}]),
            json.dumps([{"provider": "ollama", "id": "n", "base_url": "http://h"}]),
            json.dumps([]),
            json.dumps([{"provider": "", "id": "m"}]),
            json.dumps({"provider": "openai"}),
        ]
    ),
    "channels": st.sampled_from(
        [
            json.dumps(["bell"]),
            json.dumps(["osc9", {"type": "command", "command": "echo hi"}]),
            json.dumps(["ntfys://topic"]),
            json.dumps([]),
            json.dumps(["no such channel"]),
            "bell",
        ]
    ),
}
KINDS = sorted({spec.kind for spec in KEYS})


def test_every_kind_of_setting_has_values_to_try() -> None:
    assert set(_RAW) == set(KINDS)


@st.composite
def environments(draw: st.DrawFn) -> dict[str, str]:
    chosen = draw(
        st.lists(st.sampled_from(KEYS), min_size=1, max_size=4, unique_by=lambda s: s.key)
    )
    return {
        spec.env_var: draw(st.one_of(_RAW[spec.kind], _RAW[spec.kind], _JUNK)) for spec in chosen
    }


@settings(max_examples=300, deadline=None)
@given(environments())
def test_whenever_the_fast_decoder_reads_the_variables_the_model_agrees(
    environ: dict[str, str],
) -> None:
    fast = evaluate(None, environ)
    thorough = evaluate(None, environ, thorough=True)
    assert fast.settings == thorough.settings
    if fast_environment(environ) is not None:
        assert not fast.thorough
        assert thorough.problems == ()
    else:
        assert fast.thorough
        assert fast.problems == thorough.problems


@pytest.mark.parametrize("spec", KEYS, ids=[spec.key for spec in KEYS])
def test_each_setting_is_read_on_the_fast_path(spec: SettingKey) -> None:
    raw = {
        "bool": "false" if spec.default is True else "true",
        "schema_version": "1",
        "seconds": "2.5",
        "interval": "60",
        "reminders": "2",
        "milliseconds": "1234",
        "retries": "2",
        "extractor": "offline",
        "mcp_face": "terminal",
        "tool_name": "pi_ask",
        "human_ms": "600000",
        "theme": "light",
        "face": "plain",
        "deadline": "90",
        "no_terminal": "wait",
        "tmux": "window",
        "hyperlinks": "on",
        "web_host": "0.0.0.0",
        "port": "8787",
        "files": "3",
        "megabytes": "5",
        "web_url": "https://box.example/",
        "path": "/tmp/cert.pem",
        "language": "ja",
        "styles": json.dumps({"accent": "bold"}),
        "models": json.dumps([{"provider": "ollama", "id": "llama"}]),
        "channels": json.dumps(["osc9"]),
    }[spec.kind]
    environ = {spec.env_var: raw}
    assert fast_environment(environ) is not None
    fast, thorough = evaluate(None, environ), evaluate(None, environ, thorough=True)
    assert not fast.thorough
    assert fast.settings == thorough.settings
    assert thorough.sources[spec.key] == f"environment ({spec.env_var})"


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("PI_ASK_BEHAVIOR__SHOW_FOOTER_HINTS", "PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS"),  # table
        ("PI_ASK_BEHAVIOUR__SHOW_FOOTER_HNTS", "PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS"),  # key
        ("PI_ASK_NOTIFICATION__ENABLED", "PI_ASK_NOTIFICATIONS__ENABLED"),
    ],
)
def test_a_misspelled_name_is_reported_with_the_name_meant_and_ignored(
    name: str, meant: str
) -> None:
    found = evaluate(None, {name: "false"})
    assert found.thorough
    assert [(p.key, p.message, p.severity) for p in found.problems] == [
        (name, f'names no setting (did you mean "{meant}"?); ignored', "warning")
    ]
    assert found.settings == evaluate(None, {}).settings


def test_paths_and_other_variables_are_no_settings() -> None:
    environ = {"PI_ASK_CONFIG": "/x.toml", "PI_ASK_STATE_DIR": "/s", "PI_ASK_DESKTOP_TITLE": "t"}
    assert fast_environment(environ) == {}
    found = evaluate(None, environ)
    assert (found.thorough, found.problems) == (False, ())


@pytest.mark.parametrize(
    ("name", "meant"),
    [("PI_ASK_BEHAVIOR", "PI_ASK_BEHAVIOUR"), ("PI_ASK_NOTIFICATION", "PI_ASK_NOTIFICATIONS")],
)
def test_a_misspelled_whole_table_is_reported_with_the_table_meant(name: str, meant: str) -> None:
    found = evaluate(None, {name: json.dumps({"show_footer_hints": False, "enabled": False})})
    assert [(p.key, p.message, p.severity) for p in found.problems] == [
        (name, f'names no setting (did you mean "{meant}"?); ignored', "warning")
    ]
    assert found.settings == evaluate(None, {}).settings
    # The table spelled right is read.
    right = evaluate(None, {"PI_ASK_BEHAVIOUR": json.dumps({"show_footer_hints": False})})
    assert right.problems == () and right.settings.behaviour.show_footer_hints is False
