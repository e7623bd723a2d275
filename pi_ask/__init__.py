"""pi-ask: let a coding agent pause and ask the user structured questions."""

from __future__ import annotations

__version__ = "0.1.0"
