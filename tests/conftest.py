"""Every test runs with its own settings file and state folder, never the user's."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_ask.i18n import use_language


@pytest.fixture(autouse=True)
def _own_user_folders(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("PI_ASK_CONFIG", str(home / "config" / "pi-ask" / "config.toml"))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(home / "state" / "pi-ask"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    # Pending asks and inboxes of this test only; no tmux popup on the tester's own tmux.
    monkeypatch.setenv("PI_ASK_RUNTIME_DIR", str(home / "run"))
    monkeypatch.delenv("TMUX", raising=False)
    # English whatever the tester's locale (a test wanting another language sets it), here
    # and in every child process; the in-process language starts over for each test.
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    use_language("auto")


@pytest.fixture(autouse=True)
def _markdown_switch_back_on() -> Iterator[None]:
    # ``[ui] markdown`` is one switch for the process; a flow a test opened on a file saying
    # false must not leave it off for the next test.
    from pi_ask.faces.tui import markdown_lines
    from pi_ask.markdown.switch import set_markdown_enabled

    yield
    set_markdown_enabled(True)
    # A flow that ended before its worker loaded the parser or the lexers.
    markdown_lines.wait_for_markdown(parser=False, lexers=False)


@pytest.fixture
def runtime() -> Path:
    """This test's runtime folder for pending asks (the fixture above gives each test its own)."""
    return Path(os.environ["PI_ASK_RUNTIME_DIR"])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line naming the host CLIs the host matrix (tests/hosts) found, one per absent."""
    from tests.hosts.conftest import absent_reason
    from tests.hosts.pins import PINS, hosts_dir

    ran = [pin.key for pin in PINS if absent_reason(pin) is None]
    missing = [reason for pin in PINS if (reason := absent_reason(pin)) is not None]
    line = f"host matrix: {', '.join(ran) or 'no host'} installed in {hosts_dir()}"
    terminalreporter.write_line(line)
    for reason in missing:
        terminalreporter.write_line(f"host matrix: skipped: {reason}")
