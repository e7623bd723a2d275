"""How pending asks are listed: ``attach --list`` lines and the inbox's waiting screen."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pi_ask.i18n import N_, gettext, ngettext
from pi_ask.terminal_text import clean_line

if TYPE_CHECKING:
    from pi_ask.relay.asks import AskSummary

IDLE_TEXT = N_("pi-ask inbox: waiting for questions from your agents. Press q or Ctrl+C to quit.")


def listing_lines(found: list[AskSummary]) -> list[str]:
    """``attach --list``: one line per ask, oldest first: id, age, questions, title, folder."""
    now_ms = time.time_ns() // 1_000_000
    lines = []
    for info in found:
        title = clean_line(info.title) if info.title else "(untitled)"
        count = f"{info.questions} question" + ("s" if info.questions != 1 else "")
        age = age_text(now_ms - info.created_ms)
        lines.append(f"{info.ask_id}  {age:>4}  {count}  {title}  {clean_line(info.cwd)}")
    return lines


def age_text(ms: int) -> str:
    """``12s``, ``4m``, ``3h``, ``2d``."""
    seconds = max(0, ms // 1000)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def lobby_lines(found: list[AskSummary]) -> list[str]:
    """The waiting screen: the idle line, or the numbered list of several asks."""
    if not found:
        return [gettext(IDLE_TEXT)]
    now_ms = time.time_ns() // 1_000_000
    header = ngettext(
        "pi-ask inbox: {count} question waiting, oldest first:",
        "pi-ask inbox: {count} questions waiting, oldest first:",
        len(found),
    )
    lines = [header.format(count=len(found))]
    for number, info in enumerate(found, start=1):
        title = clean_line(info.title) if info.title else gettext("(untitled)")
        age = gettext("{age} ago").format(age=age_text(now_ms - info.created_ms))
        lines.append(f"  {number}. {title}  ({clean_line(info.cwd)}, {age})")
    lines.append(
        gettext("Enter opens the highlighted one (the oldest at first), 1-9 that one, q quits.")
    )
    return lines
