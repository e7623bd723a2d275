"""What notifications cost the flow: keys typed while a channel hangs and apprise sends.

The notifying config runs a command channel that hangs (``sleep 30``, abandoned after
``TIMEOUT_S``) and then a real apprise ``json://`` channel to the benchmark's loopback
server. Two flows are opened side by side, one with that config and one without; from
their first frames on, the benchmark types Down/Up into each by turns, every ``GAP_S``,
timing each key until its screen shows the move, until the server has the notification.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from first_frame import paired_ratio
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
        paired_ratio: The median of notifying / plain over the keys typed one after the
            other.
    """

    delivered_after_ms: float | None
    keys: int
    notifying_median_ms: float
    notifying_max_ms: float
    plain_median_ms: float
    plain_max_ms: float
    paired_ratio: float


def measure_notification_window(
    plain: Launch, notifying: Launch, sink: NotifySink
) -> NotificationWindow:
    """Type into ``notifying`` and ``plain`` by turns until ``sink`` is notified."""
    before = sink.count()
    runs = (TerminalRun(notifying), TerminalRun(plain))
    times: tuple[list[float], list[float]] = ([], [])
    try:
        for run in runs:
            run.first_frame()
        shown = time.perf_counter()
        while sink.count() == before and time.perf_counter() - shown < WAIT_S:
            down = len(times[0]) % 2 == 0
            for run, timings in zip(runs, times, strict=True):
                timings.append(run.press(DOWN if down else UP, cursor_on(2 if down else 1)))
                time.sleep(GAP_S)
    finally:
        for run in runs:
            run.close()
    arrivals = sink.received[before:]
    noisy, quiet = times
    return NotificationWindow(
        delivered_after_ms=round((arrivals[0][0] - shown) * 1000, 1) if arrivals else None,
        keys=len(noisy),
        notifying_median_ms=round(statistics.median(noisy) * 1000, 1),
        notifying_max_ms=round(max(noisy) * 1000, 1),
        plain_median_ms=round(statistics.median(quiet) * 1000, 1),
        plain_max_ms=round(max(quiet) * 1000, 1),
        paired_ratio=paired_ratio(noisy, quiet),
    )
