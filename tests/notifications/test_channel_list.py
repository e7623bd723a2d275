from __future__ import annotations

import pytest

from pi_ask.config.catalogue import CHANNEL_NAMES
from pi_ask.notifications.channel_list import DEFAULT_CHANNELS, parse_channels
from pi_ask.notifications.channels.apprise_channels import AppriseChannel, AppriseConfigChannel
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.command import CommandChannel
from pi_ask.notifications.channels.desktop import DesktopChannel
from pi_ask.notifications.channels.osc9 import Osc9Channel
from pi_ask.notifications.channels.osc777 import Osc777Channel
from pi_ask.notifications.channels.terminal import TerminalChannel
from pi_ask.notifications.channels.unfocused import WhenUnfocused


def test_every_kind_of_entry_parses_in_order() -> None:
    raw = [
        "osc777",
        "ntfys://my-topic",
        {"type": "command", "command": "notify-send hi"},
        "bell",
        "osc9",
    ]
    assert parse_channels(raw) == (
        (
            Osc777Channel(),
            AppriseChannel("ntfys://my-topic"),
            CommandChannel("notify-send hi"),
            BellChannel(),
            Osc9Channel(),
        ),
        (),
    )


def test_default_is_the_terminal_alert_then_the_desktop() -> None:
    assert (TerminalChannel(), DesktopChannel()) == DEFAULT_CHANNELS


def test_every_registered_name_parses_to_the_channel_of_that_name() -> None:
    channels, warnings = parse_channels(list(CHANNEL_NAMES))
    assert warnings == ()
    assert [channel.label for channel in channels] == list(CHANNEL_NAMES)
    assert [channel.to_plain() for channel in channels] == list(CHANNEL_NAMES)


def test_named_channels_ignore_case_and_surrounding_space() -> None:
    assert parse_channels([" Bell ", "OSC9"])[0] == (BellChannel(), Osc9Channel())


def test_unknown_name_is_skipped_with_a_warning_naming_it() -> None:
    channels, warnings = parse_channels(["bel", "osc9"])
    assert channels == (Osc9Channel(),)
    assert warnings == (
        'notifications.channels[0]: "bel" is not a channel (expected "terminal", "desktop", '
        '"bell", "osc9", "osc777", "osc99", an apprise URL ("scheme://...") '
        'or a table with type = "command", "apprise" or a channel name); skipped',
    )


def test_text_without_scheme_form_is_not_an_apprise_url() -> None:
    channels, warnings = parse_channels(["ntfy:/topic", "bell"])
    assert channels == (BellChannel(),)
    assert warnings[0].startswith('notifications.channels[0]: "ntfy:/topic" is not a channel')


def test_blank_command_is_dropped_with_a_warning() -> None:
    channels, warnings = parse_channels([{"type": "command", "command": "  "}, "osc9"])
    assert channels == (Osc9Channel(),)
    assert warnings == (
        "notifications.channels[0]: the command channel's command is blank; skipped",
    )


def test_command_table_without_a_command_is_skipped() -> None:
    channels, warnings = parse_channels([{"type": "command"}, "bell"])
    assert channels == (BellChannel(),)
    assert warnings == (
        'notifications.channels[0]: a command channel needs command = "..."; skipped',
    )


def test_unknown_keys_in_a_command_table_are_reported_and_ignored() -> None:
    channels, warnings = parse_channels([{"type": "command", "command": "true", "timeout": 3}])
    assert channels == (CommandChannel("true"),)
    assert warnings == (
        "notifications.channels[0]: unknown key timeout in a command channel; ignored",
    )


def test_table_of_another_type_is_skipped() -> None:
    channels, warnings = parse_channels([{"type": "webhook"}, "bell"])
    assert channels == (BellChannel(),)
    assert warnings[0].startswith('notifications.channels[0]: table with type = "webhook"')


def test_repeated_channel_is_dropped() -> None:
    channels, warnings = parse_channels(["bell", "osc9", "bell"])
    assert channels == (BellChannel(), Osc9Channel())
    assert warnings == ("notifications.channels[2]: repeats an earlier channel; skipped",)


@pytest.mark.parametrize("raw", [[], ["nope"], [42, None]])
def test_nothing_valid_falls_back_to_the_default(raw: list[object]) -> None:
    channels, warnings = parse_channels(raw)
    assert channels == (TerminalChannel(), DesktopChannel())
    assert warnings[-1] == (
        'notifications.channels: no valid channel; using ["terminal", "desktop"] '
        "(set notifications.enabled = false to send nothing)"
    )


@pytest.mark.parametrize("raw", ["bell", None, {"type": "command"}, 3])
def test_a_value_that_is_not_a_list_falls_back_to_the_default(raw: object) -> None:
    channels, warnings = parse_channels(raw)
    assert channels == DEFAULT_CHANNELS
    assert len(warnings) == 1
    assert warnings[0].startswith("notifications.channels: expected a list of channels, got ")


def test_hostile_entry_is_shown_short_and_inert() -> None:
    _, warnings = parse_channels(["\x1b]0;x\x07" + "z" * 500])
    assert "\x1b" not in warnings[0]
    assert "\x07" not in warnings[0]
    assert len(warnings[0]) < 300


def test_channels_round_trip_to_plain_config_values() -> None:
    raw: list[object] = [
        "bell",
        "osc9",
        "osc777",
        "osc99",
        "terminal",
        "desktop",
        "json://h/",
        {"type": "command", "command": "x"},
    ]
    channels, _ = parse_channels(raw)
    assert [channel.to_plain() for channel in channels] == raw


def test_tables_name_apprise_config_files_with_tags_and_urls() -> None:
    channels, warnings = parse_channels(
        [
            {"type": "apprise", "config": "~/apprise.yml", "tags": ["phone", "desk"]},
            {"type": "apprise", "url": "ntfys://topic"},
            {"type": "apprise", "config": "other.txt"},
        ]
    )
    assert warnings == ()
    assert channels == (
        AppriseConfigChannel("~/apprise.yml", ("phone", "desk")),
        AppriseChannel("ntfys://topic"),
        AppriseConfigChannel("other.txt"),
    )
    assert channels[0].to_plain() == {
        "type": "apprise",
        "config": "~/apprise.yml",
        "tags": ["phone", "desk"],
    }


@pytest.mark.parametrize(
    ("entry", "warning"),
    [
        ({"type": "apprise"}, 'needs url = "..." or config = "..."'),
        ({"type": "apprise", "url": "x", "config": "y"}, 'needs url = "..." or config = "..."'),
        ({"type": "apprise", "config": "a.yml", "tags": "phone"}, "tags are a list of names"),
        ({"type": "apprise", "url": "not a url"}, "is not an apprise URL"),
        ({"type": "desktop", "when": "later"}, 'is not "always" or "unfocused"'),
    ],
)
def test_a_bad_table_is_skipped_with_a_warning(entry: dict[str, object], warning: str) -> None:
    channels, warnings = parse_channels([entry, "bell"])
    assert channels == (BellChannel(),)
    assert warning in warnings[0]


def test_when_unfocused_wraps_any_channel_and_round_trips() -> None:
    raw: list[object] = [
        {"type": "desktop", "when": "unfocused"},
        {"type": "command", "command": "x", "when": "unfocused"},
        {"type": "apprise", "url": "json://h/", "when": "unfocused"},
        {"type": "terminal", "when": "always"},
    ]
    channels, warnings = parse_channels(raw)
    assert warnings == ()
    assert channels == (
        WhenUnfocused(DesktopChannel()),
        WhenUnfocused(CommandChannel("x")),
        WhenUnfocused(AppriseChannel("json://h/")),
        TerminalChannel(),
    )
    assert [channel.to_plain() for channel in channels[:3]] == raw[:3]
