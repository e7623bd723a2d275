"""Trusted bridges: installed ``pi_ask.bridges`` entry points, registered once per bus."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Protocol

from pi_ask.events.bus import EventBus

BRIDGE_GROUP = "pi_ask.bridges"


class EntryPointLike(Protocol):
    """The part of :class:`importlib.metadata.EntryPoint` that bridge loading uses."""

    @property
    def name(self) -> str: ...

    def load(self) -> object: ...


def load_bridges(
    bus: EventBus, *, entry_points: Iterable[EntryPointLike] | None = None
) -> tuple[str, ...]:
    """Call ``register(bus)`` of every installed ``pi_ask.bridges`` entry point, once per bus.

    A bridge that fails to load or register is reported on stderr and skipped; the ask goes
    on without it.

    Args:
        bus: the bus the bridges subscribe to and submit on.
        entry_points: the entry points to load; defaults to the installed ones.

    Returns:
        The names of the bridges registered by this call (empty on every later call).
    """
    if not bus._claim_bridge_loading():
        return ()
    if entry_points is None:
        # Imported here: importlib.metadata scans site-packages, which no flow should wait for
        # unless a bridge might be installed.
        from importlib.metadata import entry_points as installed

        entry_points = installed(group=BRIDGE_GROUP)
    loaded: list[str] = []
    for entry_point in entry_points:
        try:
            register = entry_point.load()
            if not callable(register):
                raise TypeError(f"{register!r} is not callable")
            register(bus)
        except Exception as err:  # a broken plugin must not break the ask
            print(
                f"pi-ask events: bridge {entry_point.name!r} (entry point group "
                f"{BRIDGE_GROUP}) failed: {type(err).__name__}: {err}; continuing without it",
                file=sys.stderr,
            )
            continue
        loaded.append(entry_point.name)
    return tuple(loaded)
