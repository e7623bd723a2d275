"""The settings overlay's behaviour: focus, toggles that save at once, the guarded reset.

A toggle saves through the store straight away; when the save fails the store keeps the old
value (so the row shows it again) and the error is shown until the next action. The reset
row needs a second press within the store's 2-second window; moving the focus or toggling
another row disarms it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.settings_rows import SETTING_ROWS, next_value, toggle_value, toggle_values
from pi_ask.faces.tui.settings_screen import OverlayView
from pi_ask.i18n import gettext


class SettingsPanel:
    """The state of one open settings overlay over a ``SettingsStore``."""

    def __init__(
        self, store: SettingsStore, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.focus = 0
        self.error: str | None = None
        self.info: str | None = None
        self._clock = clock

    def move(self, delta: int) -> None:
        """Move the focus by ``delta`` rows, wrapping around both ends."""
        self.store.cancel_reset()
        self.focus = (self.focus + delta) % len(SETTING_ROWS)

    def toggle(self) -> None:
        """Flip the focused setting (or step to its next choice) and save it, or press reset."""
        row = SETTING_ROWS[self.focus]
        self.error = self.info = None
        if row.kind == "reset":
            reset = self.store.request_reset(self._clock())
            if reset.status == "failed":
                self.error = reset.error
            elif reset.status == "reset" and reset.backup is not None:
                self.info = gettext("The unreadable file was kept as {path}.").format(
                    path=reset.backup
                )
            return
        current = toggle_value(self.store.snapshot(), row.key)
        saved = self.store.set(row.key, next_value(row, current))
        self.error = saved.error
        self.info = saved.info

    def reset_armed(self) -> bool:
        """True while the reset waits for its confirming press."""
        return self.store.reset_armed(self._clock())

    def view(self) -> OverlayView:
        """What to draw now."""
        settings = self.store.snapshot()
        notice = self.store.notice
        notice_text = notice.text if notice is not None else self.info
        return OverlayView(
            values=toggle_values(settings),
            focus=self.focus,
            reset_armed=self.reset_armed(),
            config_path=str(self.store.path),
            keymaps=settings.keymaps,
            notice=notice_text,
            notice_is_success=notice is None or notice.kind == "success",
            error=self.error,
        )
