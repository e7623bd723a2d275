"""The rows of the settings overlay (behaviour.md §10), read from the config key table.

The overlay is a view of ``pi_ask.config.TOGGLE_ROWS`` plus the reset action: a toggle
added there shows up here.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pi_ask.config import RESET_DESCRIPTION, TOGGLE_ROWS, Settings

ACTIONS = "Actions"


class SettingRow(NamedTuple):
    """One row of the overlay.

    Attributes:
        key: The dotted config key the toggle writes (``""`` for the reset action).
        label: What the row says.
        section: The section header it sits under.
        description: Shown under the rows while the row has the focus.
        kind: ``toggle`` flips a boolean; ``reset`` is the guarded reset-all action.
    """

    key: str
    label: str
    section: str
    description: str
    kind: Literal["toggle", "reset"] = "toggle"


SETTING_ROWS: tuple[SettingRow, ...] = (
    *(SettingRow(row.key, row.label, row.group, row.description) for row in TOGGLE_ROWS),
    SettingRow("", "Reset config to defaults", ACTIONS, RESET_DESCRIPTION, kind="reset"),
)


def toggle_value(settings: Settings, key: str) -> bool:
    """The current value of the boolean setting ``key`` (``behaviour.show_footer_hints``)."""
    section, _, name = key.partition(".")
    return bool(getattr(getattr(settings, section), name))


def toggle_values(settings: Settings) -> dict[str, bool]:
    """Every toggle row's current value, by key."""
    return {row.key: toggle_value(settings, row.key) for row in SETTING_ROWS if row.key}
