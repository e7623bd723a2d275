"""Run ``pi-ask ARGS...`` and list the modules loaded when its first frame is drawn.

A measuring harness, not product code: it wraps prompt_toolkit's renderer so that, right
after the first frame is written, it saves ``sys.modules`` and the process's resident
memory. With ``PI_ASK_BENCH_SETTLE_S`` set it saves them again that many seconds later
(the flow open, its watcher and notification started), then exits. The JSON goes to the
file named by ``PI_ASK_BENCH_OUT``.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from prompt_toolkit import renderer


def _resident_kib() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _snapshot() -> dict[str, object]:
    return {"modules": sorted(sys.modules), "rss_kib": _resident_kib()}


def main() -> None:
    out = os.environ["PI_ASK_BENCH_OUT"]
    settle_s = float(os.environ.get("PI_ASK_BENCH_SETTLE_S", "0"))
    original = renderer.Renderer.render
    report: dict[str, object] = {}

    def finish() -> None:
        if settle_s > 0:
            report["settled"] = _snapshot()
        import json  # after the first frame's snapshot: pi-ask's own imports are the list

        with open(out, "w", encoding="utf-8") as handle:
            json.dump(report, handle)
        os._exit(0)

    def render(self: renderer.Renderer, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if "first_frame" in report:
            return
        report["first_frame"] = _snapshot()
        if settle_s > 0:
            threading.Timer(settle_s, finish).start()
        else:
            finish()

    renderer.Renderer.render = render  # type: ignore[method-assign]
    from pi_ask.cli.main import main as cli_main

    sys.exit(cli_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
