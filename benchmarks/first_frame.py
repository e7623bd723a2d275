"""First frame on a real pty: every launch interleaved, median of ``runs`` each.

Each round runs every launch once, in an order rotated from round to round, so a burst
of load from another process or a slow disk moment lands on all of them alike. One
untimed round first warms the disk cache and writes the config files.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from terminal_runs import Launch, RunTiming, time_run

RUNS = 15


@dataclass(frozen=True, slots=True)
class FrameTiming:
    """First frame (and first key) of one launch over ``runs`` runs, in milliseconds.

    Attributes:
        first_key_median_ms: For keyed launches: a Down key sent as soon as the first frame
            is there, until the moved cursor is on the screen.
        frames_ms / first_keys_ms: Every run, in round order (run ``i`` of two launches
            was taken in the same round, moments apart).
    """

    name: str
    runs: int
    median_ms: float
    min_ms: float
    max_ms: float
    first_key_median_ms: float | None
    frames_ms: tuple[float, ...]
    first_keys_ms: tuple[float, ...]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def _summary(launch: Launch, timings: Sequence[RunTiming]) -> FrameTiming:
    frames = [timing.first_frame_s for timing in timings]
    keys = [timing.first_key_s for timing in timings if timing.first_key_s is not None]
    return FrameTiming(
        name=launch.name,
        runs=len(frames),
        median_ms=_ms(statistics.median(frames)),
        min_ms=_ms(min(frames)),
        max_ms=_ms(max(frames)),
        first_key_median_ms=_ms(statistics.median(keys)) if keys else None,
        frames_ms=tuple(_ms(frame) for frame in frames),
        first_keys_ms=tuple(_ms(key) for key in keys),
    )


def paired_ratio(numerator: Sequence[float], denominator: Sequence[float]) -> float:
    """The median of the per-round ratios: load that hits one round cancels out."""
    ratios = [a / b for a, b in zip(numerator, denominator, strict=True)]
    return round(statistics.median(ratios), 2)


def measure_first_frames(launches: Sequence[Launch], runs: int = RUNS) -> dict[str, FrameTiming]:
    """Time every launch ``runs`` times, interleaved; keyed by launch name."""
    for launch in launches:
        time_run(launch)
    timings: dict[str, list[RunTiming]] = {launch.name: [] for launch in launches}
    for round_number in range(runs):
        shift = round_number % len(launches)
        for launch in [*launches[shift:], *launches[:shift]]:
            timings[launch.name].append(time_run(launch))
    return {launch.name: _summary(launch, timings[launch.name]) for launch in launches}
