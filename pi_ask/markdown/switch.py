"""``[ui] markdown``: whether payload text is rendered as Markdown, for the whole process.

One switch rather than a parameter through every renderer: the faces set it from the live
settings when they open (the TUI also when the setting changes), and the renderers read it
outside their caches, so a change is never answered from a cache filled under the other
value.
"""

from __future__ import annotations

_ON = [True]


def markdown_enabled() -> bool:
    """True unless ``[ui] markdown = false``."""
    return _ON[0]


def set_markdown_enabled(on: bool) -> None:
    """Follow ``[ui] markdown``."""
    _ON[0] = on
