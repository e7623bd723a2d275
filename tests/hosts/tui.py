"""A host's own TUI in a pane of a private tmux server (``tmux -L <unique>``).

The pane runs the host with exactly the environment given (``env -i``), not the tester's;
its screen is read back through tmux, and ``output()`` (for a failure message) adds what the
fake model saw and what pi-ask knew.

A host's TUI may draw a frame before it has bound the keys of what the frame shows: a key
that arrives in between is dropped without a trace. Measured with Claude Code 2.1.332 (at a
load of 3 to 10, in every run): Enter pressed as soon as "❯ Accept" was drawn did nothing
(pi-ask never heard from the host again, the form stayed for minutes); the same Enter
pressed again submitted the form. Codex 0.171 dropped a "y" pressed as its approval prompt
appeared, once in a loaded run. So ``press_until`` presses a key, waits for what it must
bring, and presses it again, a bounded number of times, only while the screen still shows
the state the key should have left.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable

from tests.e2e.tmux import Tmux
from tests.hosts.fake_models import FakeModel
from tests.hosts.hosts import HostHome
from tests.hosts.running import ANSWER_CAP_S, pi_ask_side

# A dropped key is pressed again at most this many times in all.
KEY_ATTEMPTS = 3
# How long one press may take to show on the screen before the key counts as dropped: a cap
# on a wait for the screen, far above the milliseconds Ink needs even on a loaded machine.
KEY_SHOWS_CAP_S = 15.0


class HostTui:
    def __init__(
        self, command: list[str], env: dict[str, str], home: HostHome, model: FakeModel
    ) -> None:
        exports = " ".join(shlex.quote(f"{key}={value}") for key, value in env.items())
        self.tmux = Tmux(
            f"exec env -i {exports} {shlex.join(command)}", width=120, height=40, cwd=home.work
        )
        self.model = model
        self.home = home

    def ended(self) -> bool:
        return False  # the pane stays (remain-on-exit); its screen says what happened

    def shows(self, text: str) -> bool:
        return text in self.tmux.text()

    def output(self) -> str:
        return f"the host's screen:\n{self.tmux.text()}\n{self.model.summary()}\n" + pi_ask_side(
            self.home
        )

    def press_until(
        self, key: str, reached: Callable[[], object], what: str, *, before: str
    ) -> None:
        """Press ``key`` until ``reached()``: pressed again while the screen still shows
        ``before`` (the key was dropped), at most ``KEY_ATTEMPTS`` times in all."""
        for _ in range(KEY_ATTEMPTS):
            self.tmux.press(key)
            if self._waited(reached, KEY_SHOWS_CAP_S):
                return
            if not self.shows(before):
                # The key was taken (the screen moved on) but is slow to bring what it
                # should: wait for it, never press again.
                if self._waited(reached, ANSWER_CAP_S):
                    return
                break
        raise AssertionError(f"{key!r} never brought {what}:\n" + self.output())

    @staticmethod
    def _waited(condition: Callable[[], object], cap_s: float) -> bool:
        deadline = time.monotonic() + cap_s
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # a polling interval; the condition is what is waited for
        return True

    def close(self) -> None:
        self.tmux.close()
