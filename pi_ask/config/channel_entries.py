"""Channel table entries of ``[notifications] channels``, as hashable read-only mappings.

``Settings`` holds them among the channel names; only a config with a table entry loads
this module (the default channels are names).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommandEntry(Mapping[str, str]):
    """A ``{ type = "command", command = "..." }`` channel entry, as plain read-only data.

    It is a ``Mapping`` so ``pi_ask.notifications.parse_channels`` takes it like the table
    it was read from, and it is hashable so ``Settings`` stays a value.
    """

    command: str

    def __getitem__(self, key: str) -> str:
        if key == "type":
            return "command"
        if key == "command":
            return self.command
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("type", "command"))

    def __len__(self) -> int:
        return 2


@dataclass(frozen=True, slots=True)
class TableEntry(Mapping[str, object]):
    """Any other channel table (``{ type = "apprise", config = "...", tags = [...] }``,
    ``{ type = "desktop", when = "unfocused" }``), as plain read-only data; lists are tuples,
    so it stays hashable."""

    items_: tuple[tuple[str, object], ...]

    @classmethod
    def of(cls, table: Mapping[object, object]) -> TableEntry:
        """A read-only copy of ``table``."""
        return cls(
            tuple(
                (str(key), tuple(value) if isinstance(value, list) else value)
                for key, value in table.items()
            )
        )

    def __getitem__(self, key: str) -> object:
        for name, value in self.items_:
            if name == key:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(name for name, _ in self.items_)

    def __len__(self) -> int:
        return len(self.items_)
