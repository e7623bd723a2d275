from __future__ import annotations

import subprocess
import sys

import apprise
import pytest

from pi_ask.notifications.channel import ChannelError
from pi_ask.notifications.channels.apprise_services import (
    build_service,
    find_plugin,
    plugin_schemes,
    scheme_of,
)

# Apprise's full plugin scan imports a plugin that still uses the deprecated imghdr module.
pytestmark = pytest.mark.filterwarnings("ignore:'imghdr' is deprecated:DeprecationWarning")


def test_only_the_needed_plugin_is_imported() -> None:
    script = (
        "import sys\n"
        "from pi_ask.notifications.channels.apprise_services import build_service\n"
        "build_service('json://127.0.0.1:8080/')\n"
        "print(sorted(m for m in sys.modules if m.startswith('apprise.plugins.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "['apprise.plugins.base', 'apprise.plugins.custom_json']"


def test_every_apprise_scheme_is_found_in_its_own_module() -> None:
    # Apprise's full table is the truth; the fast lookup must agree with it everywhere.
    manager = apprise.NotificationManager()  # type: ignore[no-untyped-call]
    wrong = {
        scheme: (find_plugin(scheme), manager[scheme])
        for scheme in manager.schemas()  # type: ignore[no-untyped-call]
        if find_plugin(scheme) is not manager[scheme]
    }
    assert wrong == {}


def test_plugin_schemes_reads_both_protocols() -> None:
    plugin = find_plugin("ntfys")
    assert plugin is not None
    assert {"ntfy", "ntfys"} <= plugin_schemes(plugin)


@pytest.mark.parametrize(
    ("url", "scheme"), [("NTFYS://topic", "ntfys"), (" json://h/", "json"), ("bell", "")]
)
def test_scheme_of(url: str, scheme: str) -> None:
    assert scheme_of(url) == scheme


def test_a_disabled_plugin_says_it_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = find_plugin("json")
    assert plugin is not None
    monkeypatch.setattr(plugin, "enabled", False)
    with pytest.raises(ChannelError, match=r"^json:// \(JSON\) is not available on this system"):
        build_service("json://127.0.0.1:8080/")


def test_text_without_a_scheme_is_refused() -> None:
    with pytest.raises(ChannelError, match="not an apprise URL"):
        build_service("bell")
