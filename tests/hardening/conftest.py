"""Shared set-up of the hardening suite: the TUI and pty helpers on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

# The headless driver (tests/tui/driver.py) and the pty terminal (tests/e2e/terminal.py) are
# plain modules next to their own tests; import them rather than keep copies here.
for helpers in (TESTS / "tui", TESTS / "e2e"):
    if str(helpers) not in sys.path:
        sys.path.append(str(helpers))
