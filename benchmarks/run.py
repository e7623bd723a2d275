"""pi-ask benchmarks (python-port.md §8): first frame, keystroke cost, imports, memory.

Run with ``uv run python benchmarks/run.py``. It prints a table and writes
``benchmarks/results.json``.

- First frame: ``pi-ask ask`` in a real pseudo-terminal against the floor, a bare
  prompt_toolkit app drawing one line (``floor_app.py``), interleaved in the same run,
  median of 15 each. Bytecode is compiled first, as an installed wheel has it.
- Keystroke to frame, in-process, on the stress payload (10 questions x 9 options, one
  preview of 20,000 lines) against the same payload with a 20-line preview.
- ``@`` completion in a git work tree of 100,000 files: the first listing (done once, in
  the completer's thread) and each search.
- Modules loaded when the first frame is drawn (nothing heavy: apprise, pydantic,
  pydantic_settings, openai, watchfiles, mcp), and resident memory at that moment.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUNS = 15
KEYS = 200
PAYLOAD_A = ROOT / "tests" / "tui" / "fixtures" / "payload_a.json"
HEAVY = ("apprise", "pydantic", "pydantic_settings", "openai", "watchfiles", "mcp", "tomlkit")
BUDGET_RATIO = 2.0
BUDGET_KEY_MS = 10.0
BUDGET_RSS_MIB = 60.0


def _env(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(
        TERM="xterm-256color",
        PI_ASK_CONFIG=str(workdir / "config.toml"),
        PI_ASK_STATE_DIR=str(workdir / "state"),
    )
    return env


def _first_frame(command: list[str], marker: str, env: dict[str, str]) -> float:
    """Seconds from spawning ``command`` on a pty until ``marker`` is on its terminal."""
    start = time.perf_counter()
    child = pexpect.spawn(command[0], command[1:], env=env, dimensions=(40, 100), encoding="utf-8")
    child.delaybeforesend = None
    try:
        child.expect_exact(marker, timeout=30)
        return time.perf_counter() - start
    finally:
        child.terminate(force=True)


def measure_first_frame(workdir: Path) -> dict[str, object]:
    env = _env(workdir)
    python = sys.executable
    floor = [python, str(ROOT / "benchmarks" / "floor_app.py")]
    ask = [python, "-m", "pi_ask", "ask", str(PAYLOAD_A)]
    _first_frame(floor, "first frame", env)  # warm the disk cache and write the config
    _first_frame(ask, "☰ Review", env)
    floors: list[float] = []
    asks: list[float] = []
    for _ in range(RUNS):
        floors.append(_first_frame(floor, "first frame", env))
        asks.append(_first_frame(ask, "☰ Review", env))
    floor_ms = statistics.median(floors) * 1000
    ask_ms = statistics.median(asks) * 1000
    return {
        "runs": RUNS,
        "floor_ms": round(floor_ms, 1),
        "pi_ask_ms": round(ask_ms, 1),
        "ratio": round(ask_ms / floor_ms, 2),
        "budget_ratio": BUDGET_RATIO,
    }


def stress_payload(preview_lines: int) -> dict[str, object]:
    """10 questions x 9 options; question 2 is a preview question, option 1 with the big preview."""
    questions: list[dict[str, object]] = []
    for q in range(10):
        options: list[dict[str, object]] = []
        for o in range(9):
            option: dict[str, object] = {
                "value": f"q{q}o{o}",
                "label": f"Option {o + 1} of question {q + 1}",
                "description": "A description long enough to wrap on a narrow terminal. " * 2,
            }
            if q == 1:
                lines = preview_lines if o == 0 else 20
                # Short lines keep the payload under the 1 MiB limit.
                option["preview"] = "\n".join(f"  line {n} of the preview" for n in range(lines))
            options.append(option)
        questions.append(
            {
                "id": f"q{q}",
                "label": f"Question {q + 1}",
                "prompt": f"Question number {q + 1}: which option fits best?",
                "type": "preview" if q == 1 else ("multi" if q % 2 else "single"),
                "options": options,
            }
        )
    return {"title": "Stress", "questions": questions}


async def _keystrokes(payload: dict[str, object], workdir: Path) -> list[float]:
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from pi_ask.config import SettingsStore
    from pi_ask.contract import LoadedPayload, load_payload
    from pi_ask.state import Abort, new_state
    from pi_ask.tui.flow import AskFlow

    class Sink:
        encoding = "utf-8"

        def write(self, data: str) -> int:
            return len(data)

        def flush(self) -> None:
            pass

    loaded = load_payload(json.dumps(payload))
    assert isinstance(loaded, LoadedPayload)
    store = SettingsStore(workdir / "keys.toml")
    output = Vt100_Output(Sink(), lambda: Size(rows=40, columns=100), enable_cpr=False)  # type: ignore[arg-type]
    rendered = asyncio.Event()
    with create_pipe_input() as pipe:
        flow = AskFlow(new_state(loaded.payload), store=store, input=pipe, output=output)
        # Wait on an event, not a busy loop: prompt_toolkit postpones a redraw while the
        # loop has other work, so polling would measure the postponement.
        flow.app.after_render += lambda _app: rendered.set()
        task = asyncio.ensure_future(flow.run_async())

        async def send(data: str) -> float:
            rendered.clear()
            start = time.perf_counter()
            pipe.send_text(data)
            await rendered.wait()
            return time.perf_counter() - start

        await rendered.wait()
        await send("\t")  # to the preview question, cursor on the 20,000-line option
        times = [await send("\x1b[B" if i % 2 == 0 else "\x1b[A") for i in range(KEYS)]
        flow.dispatch(Abort())
        await task
    return times


def measure_keystrokes(workdir: Path) -> dict[str, object]:
    out: dict[str, object] = {"keys": KEYS}
    for name, lines in (("preview_20000_lines", 20_000), ("preview_20_lines", 20)):
        times = asyncio.run(_keystrokes(stress_payload(lines), workdir))
        out[name] = {
            "median_ms": round(statistics.median(times) * 1000, 3),
            "p95_ms": round(sorted(times)[int(len(times) * 0.95)] * 1000, 3),
        }
    big = out["preview_20000_lines"]["median_ms"]  # type: ignore[index]
    small = out["preview_20_lines"]["median_ms"]  # type: ignore[index]
    out["ratio"] = round(big / small, 2)
    out["budget_median_ms"] = BUDGET_KEY_MS
    return out


def measure_file_completion(workdir: Path, files: int = 100_000) -> dict[str, object]:
    """Listing and searching a git work tree of ``files`` files for ``@`` completion."""
    from pi_ask.tui.file_index import FileIndex

    root = workdir / "repo"
    for n in range(files):
        folder = root / f"pkg{n // 1000:03d}" / f"mod{n // 100 % 10}"
        if n % 100 == 0:
            folder.mkdir(parents=True)
        (folder / f"file_{n}.py").touch()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("pkg000/\n", encoding="utf-8")
    index = FileIndex(root)
    start = time.perf_counter()
    listed = len(index.paths())
    listing = time.perf_counter() - start
    searches = []
    for query in ("file_9", "pkg05/mod3", "zzz", "mod", "file_12345"):
        start = time.perf_counter()
        index.search(query)
        searches.append(time.perf_counter() - start)
    return {
        "files": files,
        "paths_listed": listed,
        "first_listing_ms": round(listing * 1000, 1),
        "search_median_ms": round(statistics.median(searches) * 1000, 1),
        "search_max_ms": round(max(searches) * 1000, 1),
    }


def measure_imports(workdir: Path) -> dict[str, object]:
    env = _env(workdir)
    env["PI_ASK_BENCH_OUT"] = str(workdir / "modules.json")
    harness = [sys.executable, str(ROOT / "benchmarks" / "first_frame_modules.py")]
    child = pexpect.spawn(
        harness[0], [*harness[1:], "ask", str(PAYLOAD_A)], env=env, dimensions=(40, 100)
    )
    child.expect(pexpect.EOF, timeout=30)
    data = json.loads((workdir / "modules.json").read_text(encoding="utf-8"))
    modules: list[str] = data["modules"]
    heavy = sorted({m.split(".")[0] for m in modules if m.split(".")[0] in HEAVY})
    return {
        "modules_at_first_frame": len(modules),
        "pi_ask_modules": len([m for m in modules if m.startswith("pi_ask")]),
        "heavy_loaded": heavy,
        "rss_mib": round(data["rss_kib"] / 1024, 1),
        "budget_rss_mib": BUDGET_RSS_MIB,
    }


def _median(keys: dict[str, object], name: str) -> object:
    entry = keys[name]
    assert isinstance(entry, dict)
    return entry["median_ms"]


def main() -> int:
    # An installed wheel has its bytecode compiled; do the same for this checkout.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "pi_ask")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with tempfile.TemporaryDirectory(prefix="pi-ask-bench-") as tmp:
        workdir = Path(tmp)
        results = {
            "first_frame": measure_first_frame(workdir),
            "keystroke": measure_keystrokes(workdir),
            "imports": measure_imports(workdir),
            "file_completion": measure_file_completion(workdir),
            "load_average": os.getloadavg()[0],
        }
    (ROOT / "benchmarks" / "results.json").write_text(
        json.dumps(results, indent=2) + "\n", encoding="utf-8"
    )
    first = results["first_frame"]
    keys = results["keystroke"]
    imports = results["imports"]
    completion = results["file_completion"]
    rows = [
        ("first frame, floor (bare prompt_toolkit)", f"{first['floor_ms']} ms"),
        ("first frame, pi-ask ask", f"{first['pi_ask_ms']} ms"),
        ("first frame ratio (budget 2.0x)", f"{first['ratio']}x"),
        (
            "keystroke, 20,000-line preview (median)",
            f"{keys['preview_20000_lines']['median_ms']} ms",
        ),  # type: ignore[index]
        ("keystroke, 20-line preview (median)", f"{keys['preview_20_lines']['median_ms']} ms"),  # type: ignore[index]
        ("keystroke ratio big/small preview", f"{keys['ratio']}x"),
        ("heavy modules at first frame", ", ".join(imports["heavy_loaded"]) or "none"),  # type: ignore[arg-type]
        ("resident memory at first frame", f"{imports['rss_mib']} MiB"),
        ("@ completion: first listing of 100k files", f"{completion['first_listing_ms']} ms"),
        (
            "@ completion: search (median / max)",
            f"{completion['search_median_ms']} / {completion['search_max_ms']} ms",
        ),
        ("load average during the run", f"{results['load_average']:.2f}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
