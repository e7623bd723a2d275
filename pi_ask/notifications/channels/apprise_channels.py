"""The apprise channels: an apprise URL, or an apprise config file with tags.

Sending runs apprise's own command-line tool (the ``apprise`` script installed beside this
Python), never apprise's internals: importing apprise and its ~200 plugins in the ask's
process would hold the interpreter lock while keys are typed, and a supported interface
does not break when apprise changes inside. The URL goes to the tool in ``APPRISE_URLS``
(its environment, which other users cannot read, unlike its command line) and the message
on its standard input.

Checking a URL without sending (``config validate``, ``notify --test``) uses apprise's
public Python API (``Apprise.add``, ``Apprise.details``, ``Apprise.urls(privacy=True)``);
those run only in those commands, never in an ask.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_ask.notifications.channel import (
    ChannelError,
    ChannelUnavailable,
    Notification,
    SendContext,
)
from pi_ask.notifications.channels.process import describe_exit, run_process

# Apprise's own schema pattern: up to 32 letters or digits, then "://".
_URL_FORM = re.compile(r"\s*([a-z0-9]{1,32})://", re.IGNORECASE)
# apprise's log lines: "2026-01-01 10:00:00,000 - WARNING - <what happened>".
_LOG_LINE = re.compile(r"^\S+ \S+ - (?:ERROR|WARNING|CRITICAL) - (.*)$")
# The tool's exit statuses (apprise's AppriseResultStatus; the CLI exits with them).
_NO_MATCH, _PARTIAL, _TIMED_OUT = 3, 4, 5
LINK_PARAMETERS = {"ntfy": "click", "ntfys": "click", "bark": "click", "barks": "click",
                   "pover": "url"}  # fmt: skip
"""The services whose notification opens a link when tapped, and apprise's URL parameter
for it (ntfy's click, Bark's click, Pushover's supplementary URL)."""


def with_link(url: str, link: str) -> str:
    """``url`` with ``link`` as its service's open-on-tap parameter (``LINK_PARAMETERS``);
    unchanged when the service has none, there is no link, or the URL sets one itself.

    Example:
        >>> with_link("ntfy://host/topic", "http://127.0.0.1:8787/#ask=1")
        'ntfy://host/topic?click=http%3A%2F%2F127.0.0.1%3A8787%2F%23ask%3D1'
    """
    from urllib.parse import parse_qs, quote

    match = _URL_FORM.match(url)
    parameter = LINK_PARAMETERS.get(match.group(1).lower()) if match else None
    if not link or parameter is None:
        return url
    base, hash_mark, fragment = url.partition("#")
    _, question, query = base.partition("?")
    if parameter in parse_qs(query):
        return url
    joiner = "&" if question and query else ("" if question else "?")
    return f"{base}{joiner}{parameter}={quote(link, safe='')}{hash_mark}{fragment}"


def apprise_command() -> str | None:
    """The ``apprise`` tool of this environment (beside our Python), else one on PATH."""
    folder = Path(sys.executable).parent
    for name in ("apprise", "apprise.exe"):
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("apprise")


def _reason(lines: list[str]) -> str:
    """apprise's own words for what went wrong: its last error or warning line."""
    logged = [match.group(1) for line in lines if (match := _LOG_LINE.match(line))]
    return logged[-1] if logged else ""


def _run_apprise(
    options: list[str], notification: Notification, context: SendContext, env: dict[str, str]
) -> tuple[int, str]:
    command = apprise_command()
    if command is None:
        raise ChannelUnavailable("the apprise command is not installed")
    argv = [command, "-v", "-t", notification.title, "-i", "text", *options]
    returncode, stderr = run_process(
        argv,
        env={**os.environ, **env},
        context=context,
        what="apprise",
        stdin=notification.message.encode("utf-8"),
        keep_stdout=True,  # apprise logs to stdout
    )
    return returncode, _reason(stderr)


@dataclass(frozen=True, slots=True)
class AppriseChannel:
    """Sends through apprise to the service the URL names.

    Attributes:
        url: The apprise URL, exactly as configured. It may hold tokens or passwords, so it
            is left out of ``repr`` and ``label``.
    """

    url: str = field(repr=False)

    @property
    def label(self) -> str:
        """The URL's scheme only (``ntfys://…``): the rest may hold secrets."""
        url = self.url.strip()
        match = _URL_FORM.match(url)
        if match is None:
            return "apprise"
        return f"{match.group(1).lower()}://" + ("…" if url[match.end() :] else "")

    def send(self, notification: Notification, context: SendContext) -> str:
        """Deliver through the apprise tool.

        Raises:
            ChannelUnavailable: The apprise tool is not installed.
            ChannelError: Apprise cannot use the URL or the service did not accept it.
        """
        url = self.url.strip()
        target = with_link(url, notification.link)
        returncode, reason = _run_apprise([], notification, context, {"APPRISE_URLS": target})
        if returncode != 0:
            # apprise may quote the URL it could not parse: never show its secrets.
            shown = reason.replace(target, self.label).replace(url, self.label)
            raise ChannelError(_failure(returncode, shown))
        return ""

    def to_plain(self) -> str:
        """The URL."""
        return self.url


@dataclass(frozen=True, slots=True)
class AppriseConfigChannel:
    """Sends through apprise to the services of an apprise config file (YAML or text).

    Attributes:
        config: The config file (``~`` is expanded) or any config URL apprise reads.
        tags: Send to the services with any of these tags; none: the untagged services.
    """

    config: str
    tags: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``apprise config <file>``, and the tags (neither is a secret)."""
        tags = f" tags {', '.join(self.tags)}" if self.tags else ""
        return f"apprise config {self.config}{tags}"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Deliver through the apprise tool to the config's matching services.

        Raises:
            ChannelUnavailable: The apprise tool is not installed.
            ChannelError: The file cannot be read, no service matches, or one failed.
        """
        options = ["--config", os.path.expanduser(self.config)]
        for tag in self.tags:
            options += ["--tag", tag]
        returncode, reason = _run_apprise(options, notification, context, {})
        if returncode == _NO_MATCH:
            wanted = f"the tags {', '.join(self.tags)}" if self.tags else "no tag"
            raise ChannelError(f"no service in {self.config} has {wanted}")
        if returncode != 0:
            raise ChannelError(_failure(returncode, reason))
        return ""

    def to_plain(self) -> dict[str, object]:
        """``{"type": "apprise", "config": ..., "tags": [...]}``."""
        plain: dict[str, object] = {"type": "apprise", "config": self.config}
        if self.tags:
            plain["tags"] = list(self.tags)
        return plain


def _failure(returncode: int, reason: str) -> str:
    if returncode == _PARTIAL:
        return f"some services failed: {reason}" if reason else "some services failed"
    if returncode == _TIMED_OUT:
        return f"a service timed out: {reason}" if reason else "a service timed out"
    return reason or describe_exit(returncode, "")


# -- checking without sending (apprise's public Python API; commands only) ------------------


def _apprise() -> Any:
    import apprise

    return apprise


def describe_apprise_url_problem(url: str) -> str | None:
    """Ask apprise whether it can use ``url``, without sending anything.

    Used by ``pi-ask config validate`` and ``pi-ask notify --test``: it imports apprise and
    all of its plugins.

    Returns:
        ``None`` when apprise can use the URL here; else one sentence saying what is wrong
        (``apprise does not know the scheme foo://``).

    Example:
        >>> describe_apprise_url_problem("nosuchscheme://x")
        'apprise does not know the scheme nosuchscheme://'
    """
    apprise = _apprise()
    service = apprise.Apprise()
    if service.add(url.strip()):
        return None
    match = _URL_FORM.match(url)
    scheme = match.group(1).lower() if match else ""
    details = service.details(show_requirements=True, show_disabled=True)
    for schema in details.get("schemas", ()):
        protocols = {*(schema.get("protocols") or ()), *(schema.get("secure_protocols") or ())}
        if scheme not in {str(protocol).lower() for protocol in protocols}:
            continue
        name = schema.get("service_name", scheme)
        if not schema.get("enabled", True):
            needs = (schema.get("requirements") or {}).get("details") or "it needs a package"
            return f"apprise's {name} plugin is not available here: {needs}"
        return f"apprise rejected this {name} URL (a required part is missing or malformed)"
    if scheme in ("http", "https"):
        return "apprise knows no service at this address"
    return f"apprise does not know the scheme {scheme}://"


def private_label(url: str) -> str:
    """The URL as apprise shows it with its secrets hidden (``pover://u...r@s...n/``).

    The query (apprise's own defaults, mostly) is left out; apprise decides what is secret.
    Falls back to the scheme-only label when apprise cannot use the URL.
    """
    apprise = _apprise()
    service = apprise.Apprise()
    if service.add(url.strip()):
        shown = service.urls(privacy=True)
        if shown:
            return str(shown[0]).partition("?")[0]
    return AppriseChannel(url).label
