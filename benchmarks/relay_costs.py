"""Pending asks, measured (python-port.md §8, third wave): each figure against a floor.

- **Warm path**: with ``pi-ask inbox`` already open on a pty, an asker with no terminal
  (``setsid pi-ask ask``) until its question is on the inbox's screen, against a cold first
  frame of ``pi-ask ask`` on a pty; interleaved rounds, the median of per-round ratios.
- **no_terminal**: ``pi-ask ask`` with nobody to reach, until it exits, against
  ``python -c pass``; interleaved.
- **A waiting asker**: ``pi-ask ask --wait`` once it has published: its resident memory and
  how often it wakes (voluntary context switches of all its threads) over a few seconds.
- **The inbox with N pending asks** (detached asks, held by no process, so 1,000 fit): its CPU
  time over a few seconds idle on its list and with a flow open (the window right after the
  flow opened, whose start-up work the services do then, and the next one, settled), and
  its resident memory.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from first_frame import paired_ratio
from terminal_runs import Launch, TerminalRun

ROUNDS = 9
SAMPLE_S = 3.0
PYTHON = sys.executable
PI_ASK = (PYTHON, "-m", "pi_ask")


@dataclass(frozen=True, slots=True)
class RelayCosts:
    warm_ms: float
    cold_ms: float
    warm_ratio: float
    no_terminal_ms: float
    python_ms: float
    no_terminal_ratio: float
    waiting_rss_mib: float
    waiting_wakeups: int
    inbox: tuple[tuple[int, float, float, float, float], ...]
    """Per pending-ask count: (count, CPU % idle, CPU % with a flow open and settled, RSS MiB,
    CPU % in the window right after the flow opened)."""


def _env(base: Mapping[str, str], root: Path) -> dict[str, str]:
    env = {k: v for k, v in base.items() if not k.startswith("PI_ASK_")}
    env.update(
        PI_ASK_CONFIG=str(root / "config.toml"),
        PI_ASK_STATE_DIR=str(root / "state"),
        PI_ASK_RUNTIME_DIR=str(root / "run"),
        TERM="xterm-256color",
    )
    return env


def _proc_status(pid: int) -> dict[str, str]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


def _rss_mib(pid: int) -> float:
    return round(int(_proc_status(pid)["VmRSS"].split()[0]) / 1024, 1)


def _switches(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        status = (task / "status").read_text()
        for line in status.splitlines():
            if line.startswith("voluntary_ctxt_switches"):
                total += int(line.split()[1])
    return total


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _wait_for(predicate: object, what: str, cap_s: float = 60.0) -> None:
    deadline = time.monotonic() + cap_s
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.01)


def _asks(env: Mapping[str, str]) -> Path:
    return Path(env["PI_ASK_STATE_DIR"]) / "asks"


def _warm_round(env: dict[str, str], payload: Path, marker: str) -> float:
    inbox = TerminalRun(Launch("inbox", (*PI_ASK, "inbox"), "waiting for questions", env))
    try:
        inbox.first_frame()
        run = Path(env["PI_ASK_RUNTIME_DIR"])
        _wait_for(lambda: any(p.suffix == ".inbox" for p in run.iterdir()), "inbox socket")
        start = time.perf_counter()
        asker = subprocess.Popen(
            [*PI_ASK, "ask", str(payload)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        inbox.child.expect_exact(marker, timeout=60)
        elapsed = time.perf_counter() - start
        asker.send_signal(signal.SIGTERM)
        asker.wait(30)
        return elapsed
    finally:
        inbox.close()


def _cold_round(env: dict[str, str], payload: Path, marker: str) -> float:
    run = TerminalRun(Launch("ask", (*PI_ASK, "ask", str(payload)), marker, env))
    try:
        return run.first_frame()
    finally:
        run.close()


def _timed(command: list[str], env: Mapping[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        check=False,
    )
    return time.perf_counter() - start


def _waiting_asker(env: dict[str, str], payload: Path) -> tuple[float, int]:
    """Resident memory and wake-ups of an asker settled into its wait.

    The sample starts once the asker has said where to answer it and one more window has
    passed: what it does right after publishing (its notice, a notification) is start-up,
    not the periodic wake-ups the budget forbids.
    """
    said = Path(env["PI_ASK_STATE_DIR"]).parent / "waiting.err"
    said.parent.mkdir(parents=True, exist_ok=True)
    # A first run writes the config file (tomlkit, a lock): a user's asker finds it there.
    _timed([*PI_ASK, "ask", "--ui", "none", str(payload)], env)
    with said.open("wb") as stderr:
        asker = subprocess.Popen(
            [*PI_ASK, "ask", "--wait", str(payload)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
        )
    try:
        _wait_for(lambda: b"question waiting" in said.read_bytes(), "the ask published")
        time.sleep(SAMPLE_S)  # settling: benchmark windows, not a test's wait
        before = _switches(asker.pid)
        time.sleep(SAMPLE_S)
        return _rss_mib(asker.pid), _switches(asker.pid) - before
    finally:
        asker.send_signal(signal.SIGTERM)
        asker.wait(30)


def _inbox_with(
    env: dict[str, str], count: int, payload: dict[str, object]
) -> tuple[float, float, float, float]:
    code = (
        "import json, sys\n"
        "from pi_ask.contract.loading import load_payload\n"
        "from pi_ask.relay.elsewhere import start_detached\n"
        "payload = json.loads(sys.argv[2])\n"
        "for n in range(int(sys.argv[1])):\n"
        "    loaded = load_payload({**payload, 'title': f'Ask {n}'})\n"
        "    start_detached(loaded, f'ask-{n:05}', tmux='off')\n"
    )
    subprocess.run([PYTHON, "-c", code, str(count), json.dumps(payload)], env=env, check=True)
    inbox = TerminalRun(Launch("inbox", (*PI_ASK, "inbox"), "questions waiting", env))
    try:
        inbox.first_frame()
        pid = inbox.child.pid
        start = _cpu_s(pid)
        time.sleep(SAMPLE_S)
        idle = (_cpu_s(pid) - start) / SAMPLE_S * 100
        inbox.child.send("\r")  # the oldest opens: a flow with 'N more waiting'
        inbox.child.expect_exact("more waiting", timeout=60)
        start = _cpu_s(pid)
        time.sleep(SAMPLE_S)  # right after the opening: the services' start-up work
        opened = _cpu_s(pid)
        time.sleep(SAMPLE_S)  # settled: what an open flow costs while the user reads
        first = (opened - start) / SAMPLE_S * 100
        flow = (_cpu_s(pid) - opened) / SAMPLE_S * 100
        return round(idle, 2), round(flow, 2), _rss_mib(pid), round(first, 2)
    finally:
        inbox.close()


def measure_relay_costs(
    workdir: Path, payload: dict[str, object], marker: str, env: Mapping[str, str]
) -> RelayCosts:
    """Every figure of the module docstring, in ``workdir``."""
    path = workdir / "relay-payload.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    warm, cold = [], []
    for number in range(ROUNDS):
        root = workdir / f"relay-{number}"
        root.mkdir()
        run_env = _env(env, root)
        rounds = ((warm, _warm_round), (cold, _cold_round))
        for found, measure in rounds if number % 2 else reversed(rounds):
            found.append(measure(run_env, path, marker))
    quiet = _env(env, workdir / "relay-quiet")
    alone, floor = [], []
    for _ in range(ROUNDS * 2):
        alone.append(_timed([*PI_ASK, "ask", str(path)], quiet))
        floor.append(_timed([PYTHON, "-c", "pass"], quiet))
    rss, wakeups = _waiting_asker(_env(env, workdir / "relay-waiting"), path)
    inbox = []
    for count in (10, 100, 1000):
        idle, flow, memory, first = _inbox_with(
            _env(env, workdir / f"relay-inbox-{count}"), count, payload
        )
        inbox.append((count, idle, flow, memory, first))
    return RelayCosts(
        warm_ms=round(statistics.median(warm) * 1000, 1),
        cold_ms=round(statistics.median(cold) * 1000, 1),
        warm_ratio=paired_ratio(warm, cold),
        no_terminal_ms=round(statistics.median(alone) * 1000, 1),
        python_ms=round(statistics.median(floor) * 1000, 1),
        no_terminal_ratio=paired_ratio(alone, floor),
        waiting_rss_mib=rss,
        waiting_wakeups=wakeups,
        inbox=tuple(inbox),
    )


if __name__ == "__main__":  # a quick look: uv run python benchmarks/relay_costs.py
    import tempfile

    root = Path(__file__).resolve().parents[1]
    payload = json.loads((root / "tests/faces/tui/fixtures/payload_a.json").read_text())
    first = payload["questions"][0]
    with tempfile.TemporaryDirectory() as folder:
        costs = measure_relay_costs(Path(folder), payload, first["prompt"], os.environ)
    print(json.dumps(dataclasses.asdict(costs), indent=2))
