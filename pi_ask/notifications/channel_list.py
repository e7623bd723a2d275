"""Parse the ``notifications.channels`` config value into channels (python-port.md §4).

The settings store calls this while loading, on the first-frame path, so it is cheap and
imports nothing heavy: apprise URLs are only checked for ``scheme://`` form here.
"""

from __future__ import annotations

from collections.abc import Mapping

from pi_ask.config.catalogue import (
    CHANNEL_NAMES,
    CHANNEL_TABLE_KEYS,
    CHANNEL_WHEN,
    is_channel_url,
)
from pi_ask.config.catalogue import DEFAULT_CHANNELS as DEFAULT_NAMES
from pi_ask.notifications.channel import Channel
from pi_ask.notifications.channels.apprise_channels import AppriseChannel, AppriseConfigChannel
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.command import CommandChannel
from pi_ask.notifications.channels.desktop import DesktopChannel
from pi_ask.notifications.channels.osc9 import Osc9Channel
from pi_ask.notifications.channels.osc99 import Osc99Channel
from pi_ask.notifications.channels.osc777 import Osc777Channel
from pi_ask.notifications.channels.terminal import TerminalChannel
from pi_ask.notifications.channels.unfocused import WhenUnfocused
from pi_ask.terminal_text import clean_line, truncate
from pi_ask.words import english_plural

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
    + ', an apprise URL ("scheme://...") or a table with type = "command", "apprise" '
    "or a channel name"
)
_DEFAULT_SHOWN = "[" + ", ".join(f'"{name}"' for name in DEFAULT_NAMES) + "]"
DEFAULT_CHANNELS: tuple[Channel, ...] = tuple(_NAMED[name] for name in DEFAULT_NAMES)


def _shown(value: object) -> str:
    # Config values can be long or hold control characters; show them short and inert.
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return truncate(clean_line(text), 60)


def _unknown_keys(path: str, entry: Mapping[object, object], kind: str) -> list[str]:
    keys = {"type", "when", *CHANNEL_TABLE_KEYS.get(kind, ())}
    unknown = sorted(str(key) for key in entry if key not in keys)
    if not unknown:
        return []
    word = english_plural(len(unknown), "key", "keys")
    return [f"{path}: unknown {word} {', '.join(unknown)} in a {kind} channel; ignored"]


def _parse_command(path: str, entry: Mapping[object, object]) -> tuple[Channel | None, list[str]]:
    warnings = _unknown_keys(path, entry, "command")
    command = entry.get("command")
    if not isinstance(command, str):
        warnings.append(f'{path}: a command channel needs command = "..."; skipped')
        return None, warnings
    if not command.strip():
        warnings.append(f"{path}: the command channel's command is blank; skipped")
        return None, warnings
    return CommandChannel(str(command)), warnings


def _parse_apprise(path: str, entry: Mapping[object, object]) -> tuple[Channel | None, list[str]]:
    warnings = _unknown_keys(path, entry, "apprise")
    url, config, tags = entry.get("url"), entry.get("config"), entry.get("tags", [])
    if (url is None) == (config is None):
        warnings.append(f'{path}: an apprise channel needs url = "..." or config = "..."; skipped')
        return None, warnings
    if not isinstance(tags, (list, tuple)) or not all(
        isinstance(tag, str) and tag.strip() for tag in tags
    ):
        warnings.append(f"{path}: an apprise channel's tags are a list of names; skipped")
        return None, warnings
    if url is not None:
        if not isinstance(url, str) or not is_channel_url(url):
            warnings.append(
                f'{path}: {_shown(url)} is not an apprise URL ("scheme://..."); skipped'
            )
            return None, warnings
        if tags:
            warnings.append(f"{path}: tags apply to an apprise config file only; ignored")
        return AppriseChannel(url.strip()), warnings
    if not isinstance(config, str) or not config.strip():
        warnings.append(f"{path}: the apprise channel's config is blank; skipped")
        return None, warnings
    return AppriseConfigChannel(config.strip(), tuple(str(tag).strip() for tag in tags)), warnings


def _parse_table(path: str, entry: Mapping[object, object]) -> tuple[Channel | None, list[str]]:
    kind = entry.get("type")
    if kind == "command":
        channel, warnings = _parse_command(path, entry)
    elif kind == "apprise":
        channel, warnings = _parse_apprise(path, entry)
    elif isinstance(kind, str) and kind.strip().lower() in _NAMED:
        warnings = _unknown_keys(path, entry, kind)
        channel = _NAMED[kind.strip().lower()]
    else:
        return None, [
            f"{path}: table with type = {_shown(kind)} is not a channel ({_EXPECTED}); skipped"
        ]
    when = entry.get("when", "always")
    if when not in CHANNEL_WHEN:
        warnings.append(f'{path}: when = {_shown(when)} is not "always" or "unfocused"; skipped')
        return None, warnings
    if channel is not None and when == "unfocused":
        channel = WhenUnfocused(channel)
    return channel, warnings


def _parse_entry(path: str, entry: object) -> tuple[Channel | None, list[str]]:
    if isinstance(entry, str):
        name = entry.strip().lower()
        if name in _NAMED:
            return _NAMED[name], []
        if is_channel_url(entry):
            return AppriseChannel(str(entry).strip()), []
        return None, [f"{path}: {_shown(entry)} is not a channel ({_EXPECTED}); skipped"]
    if isinstance(entry, Mapping):
        return _parse_table(path, entry)
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
