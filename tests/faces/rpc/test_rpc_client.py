"""The example pi RPC client (examples/rpc_client.py) answers real payloads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faces.rpc.conftest import HERE, WAIT_S

ROOT = HERE.parents[2]
CLIENT = ROOT / "examples" / "rpc_client.py"
PAYLOADS = ROOT / "tests" / "fixtures" / "payloads"


def run_client(payload: Path, replies: str, tmp_path: Path) -> tuple[dict[str, object], int]:
    """The client with its default command: ``python -m pi_ask ask --ui rpc PAYLOAD``."""
    env = {
        **os.environ,
        "PI_ASK_CONFIG": str(tmp_path / "config.toml"),
        "PI_ASK_STATE_DIR": str(tmp_path / "state"),
    }
    done = subprocess.run(
        [sys.executable, str(CLIENT), str(payload)],
        input=replies.encode(),
        env=env,
        capture_output=True,
        timeout=WAIT_S * 3,
        cwd=tmp_path,
        check=False,
    )
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1, done.stderr.decode()
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    return result, done.returncode


@pytest.mark.parametrize(
    ("name", "replies", "answers"),
    [
        (
            "basic.json",
            "2\n4\nReact, Solid\n",
            {"style": ["balanced"], "frameworks": ["React, Solid"]},
        ),
        ("preview.json", "3\n", {"layout": ["inline"]}),
        ("recommended.json", "\n3\n", {"targets": ["windows-wsl"]}),
    ],
)
def test_the_example_client_answers_a_payload(
    name: str, replies: str, answers: dict[str, list[str]], tmp_path: Path
) -> None:
    result, status = run_client(PAYLOADS / name, replies, tmp_path)
    assert status == 0
    details = result["details"]
    assert isinstance(details, dict)
    assert details["cancelled"] is False
    assert {k: v["values"] for k, v in details["answers"].items()} == answers


def test_the_example_client_cancels_when_its_input_ends(tmp_path: Path) -> None:
    result, status = run_client(PAYLOADS / "basic.json", "1\n", tmp_path)
    assert status == 1
    details = result["details"]
    assert isinstance(details, dict)
    assert details["cancelled"] is True
    assert details["answers"] == {
        "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}
    }
