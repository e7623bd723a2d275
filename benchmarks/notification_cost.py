"""What notifications cost the flow: keys typed while a channel hangs and apprise sends.

The notifying config runs a command channel that hangs (``sleep 30``, abandoned after
``TIMEOUT_S``) and then a real apprise ``json://`` channel to the benchmark's loopback
server. Right after the first frame the benchmark types Down/Up every ``GAP_S`` and times
each key until the server has the notification, then types as many keys into a flow
without that config, from its first frame too, for comparison.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from notify_sink import NotifySink
from terminal_runs import DOWN, UP, Launch, TerminalRun, cursor_on

TIMEOUT_S = 2
GAP_S = 0.05
WAIT_S = 15.0


def notifying_config(sink: NotifySink) -> str:
    """A config file whose notification hangs first, then goes through apprise to ``sink``."""
    return (
        "[notifications]\n"
        "enabled = true\n"
        f"timeout_s = {TIMEOUT_S}\n"
        f'channels = [{{ type = "command", command = "sleep 30" }}, "{sink.url}"]\n'
    )


@dataclass(frozen=True, slots=True)
class NotificationWindow:
    """Keys typed from the first frame until the notification arrived, in milliseconds.

    Attributes:
        delivered_after_ms: From the first frame to the POST reaching the server (``None``:
            it never came within ``WAIT_S``).
        keys: Keys timed in each flow.
        notifying_median_ms / notifying_max_ms: In the flow whose notification runs.
        plain_median_ms / plain_max_ms: The same number of keys in a flow without it.
    """

    delivered_after_ms: float | None
    keys: int
    notifying_median_ms: float
    notifying_max_ms: float
    plain_median_ms: float
    plain_max_ms: float


def _type_keys(run: TerminalRun, count: int | None, until: NotifySink | None) -> list[float]:
    """Down/Up every ``GAP_S`` from now: ``count`` keys, or until ``until`` gets a POST."""
    baseline = until.count() if until is not None else 0
    times: list[float] = []
    start = time.perf_counter()
    while True:
        if count is not None and len(times) >= count:
            return times
        if until is not None and (until.count() > baseline or time.perf_counter() - start > WAIT_S):
            return times
        down = len(times) % 2 == 0
        times.append(run.press(DOWN if down else UP, cursor_on(2 if down else 1)))
        time.sleep(GAP_S)


def measure_notification_window(
    plain: Launch, notifying: Launch, sink: NotifySink
) -> NotificationWindow:
    """Time keys in ``notifying`` until ``sink`` is notified, then as many in ``plain``."""
    before = sink.count()
    run = TerminalRun(notifying)
    try:
        run.first_frame()
        shown = time.perf_counter()
        noisy = _type_keys(run, None, sink)
    finally:
        run.close()
    arrivals = sink.received[before:]
    delivered = round((arrivals[0][0] - shown) * 1000, 1) if arrivals else None
    run = TerminalRun(plain)
    try:
        run.first_frame()
        quiet = _type_keys(run, len(noisy), None)
    finally:
        run.close()
    return NotificationWindow(
        delivered_after_ms=delivered,
        keys=len(noisy),
        notifying_median_ms=round(statistics.median(noisy) * 1000, 1),
        notifying_max_ms=round(max(noisy) * 1000, 1),
        plain_median_ms=round(statistics.median(quiet) * 1000, 1),
        plain_max_ms=round(max(quiet) * 1000, 1),
    )
