"""The RPC face's entry: pi's extension UI dialogs on standard input and output."""

import sys

from pi_ask.ask.face import FaceRequest, FlowInterrupted
from pi_ask.ask.services import deadline_alarm
from pi_ask.faces.rpc.port import run_rpc
from pi_ask.signal_latch import SignalAbort
from pi_ask.state.model import AskState


def run(state: AskState, request: FaceRequest) -> AskState:
    """Ask the questions of ``state`` as dialog request lines on stdout, read the responses
    on stdin, and return the final state (stdout then takes the result line).

    Raises:
        FlowInterrupted: SIGTERM, SIGHUP or SIGINT ended the flow.
    """
    with SignalAbort(request.stop) as signals, deadline_alarm(request.deadline_ms, signals.event):
        final = run_rpc(
            state,
            stdin=sys.stdin,
            stdout=sys.stdout,
            stderr=sys.stderr,
            abort=signals.event,
            on_commit=request.on_commit,
            deadline_ms=request.deadline_ms,
        )
    if signals.signum is not None:
        raise FlowInterrupted(final, signals.signum)
    return final
