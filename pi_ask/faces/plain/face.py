"""The plain face's entry: the ask flow line by line on the controlling terminal."""

from pi_ask.ask.face import FaceRequest, FlowInterrupted
from pi_ask.faces.plain.flow import PlainFlow
from pi_ask.faces.plain.terminal import open_line_terminal, signals_to
from pi_ask.state.model import AskState


def run(state: AskState, request: FaceRequest) -> AskState:
    """Ask the questions of ``state`` line by line on ``/dev/tty`` (never stdout).

    Returns:
        The final state, as the TUI would leave it for the same answers.

    Raises:
        OSError: No controlling terminal could be opened.
        FlowInterrupted: SIGTERM or SIGHUP ended the flow (main thread only).
    """
    terminal = open_line_terminal()
    try:
        flow = PlainFlow(state, request, terminal=terminal)
        with signals_to(terminal.reader):
            flow.run()
    finally:
        terminal.close()
    if flow.interrupted_by is not None:
        raise FlowInterrupted(flow.state, flow.interrupted_by)
    return flow.state
