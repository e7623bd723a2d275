"""The apprise channel: any apprise URL (``dbus://``, ``ntfys://topic``, ``mailto://...``).

Apprise is imported only inside ``send`` and ``describe_apprise_url_problem``: importing it
costs more than drawing the first frame, and most asks never need it. When settings load,
a URL is only checked for ``scheme://`` form (``is_apprise_url``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pi_ask.notifications.channel import ChannelError, Notification, SendContext

# Apprise's own schema pattern: up to 32 letters or digits, then "://".
_URL_FORM = re.compile(r"\s*([a-z0-9]{1,32})://", re.IGNORECASE)


def is_apprise_url(text: str) -> bool:
    """True when ``text`` has the ``scheme://`` form of an apprise URL (no apprise import)."""
    return _URL_FORM.match(text) is not None


def describe_apprise_url_problem(url: str) -> str | None:
    """Ask apprise whether it can use ``url``, without sending anything.

    Used by ``pi-ask config validate`` and ``pi-ask notify --test``. Imports apprise and, for
    schemes outside its usual layout, all of its plugins.

    Args:
        url: The configured apprise URL.

    Returns:
        ``None`` when apprise knows the scheme, the plugin is usable here and the URL parses;
        else one sentence saying what is wrong (``apprise does not know the scheme foo://``).

    Example:
        >>> describe_apprise_url_problem("nosuchscheme://x")
        'apprise does not know the scheme nosuchscheme://'
    """
    from pi_ask.notifications.channels import apprise_services  # imports apprise

    try:
        apprise_services.build_service(url)
    except ChannelError as err:
        return str(err)
    return None


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
        """Deliver through apprise; apprise is imported here, on the dispatcher's thread.

        Raises:
            ChannelError: Apprise cannot use the URL or the service did not accept it.
        """
        del context  # the dispatcher enforces the timeout; apprise has its own socket timeouts
        from pi_ask.notifications.channels import apprise_services  # imports apprise

        return apprise_services.send(
            self.url, title=notification.title, message=notification.message
        )

    def to_plain(self) -> str:
        """The URL."""
        return self.url
