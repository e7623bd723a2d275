"""``pi-ask resume --ui rpc``: the draft's answers carry over, and a host that goes away is
not a dismissal (the ask stays resumable with everything answered so far)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.faces.rpc.conftest import RpcHost, hosts_in
from tests.faces.rpc.test_rpc import PAYLOAD, details, values

Start = Callable[..., RpcHost]


@pytest.fixture
def pi_ask(tmp_path: Path) -> Iterator[Start]:
    """Start ``pi-ask ARGS`` on pipes, every run in the same config and state folder."""
    with hosts_in(tmp_path) as spawn:
        yield lambda *args: spawn([sys.executable, "-m", "pi_ask", *args])


def _listed(start: Start) -> list[str]:
    host = start("resume", "--list")
    host.close_stdin()
    lines: list[str] = []
    while (raw := host.stdout_lines.get(timeout=60)) is not None:
        lines.append(raw.decode().rstrip("\n"))
    assert host.process.wait(timeout=60) in (0, 1), host.stderr
    return lines


def test_a_host_that_disconnects_keeps_the_answers_and_the_ask(
    pi_ask: Start, tmp_path: Path
) -> None:
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    # First run: the host answers the first card, then goes away.
    host = pi_ask("ask", "--ui", "rpc", str(payload))
    host.choose(host.request(), 1)  # SQLite
    host.request()
    host.close_stdin()
    result, status = host.finish()
    assert details(result)["cancelled"] is True
    assert details(result)["reason"] == "aborted"
    assert values(result) == {"db": ["sqlite"]}
    (line,) = _listed(pi_ask)
    assert line.endswith("1/2 answered  Setup"), line

    # Resumed, and the host goes away at once: the draft's answer is in the result, and kept.
    host = pi_ask("resume", "--ui", "rpc")
    host.request()
    host.close_stdin()
    result, status = host.finish()
    assert details(result)["cancelled"] is True
    assert values(result) == {"db": ["sqlite"]}
    (line,) = _listed(pi_ask)
    assert line.endswith("1/2 answered  Setup"), line

    # Resumed again: the host skips the answered card and answers the other; submitted.
    host = pi_ask("resume", "--ui", "rpc")
    host.respond(host.request(), cancelled=True)
    host.choose(host.request(), 0)  # React
    result, status = host.finish()
    assert status == 0
    assert details(result)["cancelled"] is False
    assert values(result) == {"db": ["sqlite"], "fw": ["react"]}
    assert _listed(pi_ask) == []
