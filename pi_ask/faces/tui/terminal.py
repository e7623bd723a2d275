"""The controlling terminal: where the flow draws and reads keys, never stdout.

Drawing on ``/dev/tty`` keeps stdout clean for the JSON result
(``pi-ask ask q.json > answer.json``). Cursor-position requests are off: the flow is drawn
inline and takes only the rows it needs, and nothing waits for a terminal that never
answers them.
"""

import contextlib
import os
from typing import Any, NamedTuple, TextIO

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import Input
from prompt_toolkit.input.vt100 import Vt100Input
from prompt_toolkit.output import Output
from prompt_toolkit.output.vt100 import Vt100_Output

TTY_PATH = "/dev/tty"
_FALLBACK = Size(rows=24, columns=80)

ESCAPE_TIMEOUT_S = 0.05
"""How long a lone Esc waits for the rest of an escape sequence (prompt_toolkit: 0.5 s).

Terminals send a whole sequence in one write, so 50 ms is ample and makes Esc feel instant.
"""


def set_escape_timeout(app: Application[Any]) -> None:
    """Make Esc respond within ``ESCAPE_TIMEOUT_S`` (call once on the application).

    ``ttimeoutlen`` bounds the wait for the rest of an escape sequence; ``timeoutlen`` the
    wait for the second key of an Esc-prefixed (alt) binding, which would otherwise delay a
    plain Esc by a second whenever an ``alt+`` key is bound.
    """
    app.ttimeoutlen = ESCAPE_TIMEOUT_S
    app.timeoutlen = ESCAPE_TIMEOUT_S


def tty_output(stream: TextIO) -> Vt100_Output:
    """A prompt_toolkit output writing to ``stream`` (a terminal), sized from its fd."""
    fd = stream.fileno()

    def get_size() -> Size:
        try:
            columns, rows = os.get_terminal_size(fd)
        except OSError:
            return _FALLBACK
        return Size(rows=rows or _FALLBACK.rows, columns=columns or _FALLBACK.columns)

    return Vt100_Output(stream, get_size, term=os.environ.get("TERM"), enable_cpr=False)


class Terminal(NamedTuple):
    """The opened terminal: prompt_toolkit's input and output on it."""

    input: Input
    output: Output
    files: tuple[TextIO, ...] = ()

    def close(self) -> None:
        """Close the terminal files (the input's reader first)."""
        self.input.close()
        for stream in self.files:
            with contextlib.suppress(OSError):
                stream.close()


def open_terminal(path: str = TTY_PATH) -> Terminal:
    """Open the controlling terminal for reading keys and drawing.

    Raises:
        OSError: There is no controlling terminal (a CI job, a detached process).
    """
    reader = open(path, encoding="utf-8")  # noqa: SIM115 - closed by Terminal.close
    try:
        writer = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by Terminal.close
    except OSError:
        reader.close()
        raise
    return Terminal(Vt100Input(reader), tty_output(writer), (reader, writer))
