"""The page in a real browser (Debian's chromium, headless): phone and desktop, real askers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.inbox.conftest import pending
from tests.web.browser import DESKTOP, PHONE, screenshot

TIMEOUT_MS = 20_000


def open_paired(browser: Any, server: Any, device: dict[str, Any]) -> Any:
    """A new device's page, paired through the link (the code in its fragment)."""
    context = browser.new_context(**device)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/#pair={server.code()}")
    page.wait_for_selector("h2")
    assert "#pair" not in page.url
    return page


@pytest.mark.parametrize(("device", "name"), [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_a_waiting_asker_is_answered_from_the_page(
    browser: Any, web: Any, ask: Any, asks: Path, device: dict[str, Any], name: str
) -> None:
    server = web()
    page = open_paired(browser, server, device)
    page.get_by_text("No questions waiting").wait_for()
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    # The list is live: the ask appears without a reload.
    page.get_by_role("button", name="Pick a DB").click()
    page.get_by_role("radio", name="SQLite").click()
    page.get_by_role("radio", name="SQLAlchemy").wait_for()
    screenshot(page, f"{name}-question")
    page.get_by_role("radio", name="SQLAlchemy").click()
    page.get_by_role("button", name="Submit").wait_for()
    screenshot(page, f"{name}-review")
    page.get_by_role("button", name="Submit").click()
    page.get_by_text("The agent has your answer").wait_for()
    result, status = asker.result()
    assert status == 0
    assert result["details"]["answers"]["db"]["values"] == ["sqlite"]
    assert result["details"]["answers"]["orm"]["values"] == ["sa"]
    assert info.ask_id
