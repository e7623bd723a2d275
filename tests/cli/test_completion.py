"""``pi-ask completion``: a real bash completes commands, verbs and choices; zsh and fish get
candidates through the same protocol; nothing else pays for argcomplete."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
PAYLOAD = Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "basic.json"

BASH_PROBE = """
source <(pi-ask completion bash)
probe() {
    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
    read -r -a COMP_WORDS <<< "$1"
    [[ "$1" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    _python_argcomplete pi-ask "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "${COMPREPLY[*]}"
}
probe "pi-ask con"
probe "pi-ask config sh"
probe "pi-ask tool --format "
probe "pi-ask ask --u"
probe "pi-ask completion "
"""


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_verbs_and_choices(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_PROBE],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [line.split() for line in done.stdout.splitlines()] == [
        ["config"],
        ["show"],
        ["pi", "mcp", "openai", "anthropic"],
        ["--ui"],
        ["-h", "--help", "bash", "zsh", "fish"],
    ]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_ask_pi_ask_itself(shell: str, tmp_path: Path) -> None:
    script = subprocess.run(
        [sys.executable, "-m", "pi_ask", "completion", shell],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "pi-ask" in script and "_ARGCOMPLETE" in script
    # What the script makes the shell do on Tab: run pi-ask with the protocol's variables.
    out = tmp_path / "candidates"
    line = "pi-ask sk"
    env = {
        **_env(tmp_path),
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_SHELL": shell,
        "_ARGCOMPLETE_STDOUT_FILENAME": str(out),
        "_ARGCOMPLETE_IFS": "\n",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
    }
    done = subprocess.run(
        [str(BIN / "pi-ask")], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    candidates = out.read_text("utf-8").splitlines()
    assert [c.split(":")[0].split("\t")[0].strip() for c in candidates] == ["skill"]


def test_an_ask_never_imports_argcomplete(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pi_ask", "ask", "--ui", "none", str(PAYLOAD)],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        start_new_session=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "pi_ask.cli.main" in done.stderr  # the import log is there
    assert "argcomplete" not in done.stderr
