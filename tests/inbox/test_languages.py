"""``pi-ask inbox`` and ``attach`` in the pseudo-language, in a real pty: every word they
write comes from the catalogues (the asks' own text, paths and key names aside)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from pi_ask.i18n import PSEUDO
from tests.e2e.terminal import Terminal
from tests.inbox.conftest import PAYLOAD, pending
from tests.pseudo_language import WORD, unmarked

pytestmark = pytest.mark.pty

# Key names the footers show, the program's name and the asks' titles and words.
ALLOWED = {"Enter", "Esc", "Ctrl", "Shift", "pi-ask"} | set(WORD.findall(str(PAYLOAD)))


def _leaks(term: Terminal, cwd: Path) -> dict[str, str]:
    """Words on the screen outside the markers that nothing allows, with their lines."""
    lines = [line.replace(str(cwd), " ") for line in term.lines()]
    return {
        word: next(line for line in lines if word in line)
        for word in WORD.findall(unmarked("\n".join(lines)))
        if word not in ALLOWED
    }


@pytest.fixture
def pseudo_terminal(terminal: Callable[..., Terminal]) -> Callable[..., Terminal]:
    """``terminal`` in the pseudo-language, 100 columns wide."""
    return partial(terminal, width=100, language=PSEUDO)


def test_the_inbox_and_attach_speak_only_the_catalogues(
    ask, pseudo_terminal, tmp_path: Path, asks: Path
) -> None:
    nothing = pseudo_terminal("attach", name="nothing")
    assert nothing.exit_status() == 1
    assert "pi-ask: «no pending asks»" in nothing.text()
    ask("--wait", name="first", payload={**PAYLOAD, "title": "Pick a DB"})
    pending(asks, 1)
    ask("--wait", name="second", payload={**PAYLOAD, "title": "Pick a DB"})
    pending(asks, 2)
    inbox = pseudo_terminal("inbox", name="inbox")
    inbox.wait_for("questions waiting")
    assert "«pi-ask inbox: 2 questions waiting, oldest first:»" in inbox.text()
    assert _leaks(inbox, tmp_path) == {}
    inbox.press("enter")  # the oldest; the other one is said to wait
    inbox.wait_for("Which database?")
    inbox.wait_for("«1 more waiting in the inbox.»")
    assert _leaks(inbox, tmp_path) == {}
    inbox.press("esc")  # the ask is cancelled; the inbox goes on with the other one
    inbox.wait(lambda: "more waiting" not in inbox.text() and "Which database?" in inbox.text())
    assert _leaks(inbox, tmp_path) == {}
