"""The work until the first frame, by measures a busy machine does not move much.

A measuring harness, not product code. Its child, ``first_frame_child.py``, runs the floor
app or ``pi-ask ask PAYLOAD`` and, right after the first frame is written, saves the
process's CPU time so far (``time.process_time``: interpreter start-up included, time spent
waiting for the CPU excluded) and the number of modules loaded; with
``PI_ASK_BENCH_COUNT=1`` it counts the Python function calls made since it started (a
``sys.setprofile`` counter, which slows the run: its CPU time is not used).

``measure_first_frame_work`` runs both on a pty, interleaved, and reports the medians and
the per-round ratios. On a machine whose load multiplies every wall time, these ratios say
what the pty timings cannot: how much more work pi-ask does than the floor.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HARNESS = Path(__file__).resolve().with_name("first_frame_child.py")
RUNS = 15


@dataclass(frozen=True, slots=True)
class FirstFrameWork:
    """Medians over ``runs`` interleaved rounds, and the per-round ratios ask / floor; and
    ``pi-ask ask`` with a long session log (``history_*``), its ratio to ``ask`` per round."""

    runs: int
    floor_cpu_ms: float
    ask_cpu_ms: float
    cpu_ratio: float
    floor_calls: int
    ask_calls: int
    calls_ratio: float
    floor_modules: int
    ask_modules: int
    history_cpu_ms: float
    history_cpu_ratio: float
    history_calls: int


def _run_once(
    mode: str, args: list[str], env: Mapping[str, str], out: Path, *, count: bool = False
) -> dict[str, Any]:
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        [str(HARNESS), mode, *args],
        env={**env, "PI_ASK_BENCH_OUT": str(out), "PI_ASK_BENCH_COUNT": "1" if count else ""},
        dimensions=(40, 100),
    )
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return data


def measure_first_frame_work(
    env: Mapping[str, str],
    history_env: Mapping[str, str],
    payload: Path,
    out: Path,
    runs: int = RUNS,
) -> FirstFrameWork:
    """Run the floor, ``pi-ask ask payload`` and the same with ``history_env`` (a long
    session log) under the harness, ``runs`` interleaved rounds each."""
    floor: list[dict[str, Any]] = []
    ask: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    launches = [
        ("floor", [], env, floor),
        ("ask", [str(payload)], env, ask),
        ("ask", [str(payload)], history_env, history),
    ]
    for mode, args, launch_env, _ in launches:  # warm-up: disk cache, config file
        _run_once(mode, args, launch_env, out)
    for round_number in range(runs):
        shift = round_number % len(launches)
        for mode, args, launch_env, into in [*launches[shift:], *launches[:shift]]:
            into.append(_run_once(mode, args, launch_env, out))

    # Calls do not depend on the load: one counted run each.
    floor_calls = _run_once("floor", [], env, out, count=True)["calls"]
    ask_calls = _run_once("ask", [str(payload)], env, out, count=True)["calls"]
    history_calls = _run_once("ask", [str(payload)], history_env, out, count=True)["calls"]

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(row[key] for row in rows))

    cpu_ratios = [a["cpu_ms"] / f["cpu_ms"] for a, f in zip(ask, floor, strict=True)]
    history_ratios = [h["cpu_ms"] / a["cpu_ms"] for h, a in zip(history, ask, strict=True)]
    return FirstFrameWork(
        runs=runs,
        floor_cpu_ms=round(median(floor, "cpu_ms"), 1),
        ask_cpu_ms=round(median(ask, "cpu_ms"), 1),
        cpu_ratio=round(statistics.median(cpu_ratios), 2),
        floor_calls=floor_calls,
        ask_calls=ask_calls,
        calls_ratio=round(ask_calls / floor_calls, 2),
        floor_modules=round(median(floor, "modules")),
        ask_modules=round(median(ask, "modules")),
        history_cpu_ms=round(median(history, "cpu_ms"), 1),
        history_cpu_ratio=round(statistics.median(history_ratios), 2),
        history_calls=history_calls,
    )
