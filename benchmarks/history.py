"""Session logs with a long history, and what they cost ``pi-ask resume --list``.

``write_history`` writes a log the way pi-ask does (a version-3 header, then per ask an
``ask:payload``, an ``ask:draft`` and, for all but every 20th ask, an
``ask:pending-dismissed``), only faster: lines are written directly, without a lock or an
fsync per entry. ``measure_resume_list`` times ``pi-ask resume --list`` on a log of a few
asks and on one of many, interleaved, as per-round ratios.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pi_ask.session.locations import encode_cwd

OPEN_EVERY = 20  # one ask in 20 was never finished (a killed terminal, --ui none)
RUNS = 9


def log_path(state: Path, cwd: Path) -> Path:
    """Where ``pi-ask`` run in ``cwd`` with ``PI_ASK_STATE_DIR=state`` keeps its log."""
    return state / "sessions" / f"{encode_cwd(cwd.resolve())}.jsonl"


def write_history(path: Path, params: object, *, asks: int = 0, size: int = 0) -> int:
    """Write a log of ``asks`` asks of ``params`` (or of as many as reach ``size`` bytes).

    Returns:
        How many asks were written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"type": "session", "version": 3, "id": "bench", "timestamp": _stamp(0)}
    written, count, parent = 0, 0, None
    with path.open("w", encoding="utf-8") as handle:
        written += handle.write(json.dumps(header) + "\n")
        while (asks and count < asks) or (size and written < size):
            ask = f"bench-ask-{count:06d}"
            entries = [
                (
                    "ask:payload",
                    {
                        "version": 1,
                        "source": "tool",
                        "sourceEntryId": ask,
                        "timestamp": count,
                        "params": params,
                    },
                ),
                ("ask:draft", {"version": 1, "toolCallId": ask, "timestamp": count, "answers": {}}),
            ]
            if count % OPEN_EVERY:
                entries.append(("ask:pending-dismissed", {"toolCallId": ask}))
            for number, (kind, data) in enumerate(entries):
                entry_id = f"{count:06x}{number:02x}"
                line = {
                    "type": "custom",
                    "customType": kind,
                    "data": data,
                    "id": entry_id,
                    "parentId": parent,
                    "timestamp": _stamp(count),
                }
                written += handle.write(json.dumps(line, separators=(",", ":")) + "\n")
                parent = entry_id
            count += 1
    return count


def _stamp(n: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(1_700_000_000 + n))


@dataclass(frozen=True, slots=True)
class ResumeListTiming:
    """``pi-ask resume --list`` on few and on many past asks, in milliseconds."""

    few_asks: int
    many_asks: int
    many_mib: float
    few_median_ms: float
    many_median_ms: float
    paired_ratio: float
    listed_few: int
    listed_many: int


def measure_resume_list(
    pi_ask: str, env: Mapping[str, str], workdir: Path, params: object, runs: int = RUNS
) -> ResumeListTiming:
    """Time ``resume --list`` in a folder with 10 past asks and in one with 60,000."""
    state = workdir / "history-state"
    cases = {}
    for name, asks in (("few", 10), ("many", 60_000)):
        cwd = workdir / f"history-{name}"
        cwd.mkdir(exist_ok=True)
        write_history(log_path(state, cwd), params, asks=asks)
        cases[name] = cwd
    child_env = {**env, "PI_ASK_STATE_DIR": str(state)}
    times: dict[str, list[float]] = {"few": [], "many": []}
    listed: dict[str, int] = {}
    for round_number in range(runs + 1):  # round 0 warms the disk cache, untimed
        order = ["few", "many"] if round_number % 2 else ["many", "few"]
        for name in order:
            started = time.perf_counter()
            done = subprocess.run(
                [pi_ask, "resume", "--list", "--ui", "none"],
                cwd=cases[name],
                env=child_env,
                capture_output=True,
                text=True,
                check=True,
                timeout=120,
            )
            if round_number:
                times[name].append(time.perf_counter() - started)
            listed[name] = len(done.stdout.splitlines())
    ratios = [m / f for m, f in zip(times["many"], times["few"], strict=True)]
    many_log = log_path(state, cases["many"])
    return ResumeListTiming(
        few_asks=10,
        many_asks=60_000,
        many_mib=round(os.path.getsize(many_log) / 2**20, 1),
        few_median_ms=round(statistics.median(times["few"]) * 1000, 1),
        many_median_ms=round(statistics.median(times["many"]) * 1000, 1),
        paired_ratio=round(statistics.median(ratios), 2),
        listed_few=listed["few"],
        listed_many=listed["many"],
    )
