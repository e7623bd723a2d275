"""An inbox with a thousand pending asks is told, never polling (issue 28).

The asks are detached (held by no process, so a thousand fit on two cores), published in
this process the way ``pi-ask ask --detach`` does. The inbox runs for real on a pty. Its CPU
is sampled over a few seconds with a flow open (the old inbox re-listed every payload each
second: 12.8% of a core at this count), and its memory is compared with the same inbox over
asks whose payloads are 20 times bigger: a listing reads summaries, never payloads.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.relay.elsewhere import start_detached
from pi_ask.relay.paths import RUNTIME_ENV
from tests.e2e.terminal import Terminal, child_env, pi_ask_command
from tests.inbox.conftest import PAYLOAD

COUNT = 1000
SAMPLE_S = 3.0
QUIET_S = 0.5
SETTLE_CAP_S = 60.0
# A busy loop would take the whole window; an inbox that is told takes next to nothing.
MAX_CPU_SHARE = 0.1
PREVIEW = "\n".join(f"line {n}: " + "x" * 60 for n in range(300))  # ~20 KB a payload


def _publish(state: Path, preview: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(state))
    payload: dict[str, object] = dict(PAYLOAD)
    if preview is not None:
        first = dict(PAYLOAD["questions"][0])  # type: ignore[index]
        first["options"] = [{**option, "preview": preview} for option in first["options"]]
        first["type"] = "preview"
        payload["questions"] = [first]
    for number in range(COUNT):
        loaded = load_payload({**payload, "title": f"Ask number {number:04}"})
        assert isinstance(loaded, LoadedPayload)
        start_detached(loaded, f"ask-{number:04}", tmux="off")


def _inbox(tmp_path: Path, state: Path, name: str) -> Terminal:
    env = child_env(tmp_path / "config.toml", state, PI_ASK_RUNTIME_DIR=os.environ[RUNTIME_ENV])
    inbox = Terminal(
        [*pi_ask_command(), "inbox"],
        stdout=tmp_path / f"{name}.out",
        env=env,
        width=100,
        height=30,
        cwd=tmp_path,
    )
    inbox.wait_for(f"{COUNT:,} questions waiting".replace(",", ""), timeout=120)
    return inbox


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_thousand_pending_asks_cost_the_inbox_no_polling_and_no_payloads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = _inbox_after(tmp_path, "small", None, monkeypatch)
    inbox, small_rss = small
    try:
        inbox.press("enter")  # the oldest opens: a flow with "999 more waiting"
        inbox.wait_for("more waiting")
        pid = inbox.child.pid
        start = _cpu_s(pid)
        time.sleep(SAMPLE_S)  # a CPU sample window, not a wait for something to happen
        share = (_cpu_s(pid) - start) / SAMPLE_S
        assert share < MAX_CPU_SHARE, f"the inbox took {share:.0%} of a core, idle"
    finally:
        inbox.kill()
    big, big_rss = _inbox_after(tmp_path, "big", PREVIEW, monkeypatch)
    big.kill()
    # 1,000 payloads of ~20 KB more would be ~20 MiB more if the lobby read them.
    assert big_rss - small_rss < 8, f"{small_rss:.1f} MiB -> {big_rss:.1f} MiB"


def _inbox_after(
    tmp_path: Path, name: str, preview: str | None, monkeypatch: pytest.MonkeyPatch
) -> tuple[Terminal, float]:
    state = tmp_path / name / "state"
    _publish(state, preview, monkeypatch)
    inbox = _inbox(tmp_path, state, name)
    return inbox, _rss_mib(inbox.child.pid)


def _wakeups(pid: int) -> int:
    """Every time one of ``pid``'s threads blocked and was woken (voluntary switches)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split()[1])
    return total


def _quiet(pid: int) -> None:
    """Until ``pid`` has gone ``QUIET_S`` without waking: its start-up work after the screen
    it drew (threads taking turns for the interpreter) is over. A wait for a condition, with
    a cap; a process that never goes quiet is left to the sample that follows to judge."""
    deadline = time.monotonic() + SETTLE_CAP_S
    while time.monotonic() < deadline:
        before = _wakeups(pid)
        time.sleep(QUIET_S)  # a sample window, not a wait for something to happen
        if _wakeups(pid) == before:
            return


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_lobby_sleeps_until_it_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The waiting screen waits on the asks folder's watch in its event loop and learns its
    # size from SIGWINCH: nothing wakes it (it used to look every second, and prompt_toolkit
    # asked the terminal's size twice a second). A new ask still shows at once.
    state = tmp_path / "state"
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(state))
    for number in range(2):
        loaded = load_payload({**PAYLOAD, "title": f"Ask number {number}"})
        assert isinstance(loaded, LoadedPayload)
        start_detached(loaded, f"ask-{number}", tmux="off")
    env = child_env(tmp_path / "config.toml", state, PI_ASK_RUNTIME_DIR=os.environ[RUNTIME_ENV])
    inbox = Terminal([*pi_ask_command(), "inbox"], stdout=tmp_path / "lobby.out", env=env)
    try:
        inbox.wait_for("2 questions waiting", timeout=60)
        pid = inbox.child.pid
        # Only once it is quiet (on a loaded machine its start-up work may outlast the
        # screen by seconds): a lobby that polls twice a second never is, and one that
        # polls every second still wakes at least twice in the window after.
        _quiet(pid)
        before = _wakeups(pid)
        time.sleep(SAMPLE_S)  # a sample window, not a wait for something to happen
        assert _wakeups(pid) - before <= 1, "the lobby woke up by itself"
        loaded = load_payload({**PAYLOAD, "title": "Ask number 2"})
        assert isinstance(loaded, LoadedPayload)
        start_detached(loaded, "ask-2", tmux="off")
        inbox.wait_for("3 questions waiting", timeout=60)
    finally:
        inbox.kill()
