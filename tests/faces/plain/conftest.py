from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import pytest

from pi_ask.ask.face import FaceRequest
from pi_ask.config.store import SettingsStore
from pi_ask.contract.loading import load_payload
from pi_ask.contract.result_schema import result_schema
from pi_ask.contract.results import ToolResult
from pi_ask.faces.plain.flow import PlainFlow
from pi_ask.faces.plain.terminal import LineTerminal
from pi_ask.state.model import AskState
from pi_ask.state.opening import new_state

RESULT_VALIDATOR = jsonschema.Draft202012Validator(result_schema())
PAYLOAD_A = Path(__file__).resolve().parents[1] / "tui" / "fixtures" / "payload_a.json"


def state_of(payload: object, *, freeform: bool = False) -> AskState:
    text = json.dumps(payload) if not isinstance(payload, str) else payload
    loaded = load_payload(text, allow_freeform=freeform)
    assert not hasattr(loaded, "issues"), loaded
    return new_state(loaded.payload)  # type: ignore[union-attr]


@dataclass
class Run:
    """What a plain flow fed with lines did: its result, everything it wrote, its drafts."""

    result: ToolResult
    output: str
    drafts: list[AskState] = field(default_factory=list)
    flow: PlainFlow | None = None

    @property
    def details(self) -> dict[str, object]:
        document: dict[str, object] = self.result.to_json()["details"]  # type: ignore[assignment]
        return document


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SettingsStore:
    for name in list(os.environ):
        if name.startswith("PI_ASK_"):
            monkeypatch.delenv(name)
    path = tmp_path / "config.toml"
    # No desktop notification for every test; the one test about them turns them on.
    path.write_text("[notifications]\nenabled = false\n", encoding="utf-8")
    return SettingsStore(path)


@pytest.fixture
def answer(store: SettingsStore) -> Iterator[Callable[..., Run]]:
    """Run a plain flow over ``state`` with ``lines`` typed, then the end of input."""
    opened: list[LineTerminal] = []

    def run(state: AskState | None, *lines: str, **kwargs: object) -> Run:
        read_fd, write_fd = os.pipe()
        data = "".join(line + "\n" for line in lines).encode()
        # A pipe holds 64 KiB; the tests type far less, so all of it fits before the flow runs.
        os.write(write_fd, data)
        os.close(write_fd)
        output = io.StringIO()
        terminal = LineTerminal(read_fd, output, on_close=lambda: os.close(read_fd))
        opened.append(terminal)
        drafts: list[AskState] = []
        request = FaceRequest(store, on_commit=drafts.append, **kwargs)  # type: ignore[arg-type]
        flow = PlainFlow(
            state if state is not None else state_of(PAYLOAD_A.read_text()),
            request,
            terminal=terminal,
        )
        result = flow.run()
        # Every result of this face fits the published schema (pi-ask schema --result).
        RESULT_VALIDATOR.validate(result.to_json())
        return Run(result, output.getvalue(), drafts, flow)

    yield run
    for terminal in opened:
        terminal.close()


@dataclass
class OpenPipe:
    """A terminal whose input stays open: ``write`` types, nothing ends it but the flow."""

    terminal: LineTerminal
    output: io.StringIO
    write_fd: int

    def write(self, text: str) -> None:
        os.write(self.write_fd, text.encode())

    @property
    def text(self) -> str:
        return self.output.getvalue()


@pytest.fixture
def open_pipe() -> Iterator[OpenPipe]:
    read_fd, write_fd = os.pipe()
    output = io.StringIO()
    terminal = LineTerminal(read_fd, output)
    yield OpenPipe(terminal, output, write_fd)
    terminal.close()
    os.close(read_fd)
    os.close(write_fd)
