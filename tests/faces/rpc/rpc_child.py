"""Child process for the RPC tests: ``run_rpc`` on real pipes, then the result line.

Usage: ``python rpc_child.py PAYLOAD_FILE``. It does what ``pi-ask ask --ui rpc`` does
without the settings store, so the adapter can be tested on its own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pi_ask.api import exit_code
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.faces.rpc.port import run_rpc
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result


def main() -> int:
    loaded = load_payload(Path(sys.argv[1]).read_bytes())
    assert isinstance(loaded, LoadedPayload)
    result = build_result(
        run_rpc(new_state(loaded.payload), stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr)
    )
    sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return exit_code(result)


if __name__ == "__main__":
    sys.exit(main())
