"""The rows of the settings overlay (behaviour.md §10), read from the config key table.

The overlay is a view of ``pi_ask.config.TOGGLE_ROWS`` plus the reset action: a toggle
added there shows up here.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pi_ask.config.catalogue import RESET_DESCRIPTION, TOGGLE_ROWS
from pi_ask.config.settings import Settings
from pi_ask.i18n import N_

ACTIONS = N_("Actions")
# The overlay's section names (``ToggleRow.group``), marked here for the catalogues.
SECTIONS = (N_("Live settings"), N_("Defaults for future asks"), ACTIONS)


class SettingRow(NamedTuple):
    """One row of the overlay.

    Attributes:
        key: The dotted config key the toggle writes (``""`` for the reset action).
        label: What the row says.
        section: The section header it sits under.
        description: Shown under the rows while the row has the focus.
        kind: ``toggle`` flips a boolean; ``reset`` is the guarded reset-all action.
        choices: For a choice row, the values it steps through; empty for on/off.
    """

    key: str
    label: str
    section: str
    description: str
    kind: Literal["toggle", "reset"] = "toggle"
    choices: tuple[str, ...] = ()


SETTING_ROWS: tuple[SettingRow, ...] = (
    *(
        SettingRow(row.key, row.label, row.group, row.description, choices=row.choices)
        for row in TOGGLE_ROWS
    ),
    SettingRow("", N_("Reset config to defaults"), ACTIONS, RESET_DESCRIPTION, kind="reset"),
)


def toggle_value(settings: Settings, key: str) -> bool | str:
    """The current value of the setting ``key``: a boolean, or a choice row's value."""
    section, _, name = key.partition(".")
    holder = getattr(settings, section, settings.routing)
    if not hasattr(holder, name):  # behaviour.no_terminal and inbox.tmux live in ``routing``
        holder = settings.routing
    value = getattr(holder, name)
    return value if isinstance(value, str) else bool(value)


def next_value(row: SettingRow, current: bool | str) -> bool | str:
    """What pressing the row makes of ``current``: flipped, or the next choice (wrapping)."""
    if not row.choices:
        return not current
    index = row.choices.index(current) if current in row.choices else -1
    return row.choices[(index + 1) % len(row.choices)]


def toggle_values(settings: Settings) -> dict[str, bool | str]:
    """Every toggle row's current value, by key."""
    return {row.key: toggle_value(settings, row.key) for row in SETTING_ROWS if row.key}
