"""The floor: a bare prompt_toolkit application that draws one line inline on the terminal.

``benchmarks/run.py`` measures how long this takes to put its first frame on a
pseudo-terminal, in the same run as ``pi-ask ask``, so the budget of python-port.md §8
(first frame within 2x of this, aiming for 1.3x) compares like with like.
"""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import FormattedTextControl


def main() -> None:
    bindings = KeyBindings()
    bindings.add("c-c")(lambda event: event.app.exit())
    bindings.add("escape")(lambda event: event.app.exit())
    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl("floor: first frame"))),
        key_bindings=bindings,
        full_screen=False,
    )
    app.run()


if __name__ == "__main__":
    main()
