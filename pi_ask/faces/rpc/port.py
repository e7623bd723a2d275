"""The pi RPC adapter: portable dialogs as ``extension_ui_request``/``response`` JSON lines.

We play pi's side of its extension UI sub-protocol (protocols.md §1): every dialog is one
``extension_ui_request`` line on stdout with a fresh UUID; the host answers with an
``extension_ui_response`` line on stdin carrying that id and ``value`` or ``cancelled``.

Reading happens on a daemon thread that only parses and queues; the asking thread waits on
the queue a short tick at a time, so it notices the abort signal and never blocks forever:

- a line that is not JSON, not an object or not an ``extension_ui_response``, or a response
  without a string id, is ignored with a note on stderr;
- a response whose id is not the open dialog's (unknown, late, duplicated) is ignored with a
  note; a dialog's id is forgotten once answered or given up;
- end of stdin while a dialog waits is an abort: the flow ends cancelled. Responses after an
  abort find no open dialog and change nothing.
"""

from __future__ import annotations

import json
import queue
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from pi_ask.faces.rpc.flow import InvalidResponse, run_dialog_flow
from pi_ask.faces.rpc.jsonl import MAX_LINE_BYTES, OverlongLine, read_lines, write_line
from pi_ask.guarded_parse import load_json
from pi_ask.state.model import AskState

REQUEST = "extension_ui_request"
RESPONSE = "extension_ui_response"
_TICK_S = 0.05
_EXCERPT = 80

Message = Mapping[str, object]
# What the reader thread queues: (stdin line number, response), or None at end of input.
_Inbox = queue.Queue[tuple[int, Message] | None]


def _excerpt(text: str) -> str:
    return repr(text if len(text) <= _EXCERPT else text[:_EXCERPT] + "…")


def _is_truthy(value: object) -> bool:
    # pi tests `cancelled` with JavaScript truthiness: [] and {} count as true there.
    if isinstance(value, list | dict):
        return True
    return value not in (None, False, 0, "")


class RpcDialogs:
    """A dialog port speaking pi's extension UI protocol over two streams.

    Args:
        stdin: where the host's response lines arrive; read on a daemon thread (through its
            file descriptor when it has one, so nothing must have read from it before).
        stdout: where request lines go; nothing else may be written there meanwhile.
        stderr: where notes about ignored lines go.
        abort: set it (from a signal handler, say) to give up the open dialog; the port sets
            it itself when stdin ends while a dialog waits.
    """

    def __init__(
        self,
        *,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
        abort: threading.Event | None = None,
    ) -> None:
        self.aborted = abort if abort is not None else threading.Event()
        self._stdout = stdout
        self._stderr = stderr
        self._stderr_lock = threading.Lock()
        self._inbox: _Inbox = queue.Queue()
        self._closed = threading.Event()
        self._stdin_ended = False
        reader = threading.Thread(
            target=self._read, args=(stdin,), name="pi-ask rpc stdin", daemon=True
        )
        reader.start()

    def select(self, title: str, options: Sequence[str]) -> str | None:
        """Show a ``select`` dialog; the chosen string, or ``None`` if dismissed or aborted."""
        return self._ask("select", {"title": title, "options": list(options)})

    def input(self, title: str, placeholder: str) -> str | None:
        """Show an ``input`` dialog; the typed text, or ``None`` if dismissed or aborted."""
        return self._ask("input", {"title": title, "placeholder": placeholder})

    def close(self) -> None:
        """Stop reporting stdin lines: the flow is over, whatever arrives now is ignored."""
        self._closed.set()

    def note(self, message: str) -> None:
        """One line on stderr, prefixed with where it comes from."""
        if self._closed.is_set():
            return
        with self._stderr_lock:
            self._stderr.write(f"pi-ask rpc: {message}\n")
            self._stderr.flush()

    def _ask(self, method: str, fields: dict[str, object]) -> str | None:
        # Like pi: a dialog requested after the abort is not shown at all.
        if self.aborted.is_set():
            return None
        request_id = str(uuid.uuid4())
        write_line(self._stdout, {"type": REQUEST, "id": request_id, "method": method, **fields})
        response = self._await(request_id)
        if response is None or _is_truthy(response.get("cancelled")) or "value" not in response:
            return None
        value = response["value"]
        if not isinstance(value, str):
            raise InvalidResponse(
                f"the {method} value {json.dumps(value)[:_EXCERPT]} is not a string"
            )
        return value

    def _await(self, request_id: str) -> Message | None:
        while not self.aborted.is_set():
            if self._stdin_ended:
                self.aborted.set()
                break
            try:
                item = self._inbox.get(timeout=_TICK_S)
            except queue.Empty:
                continue
            if item is None:
                self._stdin_ended = True
                self.note("stdin ended while a dialog was open; the ask is cancelled")
                continue
            number, response = item
            if response["id"] == request_id:
                return response
            self.note(
                f"stdin line {number} ignored: response id {_excerpt(str(response['id']))} "
                "matches no open dialog"
            )
        return None

    def _read(self, stdin: TextIO) -> None:
        number = 0
        try:
            for raw in read_lines(stdin):
                number += 1
                if self._closed.is_set():
                    return
                response = self._parse(number, raw)
                if response is not None:
                    self._inbox.put((number, response))
        finally:
            self._inbox.put(None)

    def _parse(self, number: int, raw: bytes | OverlongLine) -> Message | None:
        """The response on one stdin line, or ``None`` (with a note unless the line is blank)."""
        if isinstance(raw, OverlongLine):
            self.note(
                f"stdin line {number} ignored: {raw.size} bytes is longer than the limit of "
                f"{MAX_LINE_BYTES} bytes"
            )
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self.note(f"stdin line {number} ignored: not UTF-8")
            return None
        if not text.strip():
            return None
        try:
            message: object = load_json(text)
        except ValueError as err:
            self.note(f"stdin line {number} ignored: not JSON ({err}): {_excerpt(text)}")
            return None
        if not isinstance(message, dict):
            self.note(f"stdin line {number} ignored: not a JSON object: {_excerpt(text)}")
            return None
        kind = message.get("type")
        if kind != RESPONSE:
            self.note(
                f"stdin line {number} ignored: type {json.dumps(kind)[:_EXCERPT]} is not "
                f'"{RESPONSE}"'
            )
            return None
        if not isinstance(message.get("id"), str):
            self.note(f"stdin line {number} ignored: the response has no string id")
            return None
        return message


def run_rpc(
    state: AskState,
    *,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    abort: threading.Event | None = None,
    on_commit: Callable[[AskState], None] | None = None,
    deadline_ms: int | None = None,
) -> AskState:
    """Ask the questions of ``state`` as pi RPC dialogs and return the flow's final state.

    stdout receives only the request lines; the caller writes the result line after them.

    Args:
        state: the flow state (``state.opening.new_state``, with a resumed draft's answers:
            a dismissed card keeps them).
        stdin: the host's response lines.
        stdout: the request lines.
        stderr: notes about lines that were ignored and why a flow was cancelled.
        abort: set it to end the flow as cancelled (the host is not told, as in pi).
        on_commit: called with the state after every answered card (the draft hook).
        deadline_ms: when the ask times out (epoch ms): an abort after it is ``timeout``.

    Returns:
        A submitted state, or a cancelled one (abort, end of stdin, an unreadable answer).

    Example:
        >>> streams = {"stdin": sys.stdin, "stdout": sys.stdout, "stderr": sys.stderr}
        >>> state = run_rpc(new_state(payload), **streams)
        >>> print(json.dumps(build_result(state).to_json(), ensure_ascii=False))
    """
    port = RpcDialogs(stdin=stdin, stdout=stdout, stderr=stderr, abort=abort)
    try:
        return run_dialog_flow(
            state,
            port,
            abort=port.aborted,
            report=port.note,
            on_commit=on_commit,
            deadline_ms=deadline_ms,
        )
    finally:
        port.close()
