"""``pi-ask ask``'s plain lines, read without argparse, read as argparse reads them."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.cli.ask_line import read_plain_ask
from pi_ask.cli.main import build_parser

OPTIONS = ["--ui", "--config", "--title", "--session", "--timeout", "--wait", "--detach"]
OPTIONS += ["--resume", "--help", "-h", "--ti", "--", "--ui=tui", "--timeout=0", "--wait=1"]
VALUES = ["tui", "plain", "none", "auto", "rpc", "bogus", "", "-", "-5", "-x", "5", "0.5"]
VALUES += ["nan", "inf", "1e3", "a=b", "payload.json", "with space", "--x", "ünï"]
WORDS = st.one_of(
    st.sampled_from(OPTIONS + VALUES),
    st.builds(lambda o, v: f"{o}={v}", st.sampled_from(OPTIONS[:5]), st.sampled_from(VALUES)),
)


def _by_argparse(words: list[str]) -> dict[str, object] | None:
    """What argparse makes of ``pi-ask ask WORDS``, or ``None`` when it refuses them."""
    try:
        parsed = build_parser("ask").parse_args(["ask", *words])
    except SystemExit:
        return None
    found = vars(parsed)
    found.pop("handler")
    return found


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=6))
def test_a_line_read_without_argparse_is_read_as_argparse_reads_it(words: list[str]) -> None:
    plain = read_plain_ask(words)
    if plain is not None:  # else argparse reads it, with its messages
        assert vars(plain) == _by_argparse(words)


@pytest.mark.parametrize(
    "words",
    [
        [],
        ["payload.json"],
        ["-"],
        ["--ui", "none", "p.json"],
        ["--wait", "p.json", "--timeout", "30"],
        ["--detach", "--title=Hi", "--config", "c.toml", "--session=s.jsonl", "p.json"],
        ["--resume"],
        ["--ui=plain", "--title", "", "p.json"],
    ],
)
def test_the_lines_agents_write_skip_argparse(words: list[str]) -> None:
    plain = read_plain_ask(words)
    assert plain is not None
    assert vars(plain) == _by_argparse(words)


@pytest.mark.parametrize(
    "words",
    [
        ["--help"],
        ["-h"],
        ["--ti", "x"],  # an abbreviation argparse accepts
        ["--ui", "bogus"],
        ["--timeout", "0"],
        ["--timeout", "-5"],
        ["--title"],
        ["a.json", "b.json"],
        ["--", "p.json"],
        ["--wait=1"],
    ],
)
def test_anything_else_goes_to_argparse(words: list[str]) -> None:
    assert read_plain_ask(words) is None


def test_paths_are_paths_as_argparse_makes_them() -> None:
    plain = read_plain_ask(["--config", "c.toml", "--session", "s.jsonl"])
    assert plain is not None
    assert (plain.config, plain.session) == (Path("c.toml"), Path("s.jsonl"))
    assert isinstance(build_parser("ask"), argparse.ArgumentParser)
