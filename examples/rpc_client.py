"""A tiny pi RPC client for ``pi-ask ask --ui rpc``: the host side of the dialog protocol.

It starts pi-ask on a payload file, shows each ``extension_ui_request`` dialog on stderr,
reads your reply from its own stdin and sends the ``extension_ui_response`` line back. The
final result JSON goes to stdout and the exit status is pi-ask's. Standard library only.

Replies, one line each:
- a select card: the number shown in front of an option (the last one is ``Type
  something…``); an empty line dismisses the card (the question is skipped);
- an input dialog: the text to send (an empty line sends empty text, which skips too).
End of input (Ctrl+D) closes pi-ask's stdin, which aborts the ask (a cancelled result).

Examples:
    uv run python examples/rpc_client.py tests/fixtures/payloads/basic.json
    printf '2\\n4\\nReact, Solid\\n' | uv run python examples/rpc_client.py payload.json
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from typing import IO


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("payload", help="the ask_user payload JSON file")
    parser.add_argument(
        "--command",
        default=f"{shlex.quote(sys.executable)} -m pi_ask ask --ui rpc",
        help="how to start pi-ask; the payload path is appended (default: %(default)s)",
    )
    args = parser.parse_args()
    child = subprocess.Popen(
        [*shlex.split(args.command), args.payload],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    # Bytes, cut at LF only: pi's framing (a text pipe would also split at other newlines).
    for line in child.stdout:
        message = json.loads(line.decode("utf-8"))
        if message.get("type") != "extension_ui_request":
            print(json.dumps(message, ensure_ascii=False))  # the result: pi-ask is done
            continue
        if message.get("method") not in ("select", "input") or child.stdin.closed:
            continue  # fire-and-forget requests (notify, setStatus...) get no response
        reply = answer(message)
        if reply is None:
            child.stdin.close()  # no more replies: pi-ask cancels the ask
            continue
        send(child.stdin, {"type": "extension_ui_response", "id": message["id"], **reply})
    status: int = child.wait()
    return status


def answer(request: dict[str, object]) -> dict[str, object] | None:
    """Ask the person at this client for a reply; ``None`` when its input has ended."""
    print(f"\n{request['title']}", file=sys.stderr)
    if request["method"] == "select":
        options = request["options"]
        assert isinstance(options, list)
        # Option strings already start with their number; the last row, Type something…,
        # gets the next one.
        for option in options[:-1]:
            print(f"  {option}", file=sys.stderr)
        print(f"  {len(options)}. {options[-1]}", file=sys.stderr)
        line = prompt("number (empty = skip): ")
        if line is None:
            return None
        if not line.strip():
            return {"cancelled": True}
        chosen = int(line) - 1 if line.strip().isdigit() else -1
        # An unknown number is passed through as a value pi-ask was not offered: it cancels.
        return {"value": options[chosen] if 0 <= chosen < len(options) else line.strip()}
    line = prompt(f"{request.get('placeholder', '')}: ")
    return None if line is None else {"value": line}


def prompt(text: str) -> str | None:
    print(text, end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None


def send(stream: IO[bytes], message: dict[str, object]) -> None:
    stream.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
    stream.flush()


if __name__ == "__main__":
    sys.exit(main())
