"""Parse the ``notifications.channels`` config value into channels (python-port.md §4).

The settings store calls this while loading, on the first-frame path, so it is cheap and
imports nothing heavy: apprise URLs are only checked for ``scheme://`` form here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pi_ask.config.keys import CHANNEL_NAMES
from pi_ask.config.keys import DEFAULT_CHANNELS as DEFAULT_NAMES
from pi_ask.notifications.channel import Channel
from pi_ask.notifications.channels import (
    AppriseChannel,
    BellChannel,
    CommandChannel,
    DesktopChannel,
    Osc9Channel,
    Osc99Channel,
    Osc777Channel,
    TerminalChannel,
    is_apprise_url,
)
from pi_ask.terminal_text import clean_line, truncate

_KEY = "notifications.channels"
_CHANNELS: tuple[Channel, ...] = (
    TerminalChannel(),
    DesktopChannel(),
    BellChannel(),
    Osc9Channel(),
    Osc777Channel(),
    Osc99Channel(),
)
# The names come from the config's registry; a test checks each has its channel here.
_NAMED: dict[str, Channel] = {
    channel.label: channel for channel in _CHANNELS if channel.label in CHANNEL_NAMES
}
_EXPECTED = (
    "expected "
    + ", ".join(f'"{name}"' for name in CHANNEL_NAMES)
    + ', an apprise URL ("scheme://...") or { type = "command", command = "..." }'
)
_DEFAULT_SHOWN = "[" + ", ".join(f'"{name}"' for name in DEFAULT_NAMES) + "]"
DEFAULT_CHANNELS: tuple[Channel, ...] = tuple(_NAMED[name] for name in DEFAULT_NAMES)


def _shown(value: object) -> str:
    # Config values can be long or hold control characters; show them short and inert.
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return truncate(clean_line(text), 60)


def _parse_command(path: str, entry: Mapping[object, object]) -> tuple[Channel | None, list[str]]:
    warnings: list[str] = []
    command = entry.get("command")
    unknown = sorted(str(key) for key in entry if key not in ("type", "command"))
    if unknown:
        keys = ", ".join(unknown)
        warnings.append(f"{path}: unknown key(s) {keys} in a command channel; ignored")
    if not isinstance(command, str):
        warnings.append(f'{path}: a command channel needs command = "..."; skipped')
        return None, warnings
    if not command.strip():
        warnings.append(f"{path}: the command channel's command is blank; skipped")
        return None, warnings
    return CommandChannel(str(command)), warnings


def _parse_entry(path: str, entry: object) -> tuple[Channel | None, list[str]]:
    if isinstance(entry, str):
        name = entry.strip().lower()
        if name in _NAMED:
            return _NAMED[name], []
        if is_apprise_url(entry):
            return AppriseChannel(str(entry).strip()), []
        return None, [f"{path}: {_shown(entry)} is not a channel ({_EXPECTED}); skipped"]
    if isinstance(entry, Mapping):
        kind = entry.get("type")
        if kind == "command":
            return _parse_command(path, entry)
        return None, [
            f"{path}: table with type = {_shown(kind)} is not a channel ({_EXPECTED}); skipped"
        ]
    return None, [f"{path}: {_shown(entry)} is not a channel ({_EXPECTED}); skipped"]


def parse_channels(raw: object) -> tuple[tuple[Channel, ...], tuple[str, ...]]:
    """Turn the configured channel list into channels, skipping what is not valid.

    Args:
        raw: The plain value of ``notifications.channels`` (a list of strings and tables).

    Returns:
        The channels in configured order, and one warning per skipped entry. Exact repeats
        are dropped. When nothing valid is left, the channels are ``DEFAULT_CHANNELS``
        (``terminal``, ``desktop``) and a warning says so.

    Example:
        >>> channels, warnings = parse_channels(["osc9", "bel"])
        >>> [c.label for c in channels], len(warnings)
        (['osc9'], 1)
    """
    if not isinstance(raw, (list, tuple)):
        return DEFAULT_CHANNELS, (
            f"{_KEY}: expected a list of channels, got {_shown(raw)}; using {_DEFAULT_SHOWN}",
        )
    channels: list[Channel] = []
    warnings: list[str] = []
    for index, entry in enumerate(raw):
        path = f"{_KEY}[{index}]"
        channel, found = _parse_entry(path, entry)
        warnings.extend(found)
        if channel is None:
            continue
        if channel in channels:
            warnings.append(f"{path}: repeats an earlier channel; skipped")
            continue
        channels.append(channel)
    if not channels:
        warnings.append(
            f"{_KEY}: no valid channel; using {_DEFAULT_SHOWN} "
            "(set notifications.enabled = false to send nothing)"
        )
        return DEFAULT_CHANNELS, tuple(warnings)
    return tuple(channels), tuple(warnings)
