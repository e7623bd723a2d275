"""A host's own TUI in a pane of a private tmux server (``tmux -L <unique>``).

The pane runs the host with exactly the environment given (``env -i``), not the tester's;
its screen is read back through tmux, and ``output()`` (for a failure message) adds what the
fake model saw.
"""

from __future__ import annotations

import shlex

from tests.e2e.tmux import Tmux
from tests.hosts.fake_models import FakeModel
from tests.hosts.hosts import HostHome


class HostTui:
    def __init__(
        self, command: list[str], env: dict[str, str], home: HostHome, model: FakeModel
    ) -> None:
        exports = " ".join(shlex.quote(f"{key}={value}") for key, value in env.items())
        self.tmux = Tmux(
            f"exec env -i {exports} {shlex.join(command)}", width=120, height=40, cwd=home.work
        )
        self.model = model

    def ended(self) -> bool:
        return False  # the pane stays (remain-on-exit); its screen says what happened

    def shows(self, text: str) -> bool:
        return text in self.tmux.text()

    def output(self) -> str:
        return f"the host's screen:\n{self.tmux.text()}\n{self.model.summary()}"

    def close(self) -> None:
        self.tmux.close()
