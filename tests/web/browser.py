"""Debian's chromium driven by Playwright (its own browser download cannot be fetched here)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NARROW = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
"""The narrowest phone the page is made for."""
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts" / "web"


def have_chromium() -> bool:
    return os.access(CHROMIUM, os.X_OK) or shutil.which("chromium") is not None


@pytest.fixture
def browser() -> Iterator[Any]:
    """A fresh chromium (Playwright gives each launch a new temporary profile), closed at
    the end; ``browser.new_context(**PHONE)`` is a device."""
    if not have_chromium():
        pytest.skip("chromium is not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def screenshot(page: Any, name: str) -> None:
    """Keep a picture of this screen for a person to look at (test-artefacts/web/)."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
