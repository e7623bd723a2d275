"""The child of ``first_frame_work``: the floor or ``pi-ask ask`` run to its first frame.

``python first_frame_child.py floor`` runs the floor app, ``python first_frame_child.py ask
PAYLOAD`` runs ``pi-ask ask PAYLOAD``; right after the first frame is written it saves, to
``PI_ASK_BENCH_OUT``, the process's CPU time so far and the number of modules loaded, then
exits. With ``PI_ASK_BENCH_COUNT=1`` it also counts the Python function calls (a
``sys.setprofile`` counter, which slows the run).

It imports nothing before the first frame that the measured program does not import itself
(``os``, ``sys`` and ``time`` are loaded by every interpreter; ``json`` waits until the
figures are taken), so neither side is charged for the harness, and neither is handed a
module it would otherwise load on its own (a harness importing ``pathlib`` and ``json``
first once hid ~5 ms of pi-ask's start-up from this ratio).
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import FrameType


def main(mode: str, args: list[str]) -> None:
    calls = [0]

    def count(_frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            calls[0] += 1

    if os.environ.get("PI_ASK_BENCH_COUNT"):
        sys.setprofile(count)
    from prompt_toolkit import renderer

    original = renderer.Renderer.render

    def render(self: renderer.Renderer, *a: Any, **k: Any) -> None:
        original(self, *a, **k)
        sys.setprofile(None)
        cpu_ms, modules = time.process_time() * 1000, len(sys.modules)
        import json

        report = {"cpu_ms": cpu_ms, "calls": calls[0], "modules": modules}
        with open(os.environ["PI_ASK_BENCH_OUT"], "w", encoding="utf-8") as handle:
            json.dump(report, handle)
        os._exit(0)

    renderer.Renderer.render = render  # type: ignore[method-assign]
    if mode == "floor":
        from floor_app import main as floor_main  # beside this script: sys.path[0]

        floor_main()
        return
    from pi_ask.cli.main import main as cli_main

    sys.exit(cli_main(["ask", *args]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
