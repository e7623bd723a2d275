"""Run ``pi-ask ask PAYLOAD`` and list the modules loaded when its first frame is drawn.

A measuring harness, not product code: it wraps prompt_toolkit's renderer so that, right
after the first frame is written, it saves ``sys.modules`` (and the process's resident
memory) to the file named by ``PI_ASK_BENCH_OUT`` and exits.
"""

from __future__ import annotations

import json
import os
import sys
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


def main() -> None:
    out = os.environ["PI_ASK_BENCH_OUT"]
    original = renderer.Renderer.render

    def render(self: renderer.Renderer, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        with open(out, "w", encoding="utf-8") as handle:
            json.dump({"modules": sorted(sys.modules), "rss_kib": _resident_kib()}, handle)
        os._exit(0)

    renderer.Renderer.render = render  # type: ignore[method-assign]
    from pi_ask.cli import main as cli_main

    sys.exit(cli_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
