"""``replay --all`` and ``resume --all``: the logs of every folder, each ask named by its folder."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.child_processes import run_pi_ask


def _payload(qid: str, title: str) -> str:
    options = [{"value": "a"}, {"value": "b"}]
    return json.dumps(
        {"title": title, "questions": [{"id": qid, "prompt": "?", "options": options}]}
    )


@pytest.fixture
def pi_ask(tmp_path: Path):  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_")}
    env.update(
        PI_ASK_STATE_DIR=str(tmp_path / "state"),
        PI_ASK_CONFIG=str(tmp_path / "config.toml"),
        HOME=str(tmp_path),
    )

    def run(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        cwd.mkdir(parents=True, exist_ok=True)
        return run_pi_ask(*args, env=env, cwd=cwd, stdin=stdin)

    return run


def test_all_reaches_the_asks_of_other_folders(pi_ask, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    alpha, beta, gamma = tmp_path / "alpha", tmp_path / "beta", tmp_path / "gamma"
    assert (
        pi_ask(alpha, "ask", "--ui", "none", stdin=_payload("first", "Alpha ask")).returncode == 1
    )
    assert pi_ask(beta, "ask", "--ui", "none", stdin=_payload("second", "Beta ask")).returncode == 1

    here = pi_ask(alpha, "resume", "--list")
    assert [line.split("  ")[-1] for line in here.stdout.splitlines()] == ["Alpha ask"]

    every = pi_ask(gamma, "resume", "--list", "--all")
    assert every.returncode == 0
    lines = every.stdout.splitlines()
    # Newest first, each with the folder it was asked in (home written as ~).
    assert [line.rsplit("  ", 2)[-2:] for line in lines] == [
        ["Beta ask", "(~/beta)"],
        ["Alpha ask", "(~/alpha)"],
    ]

    nothing = pi_ask(gamma, "replay", "--ui", "none")
    assert nothing.returncode == 1
    assert "pass --all to look in every folder's log" in nothing.stderr

    replayed = pi_ask(gamma, "replay", "--all", "--ui", "none")
    assert json.loads(replayed.stdout)["details"]["title"] == "Beta ask"
    assert replayed.stderr.startswith("Replaying the previous ask_user form from ~/state/sessions/")

    resumed = pi_ask(gamma, "resume", "--all", "--ui", "none")
    assert json.loads(resumed.stdout)["details"]["title"] == "Beta ask"


def test_all_with_nothing_anywhere_says_where_it_looked(pi_ask, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    done = pi_ask(tmp_path / "alpha", "resume", "--all")
    assert (done.returncode, done.stdout) == (1, "")
    assert (
        done.stderr == "No unanswered ask_user form found. Looked in 0 logs in ~/state/sessions.\n"
    )
