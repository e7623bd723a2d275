"""Reading a screen drawn in the pseudo-language: the words outside its markers are the
ones a test flags as left untranslated (the face tests of the TUI, plain face and inbox)."""

from __future__ import annotations

import re

from pi_ask.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
_INNERMOST = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")


def unmarked(text: str) -> str:
    """``text`` without what sits inside markers (innermost first: messages nest)."""
    while True:
        shorter = _INNERMOST.sub(" ", text)
        if shorter == text:
            return text
        text = shorter
