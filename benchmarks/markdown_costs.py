"""Markdown's share of §8 (issue 30), without the whole of ``run.py``.

``uv run python benchmarks/markdown_costs.py`` times, in one run: first frames of the floor,
the stress payload and the Markdown stress payload on a real pty (interleaved rounds, paired
ratios, ``first_frame.py``) — the Markdown one until its first frame (drawn as written),
until its Markdown is drawn and until its code is coloured too — then keystrokes on the
20,000-line plain and Markdown previews against prompt_toolkit drawing the same frames
(``keystrokes.py``). ``run.py`` judges the same two Markdown rows among all the others; this
is the quick look while working on it.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from first_frame import measure_first_frames, paired_ratio
from keystrokes import markdown_stress_payload, measure_keystrokes, stress_payload
from run import (
    BUDGET_KEY_FLOOR_RATIO,
    BUDGET_STRESS_FRAME_RATIO,
    MARKDOWN_COLOURED,
    MARKDOWN_RENDERED,
    ROOT,
    _compile_bytecode,
    _env,
    _pi_ask,
)
from terminal_runs import Launch

KEY_CASES = ("preview_20000_lines", "markdown_preview_20000_lines")


def main() -> int:
    _compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="pi-ask-md-bench-") as tmp:
        workdir = Path(tmp)
        stress = workdir / "stress.json"
        stress.write_text(json.dumps(stress_payload(20_000)), encoding="utf-8")
        markdown = workdir / "markdown.json"
        markdown.write_text(json.dumps(markdown_stress_payload(20_000)), encoding="utf-8")
        env = _env(workdir)
        floor_app = (sys.executable, str(ROOT / "benchmarks" / "floor_app.py"))
        marker = "Question number 1:"
        launches = (
            Launch("floor", floor_app, "first frame", env),
            Launch("ask_stress", (_pi_ask(), "ask", str(stress)), marker, env),
            Launch("ask_markdown_stress", (_pi_ask(), "ask", str(markdown)), marker, env),
            Launch(
                "ask_markdown_rendered", (_pi_ask(), "ask", str(markdown)), MARKDOWN_RENDERED, env
            ),
            Launch(
                "ask_markdown_coloured", (_pi_ask(), "ask", str(markdown)), MARKDOWN_COLOURED, env
            ),
        )
        frames = measure_first_frames(launches)
        keys = {key.name: key for key in measure_keystrokes(workdir, KEY_CASES)}
    floor = frames["floor"].frames_ms
    passed = True
    print(f"floor median {frames['floor'].median_ms} ms\n")
    print("| measure | measured | budget |\n|---|---|---|")
    for name in ("ask_stress", "ask_markdown_stress", "ask_markdown_rendered"):
        ratio = paired_ratio(frames[name].frames_ms, floor)
        passed &= ratio <= BUDGET_STRESS_FRAME_RATIO
        median = frames[name].median_ms
        budget = BUDGET_STRESS_FRAME_RATIO
        print(f"| first frame {name} / floor | {ratio}x ({median} ms) | <= {budget}x |")
    coloured = frames["ask_markdown_coloured"]
    ratio = paired_ratio(coloured.frames_ms, floor)
    print(f"| code coloured too / floor | {ratio}x ({coloured.median_ms} ms) | (none) |")
    for name in KEY_CASES:
        key = keys[name]
        passed &= key.floor_ratio <= BUDGET_KEY_FLOOR_RATIO
        print(
            f"| keystroke {name} / floor | {key.floor_ratio}x (medians {key.median_ms} / "
            f"{key.floor_median_ms} ms, {key.calls_per_key} calls per key) | "
            f"<= {BUDGET_KEY_FLOOR_RATIO}x |"
        )
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
