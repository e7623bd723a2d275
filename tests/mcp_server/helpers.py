"""Shared pieces of the MCP face tests: a payload, a form host, the session log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp import types

from pi_ask.session.locations import default_log_path
from pi_ask.session.log import read_session

PAYLOAD: dict[str, Any] = {
    "title": "Service setup",
    "questions": [
        {
            "id": "db",
            "prompt": "Which database?",
            "options": [
                {"value": "postgres", "label": "PostgreSQL", "recommended": True},
                {"value": "sqlite", "description": "One file, no server"},
            ],
        },
        {
            "id": "extras",
            "label": "Extras",
            "prompt": "What else should it have?",
            "type": "multi",
            "options": [{"value": "metrics"}, {"value": "tracing"}, {"value": "auth"}],
        },
        {
            "id": "layout",
            "prompt": "Which layout?",
            "type": "preview",
            "options": [
                {"value": "flat", "preview": "src/\n  app.py"},
                {"value": "nested", "preview": "src/app/\n  __init__.py"},
            ],
        },
    ],
}

# Both eras: the in-process client negotiates 2026-07-28 in "auto" mode.
ERAS = ("auto", "legacy")


class FormHost:
    """An elicitation callback answering every form with one reply, remembering the forms."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action = action
        self.content = content
        self.forms: list[types.ElicitRequestFormParams] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.forms.append(params)
        return types.ElicitResult(action=self.action, content=self.content)  # type: ignore[arg-type]


class OpenForm:
    """An elicitation callback whose form stays open until the server withdraws it."""

    def __init__(self) -> None:
        self.opened = anyio.Event()
        self.closed = anyio.Event()

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.opened.set()
        try:
            await anyio.sleep_forever()
        finally:
            self.closed.set()
        raise AssertionError("unreachable")


def log_types(cwd: Path | None = None) -> list[str | None]:
    """The custom entry types of the session log, in file order."""
    return [e.custom_type for e in read_session(default_log_path(cwd)).entries]
