"""The host matrix: skip a host's tests, saying why, when its CLI is not installed.

``.ci/run`` installs the pinned CLIs (``python -m tests.hosts.install``) and names the folder
in ``$PI_ASK_HOSTS_DIR``; a local run looks in ``.hosts/``. The run's summary says which
hosts ran and which were absent (the hook is in tests/conftest.py, which every run loads).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hosts.hosts import HostHome
from tests.hosts.install import FAILED_NOTE
from tests.hosts.pins import HOSTS_ENV, PIN_BY_KEY, Pin, bin_dir, hosts_dir


def absent_reason(pin: Pin) -> str | None:
    """Why host ``pin`` cannot run here, or ``None`` when its CLI is installed."""
    if (bin_dir(pin) / pin.binary).exists():
        return None
    note = hosts_dir() / pin.key / FAILED_NOTE
    if note.exists():
        why = note.read_text(encoding="utf-8").strip()
        return f"{pin.key} could not be installed from npm: {why}"
    return (
        f"{pin.key} is not installed in {hosts_dir()} "
        f"(run `python -m tests.hosts.install`, or set ${HOSTS_ENV})"
    )


def require(key: str) -> Pin:
    """The pin of host ``key``; the test skips, naming the reason, when it is absent."""
    pin = PIN_BY_KEY[key]
    reason = absent_reason(pin)
    if reason is not None:
        pytest.skip(reason)
    return pin


@pytest.fixture
def home() -> Iterator[HostHome]:
    folder = HostHome()
    try:
        yield folder
    finally:
        folder.close()
