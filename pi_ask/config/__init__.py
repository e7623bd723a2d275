"""Settings: the TOML config file, its checks, a live store, and the ``pi-ask config`` verbs.

Importing this package stays cheap (no pydantic, no tomlkit): the ask flow reads its first
``Settings`` through the fast path; the model and the editor load when they are needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.config.keys import KEYS, RESET_DESCRIPTION, TOGGLE_ROWS, SettingKey, ToggleRow
from pi_ask.config.paths import config_path, state_dir
from pi_ask.config.problems import ConfigProblem, Notice
from pi_ask.config.settings import (
    AnswerSettings,
    ChannelEntry,
    ModelEntry,
    NotificationSettings,
    Settings,
    ThemeSettings,
    UiSettings,
)
from pi_ask.config.store import (
    RESET_WINDOW_S,
    ResetResult,
    SaveResult,
    SettingsStore,
    open_store,
)
from pi_ask.lazy_names import lazy_names

if TYPE_CHECKING:
    from pi_ask.config.channel_entries import CommandEntry, TableEntry

# Only a config with a channel table needs these.
__getattr__ = lazy_names(
    __name__,
    {
        "CommandEntry": "pi_ask.config.channel_entries",
        "TableEntry": "pi_ask.config.channel_entries",
    },
)

__all__ = [
    "KEYS",
    "RESET_DESCRIPTION",
    "RESET_WINDOW_S",
    "TOGGLE_ROWS",
    "AnswerSettings",
    "ChannelEntry",
    "CommandEntry",
    "ConfigProblem",
    "ModelEntry",
    "Notice",
    "NotificationSettings",
    "ResetResult",
    "SaveResult",
    "SettingKey",
    "Settings",
    "SettingsStore",
    "TableEntry",
    "ThemeSettings",
    "ToggleRow",
    "UiSettings",
    "config_path",
    "open_store",
    "state_dir",
]
