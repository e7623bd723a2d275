"""Where an ask's page is, for the "question waiting" notification and the MCP face.

A running ``pi-ask web`` says where its page is in ``web.json`` in the runtime folder (0600,
its process id and the page's base address, never a pairing code or any other secret), and
removes it when it stops. An ask's page is that address, or ``[web] public_url`` when set
(it is what links point to), with the ask named in the fragment: ``…/#ask=<id>``. The page
itself asks an unpaired device to pair first, so the link opens nothing by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from pi_ask.notifications.channel import is_link

LINK_FILE = "web.json"
_MAX_FILE_BYTES = 4096


def ask_fragment(ask_id: str) -> str:
    """The fragment that opens ``ask_id`` on the page."""
    return f"#ask={ask_id}"


def page_base(public_url: str, runtime: Path | None) -> str | None:
    """The page's base address: ``public_url`` when set, else a running server's; ``None``
    when neither (no link is given then)."""
    if public_url:
        base = public_url if public_url.endswith("/") else public_url + "/"
        return base if is_link(base) else None
    return running_base(runtime) if runtime is not None else None


def ask_page(ask_id: str, public_url: str, runtime: Path | None) -> str | None:
    """The page of ``ask_id``, or ``None`` when there is no page to point to."""
    base = page_base(public_url, runtime)
    return base + ask_fragment(ask_id) if base is not None else None


def waiting_link(ask_ids: list[str], public_url: str, runtime: Path | None = None) -> str:
    """The link of a "question waiting" notification for the asks that just arrived: the
    one ask's page, the list for several, "" when no page serves them. ``runtime``: the
    runtime folder (found when not given)."""
    if runtime is None and not public_url:
        from pi_ask.relay.paths import NoPrivateFolder, runtime_dir

        try:
            runtime = runtime_dir()
        except NoPrivateFolder:
            return ""
    base = page_base(public_url, runtime)
    if base is None or not ask_ids:
        return ""
    return base + ask_fragment(ask_ids[0]) if len(ask_ids) == 1 else base


def running_base(runtime: Path) -> str | None:
    """The base address a live ``pi-ask web`` published in ``runtime``, if any."""
    from pi_ask.guarded_parse import load_json
    from pi_ask.regular_files import read_regular

    try:
        found = load_json(read_regular(runtime / LINK_FILE, _MAX_FILE_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict):
        return None
    pid, url = found.get("pid"), found.get("url")
    if type(pid) is not int or pid <= 0 or not isinstance(url, str) or not is_link(url):
        return None
    return url if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process reuses the number: not our server
        return False
    return True


def publish(runtime: Path, base: str) -> Callable[[], None]:
    """Say where this process's page is (``base``); returns what takes it back, which
    removes the file only while it is still this process's (a later server's stays)."""
    from pi_ask.relay.asks import write_file

    path = runtime / LINK_FILE
    mine = json.dumps({"pid": os.getpid(), "url": base}).encode()
    write_file(path, mine)

    def withdraw() -> None:
        with contextlib.suppress(OSError):
            if path.read_bytes() == mine:
                path.unlink()

    return withdraw
