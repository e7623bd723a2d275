"""The TUI face's entry: the full ask flow on the controlling terminal."""

import threading

from pi_ask.ask.face import FaceRequest
from pi_ask.faces.tui.flow import AskFlow
from pi_ask.state.model import AskState

# How often a flow looks at the host's stop event and live notice, for a host that gives
# no descriptors to wait on (``FaceRequest.wakeups``).
POLL_S = 0.1


def run(state: AskState, request: FaceRequest) -> AskState:
    """Run the ask flow on the terminal and return its final state.

    Raises:
        FlowInterrupted: SIGTERM, SIGHUP, an outside SIGINT or a hang-up ended the flow.
        OSError: No controlling terminal could be opened.
    """
    flow = AskFlow(state, request)
    deferred = request.deferred
    if deferred is not None:

        def defer() -> None:
            deferred.set()
            _abort(flow)

        flow.on_defer = defer
    finished = threading.Event()
    if not request.wakeups and (request.stop is not None or request.live_notice is not None):
        threading.Thread(
            target=_follow_host, args=(flow, request, finished), name="pi-ask face", daemon=True
        ).start()
    try:
        flow.run()
    finally:
        finished.set()
    return flow.state


def _follow_host(flow: AskFlow, request: FaceRequest, finished: threading.Event) -> None:
    """Until the flow ends: close it once the host's stop is set, show its live notice."""
    stop = request.stop
    while not finished.is_set():
        if stop is not None and stop.wait(POLL_S):
            # The flow may not be running yet: keep trying until it has ended.
            _abort(flow)
            finished.wait(POLL_S)
        elif stop is None and finished.wait(POLL_S):
            return
        elif request.live_notice is not None:
            flow.set_notice(request.live_notice())


def _abort(flow: AskFlow) -> None:
    from pi_ask.state.commands import Abort

    flow.complete(Abort())
