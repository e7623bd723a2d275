"""Builders for session files used by the session tests."""

from __future__ import annotations

import json
from pathlib import Path

HEADER = {
    "type": "session",
    "version": 3,
    "id": "s-1",
    "timestamp": "2026-11-29T20:00:00.000Z",
    "cwd": "/p",
}


def question(
    qid: str, *values: str, kind: str = "single", freeform: bool = False
) -> dict[str, object]:
    options: list[dict[str, object]] = [{"value": v, "label": v.title()} for v in values]
    if freeform:
        options = [{"value": "freeform", "label": "Type answer", "freeform": True}]
    return {"id": qid, "prompt": f"{qid}?", "type": kind, "options": options}


def payload_entry(
    entry_id: str,
    parent: str | None,
    ask_id: str,
    params: object,
    *,
    source: str = "tool",
    stamp: int = 1,
    version: int = 1,
) -> dict[str, object]:
    data = {
        "version": version,
        "timestamp": stamp,
        "source": source,
        "sourceEntryId": ask_id,
        "params": params,
    }
    return custom(entry_id, parent, "ask:payload", data)


def custom(entry_id: str, parent: str | None, kind: str, data: object) -> dict[str, object]:
    return {
        "type": "custom",
        "customType": kind,
        "data": data,
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-11-29T20:00:00.000Z",
    }


def message(entry_id: str, parent: str | None, **fields: object) -> dict[str, object]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "t",
        "message": fields,
    }


def write(path: Path, *entries: dict[str, object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(e) + "\n" for e in (HEADER, *entries)))
    return path
