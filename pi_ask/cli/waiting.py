"""``pi-ask ask`` waiting for a terminal elsewhere, in a process that holds almost nothing.

An asker with no terminal of its own that reached nobody (no inbox, no tmux) publishes its
ask and then waits, often for hours, for ``pi-ask attach`` (or an inbox started later) to
answer it, and an agent may run many at once.
By then it has loaded the payload code, the settings and the session log, which CPython
never gives back: about 20 MiB each, where python-port.md §8 allows 12. So once the ask is
published and said, the command replaces its image (``os.execv``: the same process, its
stdout and exit status still the agent's) with this module's ``main``. That keeps the ask's
listening socket and folder watch (inherited descriptors) and ``select``s on them, a
signal's wake-up pipe and the deadline, with little else loaded, and no periodic wake-up.

The first thing that happens brings the rest back (``api.resume_elsewhere``): a terminal
that speaks, the ask's folder changing, a signal, the deadline. The ask is taken over as it
was and waits on as any asker does: it answers its terminals (those held here too), records
their drafts, keeps the files of the answer that won and prints the result. Until then,
terminals are accepted here by the asker's own rules (``relay.accepting``: same user only,
at most ``MAX_PEERS``, a newcomer replacing the one held longest, each let go after
``HELLO_TIMEOUT_S`` of silence, a failing accept said and retried). A listing that only
checks the asker is alive (it connects and closes) is accepted and closed here without
bringing anything back.

The "question waiting" notification runs in a process of its own (``notify_main``), so
none of it stays loaded here either; it links the ask's page, or leaves the ringing to a
running ``pi-ask web``, as any asker's does (``relay.elsewhere.notify_waiting_asker``).
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys
import time

from pi_ask.relay.accepting import (
    BACKOFF_S,
    HELLO_TIMEOUT_S,
    AcceptFailures,
    is_same_user,
    replaced_among_idle,
)

ARGUMENTS = ("ask_id", "asks", "runtime", "log", "server", "watch", "deadline_ms", "ui", "config")
"""What the asker hands the waiting process, in its ``argv`` after the package's folder."""
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_ENTRY = "import sys; sys.path.insert(0, sys.argv[1]); from pi_ask.cli.waiting import main; main()"
_NOTIFY = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from pi_ask.cli.waiting import notify_main; notify_main(*sys.argv[2:5])"
)


def exec_waiting(values: dict[str, str], descriptors: tuple[int, int]) -> None:
    """Replace this process with the waiting one (``main``); returns only when it cannot.

    Args:
        values: One string for each of ``ARGUMENTS``.
        descriptors: The ask's listening socket and folder watch, kept across ``execv``.
    """
    argv = [sys.executable, "-P", "-c", _ENTRY, _package_root(), *(values[n] for n in ARGUMENTS)]
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    # A signal between here and the new image's handlers would kill the ask unanswered:
    # held (blocked) across execv, delivered once ``main`` can take it.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS)
    for fd in descriptors:
        os.set_inheritable(fd, True)
    try:
        os.execv(sys.executable, argv)
    except OSError:
        for fd in descriptors:
            os.set_inheritable(fd, False)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def main() -> None:
    """The waiting process (see the module docstring): rest, then resume; exits."""
    values = dict(zip(ARGUMENTS, sys.argv[2:], strict=True))
    server = socket.socket(fileno=int(values["server"]))
    server.set_inheritable(False)
    watch = int(values["watch"])
    os.set_inheritable(watch, False)
    caught: list[int] = []
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    for number in ENDING_SIGNALS:
        signal.signal(number, lambda signum, _frame: caught.append(signum))
    # Nobody was reached: the "question waiting" notification, from a process of its own.
    # Children are reaped by the kernel: a finished notifier leaves no zombie behind.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    _spawn_notifier(
        (values["config"], values["ask_id"], values["runtime"]),
        keep_from_it=(server.fileno(), watch),
    )
    signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)
    deadline_ms = int(values["deadline_ms"]) if values["deadline_ms"] else None
    peers = _rest(server, watch, wake_read, deadline_ms, caught)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    os.close(wake_read)
    os.close(wake_write)
    sys.exit(_resume(values, server, watch, peers, caught))


def _rest(
    server: socket.socket,
    watch: int,
    wake: int,
    deadline_ms: int | None,
    caught: list[int],
) -> list[socket.socket]:
    """Block until something happens; the terminals held then (those that spoke first).

    A terminal that hangs up without a word (a listing checking that the asker lives) is
    closed here; one silent for ``HELLO_TIMEOUT_S`` too, as the asker would.
    """
    held: dict[socket.socket, float] = {}  # oldest first: until when each may stay silent
    failures = AcceptFailures("a terminal")
    backoff_until = 0.0
    while not caught:
        now = time.monotonic()
        timers = [*held.values()]
        if backoff_until > now:
            timers.append(backoff_until)
        if deadline_ms is not None:
            left = (deadline_ms - time.time_ns() // 1_000_000) / 1000
            if left <= 0:
                break  # the deadline: the rest ends the ask
            timers.append(now + left)
        timeout = max(0.0, min(timers) - now) if timers else None
        waited_on: list[int | socket.socket] = [watch, wake, *held]
        if backoff_until <= now:
            waited_on.append(server)
        readable = set(select.select(waited_on, [], [], timeout)[0])
        if watch in readable:
            break  # the folder changed: a claim, a draft, or the folder gone
        now = time.monotonic()
        if server in readable:
            try:
                peer, _ = server.accept()
            except OSError as err:  # out of descriptors (EMFILE): the ask stays answerable
                failures.failed(err)
                backoff_until = now + BACKOFF_S
            else:
                _hold(held, peer, now)
        heard = {peer: _heard(peer) for peer in held if peer in readable}
        spoke = [peer for peer, what in heard.items() if what == "spoke"]
        if spoke:
            return [*spoke, *(peer for peer in held if peer not in spoke)]
        for peer, until in list(held.items()):
            if until <= now or heard.get(peer) == "gone":
                del held[peer]
                peer.close()  # silent for too long, or gone without a word
    return list(held)  # they are served (told the ask's end) once the rest is back


def _hold(held: dict[socket.socket, float], peer: socket.socket, now: float) -> None:
    """Hold a newly accepted ``peer`` by the asker's rules (``relay.accepting``)."""
    if not is_same_user(peer):
        peer.close()  # refused before a byte is read: another user's process learns nothing
        return
    idle = replaced_among_idle(held)  # none here has said hello yet
    if idle is not None:
        del held[idle]
        idle.close()
    held[peer] = now + HELLO_TIMEOUT_S


def _heard(peer: socket.socket) -> str:
    """What a readable ``peer`` did: ``spoke`` (left unread for the asker's own reading),
    ``gone`` (hung up, or failed), or ``quiet`` (nothing after all)."""
    try:
        return "spoke" if peer.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) else "gone"
    except BlockingIOError:
        return "quiet"
    except OSError:
        return "gone"


def _resume(
    values: dict[str, str],
    server: socket.socket,
    watch: int,
    peers: list[socket.socket],
    caught: list[int],
) -> int:
    """Load the rest, take the ask over and wait on as any asker; the exit status."""
    from pathlib import Path

    from pi_ask.api import resume_elsewhere
    from pi_ask.cli.main import report_result
    from pi_ask.errors import PiAskError
    from pi_ask.signal_latch import hold_ending_signals, latch

    hold_ending_signals()
    if caught:
        latch(caught[0])
    log = Path(values["log"]) if values["log"] else None
    try:
        result, status = resume_elsewhere(
            values["ask_id"],
            asks=Path(values["asks"]),
            log=log,
            descriptors=(server.detach(), watch),
            peers=peers,
        )
    except PiAskError as err:
        print(f"pi-ask: {err}", file=sys.stderr)
        return 2
    config = Path(values["config"]) if values["config"] else None
    return report_result(result, status, values["ui"], config)


def _spawn_notifier(arguments: tuple[str, str, str], keep_from_it: tuple[int, ...]) -> None:
    """Start the notifier process (``notify_main``: the ``--config`` file, the ask's id and
    the runtime folder), without this process's descriptors."""
    try:
        os.posix_spawn(
            sys.executable,
            [sys.executable, "-P", "-c", _NOTIFY, _package_root(), *arguments],
            os.environ,
            file_actions=[(os.POSIX_SPAWN_CLOSE, fd) for fd in keep_from_it],
            setsigdef=(signal.SIGCHLD, *ENDING_SIGNALS),
            setsigmask=(),
            setsid=True,
        )
    except OSError as err:
        print(f"pi-ask: the question-waiting notification could not start ({err})", file=sys.stderr)


def notify_main(config: str, ask_id: str, runtime: str) -> None:
    """The notifier process: the "question waiting" notification of ask ``ask_id`` through
    the configured channels (with its page), until every channel has had its turn."""
    from pathlib import Path

    from pi_ask.config.store import open_store
    from pi_ask.relay.elsewhere import notify_waiting_asker

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    store = open_store(Path(config) if config else None)
    notification = notify_waiting_asker(store, say, ask_id, Path(runtime))
    if notification is not None:
        notification.wait()


def _package_root() -> str:
    """The folder holding this ``pi_ask`` package: the new image imports the same code."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
