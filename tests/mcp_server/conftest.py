"""The MCP face tests run on anyio's asyncio backend."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _declines_are_the_users(monkeypatch: pytest.MonkeyPatch) -> None:
    # A test host answers a form at once; [mcp] min_human_ms would take that for the host
    # answering by itself. Tests of that rule set it back (600000).
    monkeypatch.setenv("PI_ASK_MCP__MIN_HUMAN_MS", "0")
