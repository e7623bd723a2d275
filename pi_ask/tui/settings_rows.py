"""The rows of the settings overlay (behaviour.md §10), as a table.

The overlay is a view of this table: adding a toggle is adding a row here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LIVE = "Live settings"
DEFAULTS = "Defaults for future asks"
ACTIONS = "Actions"


@dataclass(frozen=True, slots=True)
class SettingRow:
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
    SettingRow(
        "behaviour.auto_submit_when_answered_without_notes",
        "Auto-submit when answered without notes",
        LIVE,
        "Auto-submit completed ask flows when no question or option notes were added.",
    ),
    SettingRow(
        "behaviour.confirm_dismiss_when_dirty",
        "Confirm dismiss when dirty",
        LIVE,
        "Require a second cancel or dismiss action before discarding answered or drafted "
        "ask content.",
    ),
    SettingRow(
        "behaviour.double_press_review_shortcuts",
        "Double-press review shortcuts",
        LIVE,
        "Require pressing 1, 2, or 3 twice on the review tab before triggering Submit, "
        "Elaborate, or Cancel.",
    ),
    SettingRow(
        "notifications.enabled",
        "Notifications",
        LIVE,
        "Emit one external notification when the ask flow opens and waits for input.",
    ),
    SettingRow(
        "behaviour.show_footer_hints",
        "Show footer hints",
        LIVE,
        "Show footer keymap hints at the bottom of the ask flow.",
    ),
    SettingRow(
        "behaviour.present_single_as_multi",
        "Present single-select as multi-select",
        DEFAULTS,
        "Default new and replayed ask flows to render single-select questions as "
        "multi-select. This is not hot-applied to the current flow; use the type hotkey there.",
    ),
    SettingRow(
        "",
        "Reset config to defaults",
        ACTIONS,
        "Reset behaviour, keymaps, notifications, and extraction settings to defaults. "
        "Press twice quickly to confirm.",
        kind="reset",
    ),
)
