"""Take the terminal's reports out of the input before prompt_toolkit's parser sees them.

A terminal writes some things into the input that are not keys: focus reports
(``ESC [ I`` / ``ESC [ O`` once DECSET 1004 is on) and replies to queries (``ESC ] 11 ;
rgb:... BEL`` for OSC 11). prompt_toolkit 3.0's parser would read ``ESC [ I`` as Escape,
``[``, ``I`` (and Escape cancels the ask), so ``TerminalReports`` takes them out of the raw
text first and hands each to whoever subscribed; everything else passes through unchanged,
in order.

Text the user pastes (between the bracketed-paste markers ``ESC [200~`` and ``ESC [201~``) is
the user's, whatever it holds: it passes through untouched, an OSC sequence in it included.

A report can arrive split over two reads. Text at the end of a read that could still become
a report (``ESC``, ``ESC [``, ``ESC ] 11;rgb:00``) is held back until the next read decides
it; ``flush`` (called by prompt_toolkit's own escape timeout) releases it as keys, so a lone
Escape still works as before, after the same timeout.

Usage: one filter per input (a ``Vt100Input`` or prompt_toolkit's pipe input), installed
by the first call and shared by every caller after it::

    reports = terminal_reports(app.input)      # None for an input it cannot filter
    if reports is not None:
        stop = reports.on_osc(11, lambda body: ...)   # body: "rgb:0000/0000/0000"
        reports.on_focus(lambda focused: ...)
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable

from prompt_toolkit.input.vt100 import Vt100Input
from prompt_toolkit.input.vt100_parser import Vt100Parser

FOCUS_IN = "\x1b[I"
FOCUS_OUT = "\x1b[O"
ENABLE_FOCUS_REPORTS = "\x1b[?1004h"
DISABLE_FOCUS_REPORTS = "\x1b[?1004l"
# The patterns are text: ``re`` compiles (and caches) them when the first report comes,
# after the first frame, not while pi-ask starts.
# An OSC reply: ESC ] <number> ; <body> ended by BEL or ST (ESC \).
_OSC = r"\x1b\](\d+);([^\x07\x1b]*)(?:\x07|\x1b\\)"
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
# A prefix that may still grow into a report or a paste start: held back at the end of a read.
_PARTIAL = r"\x1b(?:\[(?:2(?:0(?:0)?)?)?|\](?:\d+(?:;[^\x07\x1b]*(?:\x1b)?)?)?)?\Z"
# A reply longer than this is not one we asked for: let it through as keys.
MAX_REPORT = 1024


class TerminalReports:
    """The filter: ``feed`` raw input text, get back what is meant for the key parser.

    Thread-safe subscriptions; ``feed`` and ``flush`` run where the input is read (the loop).
    Callbacks run there too, synchronously, and must be quick; an exception in one is
    swallowed so a subscriber cannot break the keyboard.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._focus: list[Callable[[bool], None]] = []
        self._osc: dict[int, list[Callable[[str], None]]] = {}
        self._held = ""
        self._pasting = False
        self.focused: bool | None = None
        """The last focus report: True (focused), False, or None when none came yet."""

    # -- subscribing ------------------------------------------------------------------

    def on_focus(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(focused)`` on each focus report; returns the unsubscribe."""
        with self._lock:
            self._focus.append(callback)
        return lambda: self._remove(self._focus, callback)

    def on_osc(self, number: int, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(body)`` for each ``OSC number ; body`` reply; returns the unsubscribe.

        A reply for a number nobody subscribed to is still taken out (it is never a key).
        """
        with self._lock:
            self._osc.setdefault(number, []).append(callback)
        return lambda: self._remove(self._osc.get(number, []), callback)

    def _remove(self, callbacks: list[Callable[..., None]], callback: Callable[..., None]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            callbacks.remove(callback)

    # -- filtering --------------------------------------------------------------------

    def feed(self, data: str) -> str:
        """Take the reports out of ``data``; returns the rest, minus an unfinished tail."""
        text = self._held + data
        self._held = ""
        kept: list[str] = []
        position = 0
        while True:
            if self._pasting:
                after = self._pass_paste(text, position, kept)
                if after is None:
                    break
                position = after
                continue
            start = text.find("\x1b", position)
            if start < 0:
                kept.append(text[position:])
                break
            kept.append(text[position:start])
            if text.startswith(PASTE_START, start):
                kept.append(PASTE_START)
                position = start + len(PASTE_START)
                self._pasting = True
                continue
            taken = self._take(text, start)
            if taken is None:  # unfinished: hold it back for the next read
                self._held = text[start:]
                break
            if taken == start:  # an ESC that starts no report: a key
                kept.append("\x1b")
                position = start + 1
            else:
                position = taken
        return "".join(kept)

    def _pass_paste(self, text: str, position: int, kept: list[str]) -> int | None:
        """Pass pasted text through up to and with the paste end, and return where it ends;
        ``None`` when the text ends inside the paste (a split end marker is held back)."""
        end = text.find(PASTE_END, position)
        if end >= 0:
            self._pasting = False
            kept.append(text[position : end + len(PASTE_END)])
            return end + len(PASTE_END)
        split = next(
            (n for n in range(len(PASTE_END) - 1, 0, -1) if text.endswith(PASTE_END[:n])), 0
        )
        kept.append(text[position : len(text) - split])
        self._held = text[len(text) - split :]
        return None

    def flush(self) -> str:
        """Release held-back text as keys (the escape timeout passed without more input)."""
        held, self._held = self._held, ""
        return held

    def _take(self, text: str, start: int) -> int | None:
        """Where a report at ``start`` ends (after dispatching it), ``start`` if none, or
        ``None`` when the text ends inside what may still become one."""
        for sequence, focused in ((FOCUS_IN, True), (FOCUS_OUT, False)):
            if text.startswith(sequence, start):
                self._report_focus(focused)
                return start + len(sequence)
        match = re.compile(_OSC).match(text, start)
        if match is not None and match.end() - start <= MAX_REPORT:
            self._report_osc(int(match.group(1)), match.group(2))
            return match.end()
        tail = text[start:]
        if len(tail) <= MAX_REPORT and re.match(_PARTIAL, tail):
            return None
        return start

    def _report_focus(self, focused: bool) -> None:
        self.focused = focused
        with self._lock:
            callbacks = list(self._focus)
        for callback in callbacks:
            with contextlib.suppress(Exception):
                callback(focused)

    def _report_osc(self, number: int, body: str) -> None:
        with self._lock:
            callbacks = list(self._osc.get(number, ()))
        for callback in callbacks:
            with contextlib.suppress(Exception):
                callback(body)


class _FilteringParser(Vt100Parser):
    """prompt_toolkit's parser, fed only what ``TerminalReports`` lets through."""

    def __init__(self, parser: Vt100Parser, reports: TerminalReports) -> None:
        super().__init__(parser.feed_key_callback)
        self.reports = reports
        self._filtering = False

    def feed(self, data: str) -> None:
        if self._filtering:
            # prompt_toolkit's own feed calls feed again with the rest of a bracketed paste:
            # that text was filtered already, and filtering it twice would eat pasted text.
            super().feed(data)
            return
        self._filtering = True
        try:
            super().feed(self.reports.feed(data))
        finally:
            self._filtering = False

    def flush(self) -> None:
        held = self.reports.flush()
        if held:
            super().feed(held)
        super().flush()


def terminal_reports(app_input: object) -> TerminalReports | None:
    """The report filter in front of ``app_input``'s key parser, installed on first use.

    Works for ``Vt100Input`` and what derives from it (prompt_toolkit's pipe input in
    tests); for another input (Windows, a custom one) it returns ``None``.
    """
    if not isinstance(app_input, Vt100Input):
        return None
    parser = app_input.vt100_parser
    if isinstance(parser, _FilteringParser):
        return parser.reports
    filtering = _FilteringParser(parser, TerminalReports())
    app_input.vt100_parser = filtering
    return filtering.reports
