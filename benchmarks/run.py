"""pi-ask benchmarks: every budget of python-port.md §8, measured in one run.

Run with ``uv run python benchmarks/run.py`` (a few minutes on two cores). It prints the
machine, a budget table with PASS/FAIL and the detail tables, as Markdown, and writes
``benchmarks/results.json``. Every verdict compares figures taken in the same run
(ratios, or a curve over payload sizes), because the machines it runs on are noisy.

- First frame of ``pi-ask ask`` on a real pseudo-terminal against the floor, a bare
  prompt_toolkit app drawing one line (``floor_app.py``): on the README's payload with a
  config file, the same with a ``PI_ASK_*`` setting variable, on the stress payload, and
  with a 26 MiB session log; also ``pi-ask demo`` and ``pi-ask ask`` with a notifying
  config (a hanging command channel, then apprise to a loopback server). Interleaved, 15
  rounds; each ratio is the median of the 15 per-round ratios (``first_frame.py``).
- ``pi-ask resume --list`` on a log of 60,000 past asks against one of 10 (``history.py``).
- The work until the first frame, against the floor: CPU time, Python calls and modules,
  which the load moves far less than wall times (``first_frame_work.py``).
- Keys typed while that notification runs, against a flow without it
  (``notification_cost.py``).
- Keystroke to frame, in-process, for previews of 20 / 2,000 / 20,000 lines and for
  1 / 10 / 50 questions, against prompt_toolkit drawing the same frames, with the bytes
  written per key and the Python calls each key makes as a load-free cross-check
  (``keystrokes.py``).
- A config file saved like an editor does, until the open flow draws the new setting
  (``config_reload.py``).
- Modules loaded before the first frame, and resident memory (``loaded_modules.py``).
- ``@`` completion in a git work tree of 100,000 files (``file_completion.py``).
- Instant asks (issue 28): the warm path, ``no_terminal``, a waiting asker and an inbox
  with 10 / 100 / 1,000 asks, each against its floor (``relay_costs.py``); ``pi-ask mcp``
  until ``tools/list`` against minimal TypeScript and Python SDK servers (``mcp_start.py``);
  alone with ``run.py --only instant``.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from config_reload import ReloadTiming, measure_reload
from file_completion import CompletionTiming, measure_file_completion
from first_frame import FrameTiming, measure_first_frames, paired_ratio
from first_frame_work import FirstFrameWork, measure_first_frame_work
from history import ResumeListTiming, log_path, measure_resume_list, write_history
from keystrokes import KeyTiming, markdown_stress_payload, measure_keystrokes, stress_payload
from loaded_modules import HEAVY, LoadedModules, measure_loaded_modules
from mcp_start import McpStart, measure_mcp_start
from notification_cost import (
    TIMEOUT_S,
    NotificationWindow,
    measure_notification_window,
    notifying_config,
)
from notify_sink import NotifySink
from relay_costs import RelayCosts, measure_relay_costs
from terminal_runs import Launch

ROOT = Path(__file__).resolve().parents[1]

PAYLOAD_A = ROOT / "tests" / "faces" / "tui" / "fixtures" / "payload_a.json"
REVIEW_TAB = "≡ Review"
# python-port.md §8's budgets: per-round ratios to a floor measured in the same run. The
# first frame's were set after the second wave measured 1.14-1.28x and 1.19-1.41x (stress).
BUDGET_FRAME_RATIO = 1.3
BUDGET_STRESS_FRAME_RATIO = 1.5
# Drawn only once the Markdown stress payload's Markdown is: the bar of its first prompt's
# quote (nothing else on that screen draws one; the quote is "> " until then).
MARKDOWN_RENDERED = "│"
# Drawn once its fenced code is coloured too (a frame later, once Pygments is loaded): the
# prompt's TOML number starts a run of its own colour. Reported, not judged.
MARKDOWN_COLOURED = re.compile(r"\x1b\[[0-9;]*m8080")
BUDGET_HISTORY_RATIO = 1.05
BUDGET_RESUME_LIST_RATIO = 2.0
BUDGET_KEY_FLOOR_RATIO = 1.2
HISTORY_BYTES = 26 * 1024 * 1024
# A setting variable that keeps the screen as it is (the default value).
SETTING_VARIABLE = {"PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS": "true"}
BUDGET_FLAT_RATIO = 1.5
BUDGET_RSS_MIB = 60.0
BUDGET_RELOAD_MS = 1000.0
# "Costs nothing", within what medians of a busy shared machine agree to. What the budget
# guards against is far larger: a first frame or key that waited on the hanging channel
# would wait its whole 2 s timeout (10x a first frame, 50x a key), and importing apprise
# on the way costs ~150 ms (+0.7x a first frame, +4x a first key).
NOISE_RATIO = 1.25
# The first key after the first frame is a ~35 ms figure taken once per run: with the same
# code its paired ratio was 1.19 over 15 runs in one benchmark and 0.94 over 25 in another.
FIRST_KEY_NOISE_RATIO = 1.5
# A key that waited on the hanging channel would wait its whole 2 s timeout; a load
# spike on a shared machine can add a hundred milliseconds to any key.
BUDGET_KEY_MAX_MS = 500.0
# Issue 28's budgets (python-port.md §8, third wave), each against a floor of the same run.
BUDGET_WARM_RATIO = 0.5
BUDGET_NO_TERMINAL_RATIO = 3.5
BUDGET_WAITING_RSS_MIB = 12.0
BUDGET_INBOX_CPU_PERCENT = 1.0
BUDGET_INBOX_MEMORY_RATIO = 1.2
BUDGET_MCP_TYPESCRIPT_RATIO = 1.0


@dataclass(frozen=True, slots=True)
class Machine:
    """Where the figures were taken."""

    nproc: int
    machine: str
    cpu_model: str
    python: str
    prompt_toolkit: str
    date: str
    load_average_start: float
    load_average_end: float
    seconds: float
    bytecode: str


@dataclass(frozen=True, slots=True)
class Budget:
    """One line of the budget table."""

    measure: str
    value: str
    budget: str
    passed: bool


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _env(workdir: Path, config: str = "config.toml") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(
        TERM="xterm-256color",
        PI_ASK_CONFIG=str(workdir / config),
        PI_ASK_STATE_DIR=str(workdir / "state"),
    )
    return env


def _pi_ask() -> str:
    """The installed ``pi-ask`` script beside this interpreter (what a user runs)."""
    script = Path(sys.executable).with_name("pi-ask")
    return str(script) if script.exists() else "pi-ask"


def readme_payload() -> object:
    """The payload of the README's "Use" section (its first JSON block)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])


def _launches(workdir: Path, sink: NotifySink) -> tuple[Launch, ...]:
    """The floor and pi-ask's launches; every ask has the config file the warm-up wrote
    (the untouched default file), but ``ask_edited_config``, whose file a user has edited."""
    (workdir / "notifying.toml").write_text(notifying_config(sink), encoding="utf-8")
    (workdir / "edited.toml").write_text(edited_config(), encoding="utf-8")
    readme = workdir / "readme_payload.json"
    readme.write_text(json.dumps(readme_payload()), encoding="utf-8")
    stress = workdir / "stress_payload.json"
    stress.write_text(json.dumps(stress_payload(20_000)), encoding="utf-8")
    markdown = workdir / "markdown_stress_payload.json"
    markdown.write_text(json.dumps(markdown_stress_payload(20_000)), encoding="utf-8")
    plain = _env(workdir)
    history = {**plain, "PI_ASK_STATE_DIR": str(workdir / "history-26mb")}
    write_history(
        log_path(workdir / "history-26mb", Path.cwd()), readme_payload(), size=HISTORY_BYTES
    )
    # No PI_ASK_CONFIG / PI_ASK_STATE_DIR: the folders come from platformdirs, as for a user
    # (under a HOME of its own; the warm-up run writes the default config file there).
    home = workdir / "home"
    chosen = ("PI_ASK_", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
    default_paths = {k: v for k, v in plain.items() if not k.startswith(chosen)}
    default_paths["HOME"] = str(home)
    pi_ask = _pi_ask()
    ask = (pi_ask, "ask", str(readme))
    return (
        Launch(
            "floor",
            (sys.executable, str(ROOT / "benchmarks" / "floor_app.py")),
            "first frame",
            plain,
        ),
        Launch("ask", ask, REVIEW_TAB, plain, keyed=True),
        Launch("ask_env", ask, REVIEW_TAB, {**plain, **SETTING_VARIABLE}),
        Launch("ask_edited_config", ask, REVIEW_TAB, _env(workdir, "edited.toml")),
        Launch("ask_default_paths", ask, REVIEW_TAB, default_paths),
        # Its ten tabs do not all fit: the marker is the first question's prompt.
        Launch("ask_stress", (pi_ask, "ask", str(stress)), "Question number 1:", plain),
        # Markdown in every prompt, a fenced block on the first screen (issue 30).
        Launch("ask_markdown_stress", (pi_ask, "ask", str(markdown)), "Question number 1:", plain),
        # The same, until its Markdown is drawn (after the parser loaded past the first frame).
        Launch("ask_markdown_rendered", (pi_ask, "ask", str(markdown)), MARKDOWN_RENDERED, plain),
        Launch("ask_markdown_coloured", (pi_ask, "ask", str(markdown)), MARKDOWN_COLOURED, plain),
        Launch("ask_history", ask, REVIEW_TAB, history),
        Launch("demo", (pi_ask, "demo"), REVIEW_TAB, plain),
        Launch("ask_notifying", ask, REVIEW_TAB, _env(workdir, "notifying.toml"), keyed=True),
    )


def edited_config() -> str:
    """The default config file with one value changed that the first frame does not show:
    no longer the text pi-ask wrote, so it is parsed (tomllib) and checked like any file."""
    from pi_ask.config.toml_text import default_text

    text = default_text()
    edited = text.replace("remind_times = 1\n", "remind_times = 2\n")
    assert edited != text, "the default file no longer has remind_times = 1"
    return edited


def _compile_bytecode() -> str:
    """Compile pi_ask and every installed package to bytecode, as an install with it does.

    A user's install compiles at install time (``uv tool install --compile-bytecode``, pipx,
    pip). This checkout is an editable install in a venv uv made without compiling, and this
    environment sets ``PYTHONDONTWRITEBYTECODE=1``, so nothing would ever write a ``.pyc``
    file and every start would compile from source, which no installed user pays.
    ``compileall`` writes them whatever that variable says (and skips what is up to date);
    the interpreter reads them either way. Returns how, for the report.
    """
    folders = [str(ROOT / "pi_ask"), sysconfig.get_path("purelib")]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *folders],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return "python -m compileall pi_ask and site-packages before the run"


def _key(keys: tuple[KeyTiming, ...], name: str) -> KeyTiming:
    return next(timing for timing in keys if timing.name == name)


def _flatness(keys: tuple[KeyTiming, ...], prefix: str) -> tuple[float, float]:
    """Largest / smallest median time, and the same for calls per key, over a curve."""
    curve = [timing for timing in keys if timing.name.startswith(prefix)]
    medians = [timing.median_ms for timing in curve]
    calls = [timing.calls_per_key for timing in curve]
    return round(max(medians) / min(medians), 2), round(max(calls) / min(calls), 2)


def budgets(
    frames: dict[str, FrameTiming],
    window: NotificationWindow,
    keys: tuple[KeyTiming, ...],
    reload: ReloadTiming,
    loaded: LoadedModules,
    resume_list: ResumeListTiming,
    history_mib: float,
) -> tuple[Budget, ...]:
    """Every budget of python-port.md §8 (and the reload promise of §4), judged."""
    floor, ask, notifying = frames["floor"], frames["ask"], frames["ask_notifying"]
    # Judged on the median of the 15 per-round ratios: the ratio of the two medians swings
    # with load that hits some rounds and not others (the same command measured as "ask"
    # and "ask_notifying" once gave medians 300 and 228 ms, paired ratio 1.00).
    frame_ratio = paired_ratio(ask.frames_ms, floor.frames_ms)
    medians_ratio = round(ask.median_ms / floor.median_ms, 2)
    notify_ratio = paired_ratio(notifying.frames_ms, ask.frames_ms)
    first_key_ratio = paired_ratio(notifying.first_keys_ms, ask.first_keys_ms)
    window_ratio = window.paired_ratio
    stress = _key(keys, "preview_20000_lines")
    previews_flat, previews_calls = _flatness(keys, "preview_")
    questions_flat, questions_calls = _flatness(keys, "questions_")
    heavy = ", ".join(loaded.heavy_at_first_frame) or "none"
    rss = max(loaded.rss_first_frame_mib, loaded.rss_settled_mib)
    env_ratio = paired_ratio(frames["ask_env"].frames_ms, floor.frames_ms)
    paths_ratio = paired_ratio(frames["ask_default_paths"].frames_ms, floor.frames_ms)
    edited_ratio = paired_ratio(frames["ask_edited_config"].frames_ms, floor.frames_ms)
    stress_ratio = paired_ratio(frames["ask_stress"].frames_ms, floor.frames_ms)
    markdown_ratio = paired_ratio(frames["ask_markdown_stress"].frames_ms, floor.frames_ms)
    rendered = frames["ask_markdown_rendered"]
    rendered_ratio = paired_ratio(rendered.frames_ms, floor.frames_ms)
    markdown_keys = _key(keys, "markdown_preview_20000_lines")
    history = frames["ask_history"]
    history_ratio = paired_ratio(history.frames_ms, ask.frames_ms)
    return (
        Budget(
            "first frame, pi-ask ask (README payload, config file) / floor, per round",
            f"{frame_ratio}x (medians {ask.median_ms} / {floor.median_ms} ms = {medians_ratio}x)",
            f"<= {BUDGET_FRAME_RATIO}x",
            frame_ratio <= BUDGET_FRAME_RATIO,
        ),
        Budget(
            "first frame, the same with a PI_ASK_* setting variable / floor, per round",
            f"{env_ratio}x (median {frames['ask_env'].median_ms} ms)",
            f"<= {BUDGET_FRAME_RATIO}x",
            env_ratio <= BUDGET_FRAME_RATIO,
        ),
        Budget(
            "first frame, the same with an edited config file (parsed with tomllib) "
            "/ floor, per round",
            f"{edited_ratio}x (median {frames['ask_edited_config'].median_ms} ms)",
            f"<= {BUDGET_FRAME_RATIO}x",
            edited_ratio <= BUDGET_FRAME_RATIO,
        ),
        Budget(
            "first frame, the same with the default folders (platformdirs, no PI_ASK_CONFIG) "
            "/ floor, per round",
            f"{paths_ratio}x (median {frames['ask_default_paths'].median_ms} ms)",
            f"<= {BUDGET_FRAME_RATIO}x",
            paths_ratio <= BUDGET_FRAME_RATIO,
        ),
        Budget(
            "first frame, stress payload (20,000-line preview) / floor, per round",
            f"{stress_ratio}x (median {frames['ask_stress'].median_ms} ms)",
            f"<= {BUDGET_STRESS_FRAME_RATIO}x",
            stress_ratio <= BUDGET_STRESS_FRAME_RATIO,
        ),
        Budget(
            "first frame, Markdown stress payload (fenced code on screen, 20,000-line "
            "Markdown preview) / floor, per round",
            f"{markdown_ratio}x (median {frames['ask_markdown_stress'].median_ms} ms)",
            f"<= {BUDGET_STRESS_FRAME_RATIO}x",
            markdown_ratio <= BUDGET_STRESS_FRAME_RATIO,
        ),
        Budget(
            "Markdown drawn, the same payload (the frame after the parser loaded) / floor, "
            "per round",
            f"{rendered_ratio}x (median {rendered.median_ms} ms)",
            f"<= {BUDGET_STRESS_FRAME_RATIO}x",
            rendered_ratio <= BUDGET_STRESS_FRAME_RATIO,
        ),
        Budget(
            "first frame with a 26 MiB session log / with a fresh state, per round",
            f"{history_ratio}x (medians {history.median_ms} / {ask.median_ms} ms; "
            f"the log still {history_mib} MiB after the runs)",
            f"<= {BUDGET_HISTORY_RATIO}x",
            history_ratio <= BUDGET_HISTORY_RATIO,
        ),
        Budget(
            f"resume --list, {resume_list.many_asks:,} past asks ({resume_list.many_mib} MiB) "
            f"/ {resume_list.few_asks}, per round",
            f"{resume_list.paired_ratio}x (medians {resume_list.many_median_ms} / "
            f"{resume_list.few_median_ms} ms)",
            f"<= {BUDGET_RESUME_LIST_RATIO}x",
            resume_list.paired_ratio <= BUDGET_RESUME_LIST_RATIO,
        ),
        Budget(
            "modules the first frame does not need, loaded before it",
            heavy,
            f"none of {', '.join(HEAVY)}",
            not loaded.heavy_at_first_frame,
        ),
        Budget(
            "keystroke, stress payload (10 q x 9 options, 20,000-line preview) / floor "
            "(prompt_toolkit drawing the same frames), per round",
            f"{stress.floor_ratio}x (medians {stress.median_ms} / {stress.floor_median_ms} ms; "
            f"{stress.bytes_per_key} bytes written per key)",
            f"<= {BUDGET_KEY_FLOOR_RATIO}x",
            stress.floor_ratio <= BUDGET_KEY_FLOOR_RATIO,
        ),
        Budget(
            "keystroke, Markdown stress payload (20,000-line Markdown preview, mostly "
            "highlighted code) / floor, per round",
            f"{markdown_keys.floor_ratio}x (medians {markdown_keys.median_ms} / "
            f"{markdown_keys.floor_median_ms} ms)",
            f"<= {BUDGET_KEY_FLOOR_RATIO}x",
            markdown_keys.floor_ratio <= BUDGET_KEY_FLOOR_RATIO,
        ),
        Budget(
            "keystroke cost flat as the preview grows (20 -> 20,000 lines), max/min median",
            f"{previews_flat}x (Python calls per key: {previews_calls}x)",
            f"< {BUDGET_FLAT_RATIO}x",
            previews_flat < BUDGET_FLAT_RATIO,
        ),
        Budget(
            "keystroke cost flat as questions grow (1 -> 50), max/min median",
            f"{questions_flat}x (Python calls per key: {questions_calls}x)",
            f"< {BUDGET_FLAT_RATIO}x",
            questions_flat < BUDGET_FLAT_RATIO,
        ),
        Budget(
            "hanging channel + apprise: first frame / plain ask, per round",
            f"{notify_ratio}x (medians {notifying.median_ms} / {ask.median_ms} ms)",
            f"<= {NOISE_RATIO}x (noise)",
            notify_ratio <= NOISE_RATIO,
        ),
        Budget(
            "hanging channel + apprise: first key after the first frame / plain, per round",
            f"{first_key_ratio}x (medians {notifying.first_key_median_ms} / "
            f"{ask.first_key_median_ms} ms)",
            f"<= {FIRST_KEY_NOISE_RATIO}x (noise)",
            first_key_ratio <= FIRST_KEY_NOISE_RATIO,
        ),
        Budget(
            "keys typed until the notification arrived, by turns with a plain flow: per pair, max",
            f"{window_ratio}x (medians {window.notifying_median_ms} / "
            f"{window.plain_median_ms} ms), "
            f"max {window.notifying_max_ms} ms, {window.keys} keys",
            f"<= {NOISE_RATIO}x (noise), max < {BUDGET_KEY_MAX_MS:g} ms",
            window_ratio <= NOISE_RATIO
            and window.notifying_max_ms < BUDGET_KEY_MAX_MS
            and window.delivered_after_ms is not None,
        ),
        Budget(
            "resident memory of an open flow (no notification back end loaded)",
            f"{rss} MiB (first frame {loaded.rss_first_frame_mib}, "
            f"{loaded.settle_s:g} s later {loaded.rss_settled_mib})",
            f"< {BUDGET_RSS_MIB:g} MiB",
            rss < BUDGET_RSS_MIB,
        ),
        Budget(
            "config saved (write + rename) -> open flow redrawn with it, §4",
            f"median {reload.median_ms} ms, max {reload.max_ms} ms "
            f"({reload.reloads} saves; watcher polls every {reload.watch_interval_ms:g} ms)",
            f"< {BUDGET_RELOAD_MS:g} ms (a fraction of a second)",
            reload.max_ms < BUDGET_RELOAD_MS,
        ),
    )


def instant_budgets(relay: RelayCosts, mcp: McpStart) -> tuple[Budget, ...]:
    """Issue 28's budgets: the MCP server listed, and those of ``relay_budgets``."""
    typescript = mcp.ratio_typescript
    listed = Budget(
        "pi-ask mcp to tools/list / a minimal TypeScript SDK server (and / the Python SDK's)",
        f"{typescript}x / {mcp.ratio_python}x (medians {mcp.pi_ask_ms} / "
        f"{mcp.typescript_sdk_ms} / {mcp.python_sdk_ms} ms)",
        f"<= {BUDGET_MCP_TYPESCRIPT_RATIO:g}x the TypeScript one",
        typescript is not None and typescript <= BUDGET_MCP_TYPESCRIPT_RATIO,
    )
    return (listed, *relay_budgets(relay))


def relay_budgets(relay: RelayCosts) -> tuple[Budget, ...]:
    """Issue 28's budgets: the warm path, no_terminal, a waiting asker, a crowded inbox."""
    by_count = {count: (idle, flow, rss) for count, idle, flow, rss, _first in relay.inbox}
    most = max(by_count)
    idle, flow, rss = by_count[most]
    memory_ratio = round(rss / by_count[min(by_count)][2], 2)
    return (
        Budget(
            "warm path: asker start -> question on a running inbox's screen / cold first frame",
            f"{relay.warm_ratio}x (medians {relay.warm_ms} / {relay.cold_ms} ms)",
            f"<= {BUDGET_WARM_RATIO}x",
            relay.warm_ratio <= BUDGET_WARM_RATIO,
        ),
        Budget(
            "no_terminal answer / python -c pass, per round",
            f"{relay.no_terminal_ratio}x (medians {relay.no_terminal_ms} / {relay.python_ms} ms)",
            f"<= {BUDGET_NO_TERMINAL_RATIO}x",
            relay.no_terminal_ratio <= BUDGET_NO_TERMINAL_RATIO,
        ),
        Budget(
            "a waiting asker (README payload): resident memory, wake-ups in the sample",
            f"{relay.waiting_rss_mib} MiB, {relay.waiting_wakeups} wake-ups",
            f"<= {BUDGET_WAITING_RSS_MIB:g} MiB, none",
            relay.waiting_rss_mib <= BUDGET_WAITING_RSS_MIB and relay.waiting_wakeups == 0,
        ),
        Budget(
            f"inbox with {most:,} pending asks: CPU idle / flow open (settled); memory / "
            f"{min(by_count)}",
            f"{idle}% / {flow}% of a core; {rss} MiB ({memory_ratio}x)",
            f"<= {BUDGET_INBOX_CPU_PERCENT:g}%; <= {BUDGET_INBOX_MEMORY_RATIO}x",
            max(idle, flow) <= BUDGET_INBOX_CPU_PERCENT
            and memory_ratio <= BUDGET_INBOX_MEMORY_RATIO,
        ),
    )


def _row(check: Budget) -> tuple[str, str, str, str]:
    return (check.measure, check.value, check.budget, "PASS" if check.passed else "**FAIL**")


def relay_report(relay: RelayCosts) -> str:
    return "\n\n".join(
        (
            "## Pending asks: the inbox with N asks (CPU % of a core over the sample, MiB)",
            _table(
                (
                    "pending asks",
                    "CPU idle",
                    "CPU, the flow just opened",
                    "CPU, the flow open and settled",
                    "resident memory",
                ),
                [
                    (f"{count:,}", idle, first, flow, rss)
                    for count, idle, flow, rss, first in relay.inbox
                ],
            ),
            "CPU is measured in clock ticks of 10 ms: 0.33% over a 3 s window is one tick.",
        )
    )


def _table(header: tuple[str, ...], rows: list[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def machine_report(machine: Machine) -> str:
    """The machine table and the run's length and bytecode, as Markdown."""
    table = _table(
        ("nproc", "arch", "CPU", "Python", "prompt_toolkit", "date (UTC)", "load avg"),
        [
            (
                machine.nproc,
                machine.machine,
                machine.cpu_model,
                machine.python,
                machine.prompt_toolkit,
                machine.date,
                f"{machine.load_average_start:.2f} -> {machine.load_average_end:.2f}",
            )
        ],
    )
    return "\n\n".join(
        (
            "## Machine",
            table,
            f"Whole run: {machine.seconds:.0f} s. Bytecode: {machine.bytecode}.",
        )
    )


def report(
    machine: Machine,
    checks: tuple[Budget, ...],
    frames: dict[str, FrameTiming],
    window: NotificationWindow,
    keys: tuple[KeyTiming, ...],
    loaded: LoadedModules,
    completion: CompletionTiming,
    resume_list: ResumeListTiming,
    work: FirstFrameWork,
) -> str:
    """The Markdown report: machine, budgets, then the figures behind them."""
    floor = frames["floor"].frames_ms
    parts = [
        machine_report(machine),
        "## Budgets (python-port.md §8)",
        _table(
            ("measure", "value", "budget", "verdict"),
            [_row(c) for c in checks],
        ),
        "## First frame on a pty (interleaved, ms)",
        _table(
            ("launch", "runs", "median", "min", "max", "x floor, per round", "first key median"),
            [
                (
                    f.name,
                    f.runs,
                    f.median_ms,
                    f.min_ms,
                    f.max_ms,
                    f"{paired_ratio(f.frames_ms, floor):.2f}",
                    f.first_key_median_ms if f.first_key_median_ms is not None else "-",
                )
                for f in frames.values()
            ],
        ),
        (
            f"Notification delivered to the loopback server "
            f"{window.delivered_after_ms} ms after the first frame "
            f"(the command channel hangs until its {TIMEOUT_S} s timeout, then apprise sends)."
            if window.delivered_after_ms is not None
            else "**The notification never reached the loopback server.**"
        ),
        "## Work until the first frame: CPU time, Python calls, modules (pi-ask ask / floor)",
        _table(
            ("measure", "floor", "pi-ask ask", "ratio"),
            [
                (
                    f"CPU ms (median of {work.runs}; ratio per round)",
                    work.floor_cpu_ms,
                    work.ask_cpu_ms,
                    work.cpu_ratio,
                ),
                (
                    "Python calls (one counted run)",
                    work.floor_calls,
                    work.ask_calls,
                    work.calls_ratio,
                ),
                (
                    "modules loaded",
                    work.floor_modules,
                    work.ask_modules,
                    round(work.ask_modules / work.floor_modules, 2),
                ),
            ],
        ),
        (
            f"With the 26 MiB session log, `pi-ask ask` took {work.history_cpu_ms} CPU ms "
            f"({work.history_cpu_ratio}x its fresh-state run, per round) and made "
            f"{work.history_calls} Python calls ({work.ask_calls} with a fresh state)."
        ),
        "## Keystroke to frame, in-process (ms), against prompt_toolkit drawing the same frames",
        _table(
            (
                "payload",
                "keys",
                "median",
                "p95",
                "max",
                "floor median",
                "x floor, per round",
                "bytes per key",
                "floor bytes per key",
                "Python calls per key",
            ),
            [
                (
                    k.name,
                    k.keys,
                    k.median_ms,
                    k.p95_ms,
                    k.max_ms,
                    k.floor_median_ms,
                    k.floor_ratio,
                    k.bytes_per_key,
                    k.floor_bytes_per_key,
                    k.calls_per_key,
                )
                for k in keys
            ],
        ),
        (
            f"`pi-ask resume --list` listed {resume_list.listed_few} ask(s) on the log of "
            f"{resume_list.few_asks} past asks and {resume_list.listed_many} on the log of "
            f"{resume_list.many_asks:,} ({resume_list.many_mib} MiB; one ask in 20 left open): "
            "the open asks of its retention window (the newest 500 asks)."
        ),
        "## Modules at the first frame, and after",
        _table(
            ("modules", "pi_ask modules", "heavy at first frame", "heavy 1 s later"),
            [
                (
                    loaded.modules_at_first_frame,
                    loaded.pi_ask_modules,
                    ", ".join(loaded.heavy_at_first_frame) or "none",
                    ", ".join(loaded.heavy_settled) or "none",
                )
            ],
        ),
        "## @ completion, git work tree of 100,000 files (ms)",
        _table(
            ("paths listed", "first listing", "search median", "search max"),
            [
                (
                    completion.paths_listed,
                    completion.first_listing_ms,
                    completion.search_median_ms,
                    completion.search_max_ms,
                )
            ],
        ),
    ]
    return "\n\n".join(parts) + "\n"


def main_instant_only() -> int:
    """``run.py --only instant``: issue 28's figures alone (minutes less than a full run).

    Compiled and reported like the full run: the bytecode first, then the machine line.
    """
    started = time.perf_counter()
    load_start = os.getloadavg()[0]
    bytecode = _compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="pi-ask-bench-") as tmp:
        relay = _measure_relay(Path(tmp))
        mcp = measure_mcp_start(Path(tmp), dict(os.environ))
    machine = _machine(started, load_start, bytecode)
    checks = instant_budgets(relay, mcp)
    print(
        "\n\n".join(
            (
                machine_report(machine),
                "## Budgets (python-port.md §8, third wave)",
                _table(("measure", "value", "budget", "verdict"), [_row(c) for c in checks]),
                relay_report(relay),
            )
        )
    )
    return 0 if all(check.passed for check in checks) else 1


def _machine(started: float, load_start: float, bytecode: str) -> Machine:
    """The machine line of a run that began at ``started`` with load ``load_start``."""
    return Machine(
        nproc=os.cpu_count() or 0,
        machine=platform.machine(),
        cpu_model=_cpu_model(),
        python=platform.python_version(),
        prompt_toolkit=metadata.version("prompt_toolkit"),
        date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M"),
        load_average_start=load_start,
        load_average_end=os.getloadavg()[0],
        seconds=time.perf_counter() - started,
        bytecode=bytecode,
    )


def _measure_relay(workdir: Path) -> RelayCosts:
    payload = json.loads(PAYLOAD_A.read_text(encoding="utf-8"))
    marker = payload["questions"][0]["prompt"]
    return measure_relay_costs(workdir, payload, marker, os.environ)


def main() -> int:
    if sys.argv[1:] == ["--only", "instant"]:
        return main_instant_only()
    started = time.perf_counter()
    load_start = os.getloadavg()[0]
    bytecode = _compile_bytecode()
    sink = NotifySink()
    try:
        with tempfile.TemporaryDirectory(prefix="pi-ask-bench-") as tmp:
            workdir = Path(tmp)
            launches = _launches(workdir, sink)
            frames = measure_first_frames(launches)
            history_log = log_path(workdir / "history-26mb", Path.cwd())
            history_mib = round(history_log.stat().st_size / 2**20, 1)
            by_name = {launch.name: launch for launch in launches}
            window = measure_notification_window(by_name["ask"], by_name["ask_notifying"], sink)
            keys = measure_keystrokes(workdir)
            resume_list = measure_resume_list(_pi_ask(), _env(workdir), workdir, readme_payload())
            work = measure_first_frame_work(
                _env(workdir),
                by_name["ask_history"].env,
                workdir / "readme_payload.json",
                workdir / "work.json",
            )
            reload = measure_reload(workdir, PAYLOAD_A.read_text(encoding="utf-8"))
            loaded = measure_loaded_modules(_env(workdir), PAYLOAD_A, workdir / "modules.json")
            completion = measure_file_completion(workdir)
            relay = _measure_relay(workdir)
            mcp = measure_mcp_start(workdir, dict(os.environ))
    finally:
        sink.close()
    machine = _machine(started, load_start, bytecode)
    checks = budgets(frames, window, keys, reload, loaded, resume_list, history_mib)
    checks += instant_budgets(relay, mcp)
    results = {
        "machine": dataclasses.asdict(machine),
        "budgets": [dataclasses.asdict(check) for check in checks],
        "first_frame": {name: dataclasses.asdict(f) for name, f in frames.items()},
        "notification_window": dataclasses.asdict(window),
        "keystrokes": [dataclasses.asdict(k) for k in keys],
        "resume_list": dataclasses.asdict(resume_list),
        "first_frame_work": dataclasses.asdict(work),
        "config_reload": dataclasses.asdict(reload),
        "loaded_modules": dataclasses.asdict(loaded),
        "file_completion": dataclasses.asdict(completion),
        "relay": dataclasses.asdict(relay),
        "mcp_start": dataclasses.asdict(mcp),
    }
    (ROOT / "benchmarks" / "results.json").write_text(
        json.dumps(results, indent=2) + "\n", encoding="utf-8"
    )
    print(report(machine, checks, frames, window, keys, loaded, completion, resume_list, work))
    print(relay_report(relay))
    return 0 if all(check.passed for check in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
