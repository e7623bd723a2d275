"""Turn an apprise URL into a ready apprise service, importing only the plugin it needs.

This module imports apprise, so it is itself imported only inside the functions that send
or check an apprise URL, never on the first-frame path.

Apprise's own ``Apprise.add(url)`` imports every plugin (~190 modules, ~250 ms) to find
the one that owns the URL's scheme. Most schemes live in a module named after them
(``ntfys`` in ``ntfy``, ``json`` in ``custom_json``), and ``_MODULE_OF_SCHEME`` lists the
others, so we import that one module, check that its plugin really claims the scheme, and
build the service from it. Anything we cannot place (a scheme added by a newer apprise, a
native ``https://`` service URL) goes through apprise's full lookup, so a stale table costs
time, never correctness.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import apprise
from apprise.plugins.base import NotifyBase

from pi_ask.notifications.channel import ChannelError
from pi_ask.terminal_text import clean_line, truncate

# Schemes whose plugin module is not named after the scheme (apprise 2.3); a test checks
# every entry against apprise's full plugin table.
_MODULE_OF_SCHEME: dict[str, str] = {
    "46elks": "fortysixelks",
    "apprise": "apprise_api",
    "apprises": "apprise_api",
    "atalk": "africas_talking",
    "azure": "office365",
    "bsky": "bluesky",
    "d7sms": "d7networks",
    "elks": "fortysixelks",
    "gchat": "google_chat",
    "gio": "glib",
    "hassio": "home_assistant",
    "hassios": "home_assistant",
    "kakao": "kakaotalk",
    "kde": "dbus",
    "klr": "kaleyra",
    "kudosity": "burstsms",
    "lfg": "lfgalarm",
    "mailto": "email",
    "mailtos": "email",
    "mmost": "mattermost",
    "mmosts": "mattermost",
    "mobilemsg": "mobilemessage",
    "msgbird": "messagebird",
    "ncloud": "nextcloud",
    "nclouds": "nextcloud",
    "nctalk": "nextcloudtalk",
    "nctalks": "nextcloudtalk",
    "nexmo": "vonage",
    "o365": "office365",
    "onesignal": "one_signal",
    "parsep": "parseplatform",
    "parseps": "parseplatform",
    "pbul": "pushbullet",
    "pjet": "pushjet",
    "pjets": "pushjet",
    "pover": "pushover",
    "psafer": "pushsafer",
    "psafers": "pushsafer",
    "push": "techuluspush",
    "qt": "dbus",
    "ringc": "ringcentral",
    "rocket": "rocketchat",
    "rockets": "rocketchat",
    "schan": "serverchan",
    "session": "sogs",
    "sessions": "sogs",
    "signal": "signal_api",
    "signals": "signal_api",
    "smsmgr": "smsmanager",
    "spush": "simplepush",
    "strmlabs": "streamlabs",
    "tgram": "telegram",
    "toot": "mastodon",
    "toots": "mastodon",
    "tweet": "twitter",
    "victorops": "splunk",
    "webex": "webexteams",
    "wecom": "pushplus",
    "workflow": "workflows",
    "wxteams": "webexteams",
    "x": "twitter",
    "xbmc": "kodi",
    "xbmcs": "kodi",
    "zcliq": "cliq",
    "zohocliq": "cliq",
}

_DETAIL_LIMIT = 200

PluginClass = type[NotifyBase]


def scheme_of(url: str) -> str:
    """The URL's scheme in lower case (``""`` when the URL has no ``scheme://``)."""
    head, separator, _ = url.strip().partition("://")
    return head.lower() if separator else ""


def _candidate_modules(scheme: str) -> Iterator[str]:
    bases = [scheme]
    if scheme.endswith("s"):  # the secure variant: jsons, ntfys, gotifys...
        bases.append(scheme[:-1])
    yield from bases
    yield from (f"custom_{base}" for base in bases)
    if scheme in _MODULE_OF_SCHEME:
        yield _MODULE_OF_SCHEME[scheme]


def plugin_schemes(plugin: type) -> set[str]:
    """The schemes an apprise plugin class claims (its ``protocol`` and ``secure_protocol``)."""
    schemes: set[str] = set()
    for attribute in ("protocol", "secure_protocol"):
        value = getattr(plugin, attribute, None)
        if isinstance(value, str):
            schemes.add(value.lower())
        elif isinstance(value, (set, list, tuple)):
            schemes.update(item.lower() for item in value if isinstance(item, str))
    return schemes


def find_plugin(scheme: str) -> PluginClass | None:
    """Import the one apprise plugin module that owns ``scheme``; ``None`` if we cannot tell."""
    for module_name in dict.fromkeys(_candidate_modules(scheme)):
        try:
            module = importlib.import_module(f"apprise.plugins.{module_name}")
        except Exception:  # a missing or broken candidate just is not the one
            continue
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, NotifyBase)
                and scheme in plugin_schemes(value)
            ):
                return value
    return None


def _registered_plugin(scheme: str) -> PluginClass | None:
    # Apprise's full table: imports every plugin, so only after the fast path missed.
    manager = apprise.NotificationManager()  # type: ignore[no-untyped-call]
    if scheme not in manager:
        return None
    plugin: PluginClass = manager[scheme]
    return plugin


def _detail(text: object) -> str:
    return truncate(clean_line(str(text)), _DETAIL_LIMIT)


def _build(plugin: PluginClass, scheme: str, url: str, asset: apprise.AppriseAsset) -> NotifyBase:
    name = _detail(plugin.service_name or f"{scheme}://")
    if not plugin.enabled:
        details = plugin.requirements.get("details") if plugin.requirements else None
        reason = f": {_detail(details)}" if details else ""
        raise ChannelError(f"{scheme}:// ({name}) is not available on this system{reason}")
    # Apprise reads "/#" as the start of a fragment; its own parser escapes it first.
    tokens: dict[str, Any] | None = plugin.parse_url(url.strip().replace("/#", "/%23"))
    if not tokens:
        raise ChannelError(f"apprise could not parse this {name} URL")
    tokens["asset"] = asset
    try:
        return plugin(**tokens)
    except Exception as err:
        raise ChannelError(f"apprise rejected this {name} URL: {_detail(err)}") from err


def build_service(url: str, asset: apprise.AppriseAsset | None = None) -> NotifyBase:
    """Build the apprise service for ``url``, importing as few plugins as possible.

    Args:
        url: An apprise URL (``ntfys://topic``, ``json://host:port/``, ``dbus://``...).
        asset: Apprise's branding/asset object; a default one when ``None``.

    Returns:
        The apprise service object, ready to ``notify``.

    Raises:
        ChannelError: Apprise does not know the scheme, cannot use it on this system, or
            rejects the URL; the message says which.
    """
    asset = asset if asset is not None else apprise.AppriseAsset()
    scheme = scheme_of(url)
    if not scheme:
        raise ChannelError("not an apprise URL (expected scheme://...)")
    plugin = find_plugin(scheme) or _registered_plugin(scheme)
    if plugin is not None:
        return _build(plugin, scheme, url, asset)
    # Native service URLs (https://discord.com/api/webhooks/...) belong to no scheme.
    service: NotifyBase | None = apprise.Apprise.instantiate(url.strip(), asset=asset)
    if service is None:
        raise ChannelError(f"apprise does not know the scheme {scheme}://")
    return service


class _ThreadLog(logging.Handler):
    """Keeps the warnings apprise logs from one thread, to explain a failed send."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._thread = threading.get_ident()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self._thread:
            self.messages.append(record.getMessage())


@contextmanager
def apprise_warnings() -> Iterator[list[str]]:
    """Collect what apprise logs at WARNING and above from this thread, while in the block."""
    handler = _ThreadLog()
    apprise_logger = logging.getLogger("apprise")
    apprise_logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        apprise_logger.removeHandler(handler)


def send(url: str, *, title: str, message: str) -> str:
    """Send one notification to an apprise URL.

    Returns:
        A short detail for the report (empty on a plain success).

    Raises:
        ChannelError: The URL is unusable or the service refused or failed the delivery.
    """
    service = build_service(url, apprise.AppriseAsset(app_id="pi ask", app_desc="pi ask"))
    # The service's own notify() runs on this thread (Apprise.notify would hand it to a
    # thread pool), so the dispatcher's timeout and the warning capture both apply to it.
    with apprise_warnings() as warnings:
        delivered = service.notify(body=message, title=title, body_format=apprise.NotifyFormat.TEXT)
    if not delivered:
        raise ChannelError(_detail(warnings[-1]) if warnings else "apprise reported a failure")
    return ""
