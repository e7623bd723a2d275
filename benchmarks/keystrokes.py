"""Keystroke to redrawn frame, in-process, as the payload grows (python-port.md §8).

Each case opens a real ``AskFlow`` on a pipe input and a Vt100 output that discards its
bytes, sends arrow keys one at a time and times each from the key's bytes entering the
pipe to the end of the frame they cause (prompt_toolkit's ``after_render``). Cases run in
rounds, each round visiting every case in a rotated order, so a burst of load from
another process lands on all of them alike rather than on one.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples

DOWN = "\x1b[B"
UP = "\x1b[A"
TAB = "\t"
ROUNDS = 10
KEYS_PER_ROUND = 20
COUNTED_KEYS = 20  # keys whose Python calls are counted, in one more (untimed) round
# After each frame the loop is left alone this long, so the next key is timed from an idle
# loop (a person's keys come tens of milliseconds apart; key repeat is ~30 ms).
SETTLE_S = 0.004
# 35 rows: the box of the 20,000-line preview then shows 20 of its lines, as many as the
# whole 20-line preview, so every preview case draws the same visible rows and a difference
# between them can only come from the payload.
SCREEN_ROWS = 35
SCREEN_COLUMNS = 100

JsonObject = dict[str, object]


@dataclass(frozen=True, slots=True)
class KeyCase:
    """One payload to time keys on.

    Attributes:
        name: The row name in the report.
        payload: The ``ask_user`` input.
        opening: Keys sent (untimed) before the timed ones, e.g. a tab to the preview.
        timed_on: ``"all"`` times every key; ``"up"`` only the keys that move up onto the
            first option (the one holding the big preview), the others are sent untimed.
    """

    name: str
    payload: JsonObject
    opening: tuple[str, ...] = ()
    timed_on: str = "all"


@dataclass(frozen=True, slots=True)
class KeyTiming:
    """Per-key cost of one case: wall milliseconds, bytes written, and Python calls per key.

    ``floor_*`` are the same keys sent to the floor: a bare prompt_toolkit application that
    swaps between the very frames pi-ask drew (``_floor_round``), so it pays prompt_toolkit's
    rendering of the same screen and none of pi-ask's work. ``floor_ratio`` is the median
    over rounds of pi-ask's median / the floor's median in that round. ``calls_per_key`` is
    the median over ``COUNTED_KEYS`` keys of a separate round run under ``CallCounter``
    (its overhead would spoil the timings).
    """

    name: str
    keys: int
    median_ms: float
    p95_ms: float
    max_ms: float
    calls_per_key: int
    bytes_per_key: int
    floor_median_ms: float
    floor_bytes_per_key: int
    floor_ratio: float


def _options(question: int, count: int = 9) -> list[JsonObject]:
    return [
        {
            "value": f"q{question}o{o}",
            "label": f"Option {o + 1} of question {question + 1}",
            "description": "A description long enough to wrap on a narrow terminal. " * 2,
        }
        for o in range(count)
    ]


def _preview_text(option: int, lines: int) -> str:
    # Short lines keep a 20,000-line preview well under the 1 MiB payload limit; the option
    # number in each line makes every option's box differ, so moving between two options
    # rewrites the whole box whatever the preview lengths.
    return "\n".join(f"  {option}: line {n} of the preview" for n in range(lines))


def stress_payload(preview_lines: int, questions: int = 10) -> JsonObject:
    """The stress payload of python-port.md §8: ``questions`` x 9 options.

    Question 2 is a preview question whose first option carries a preview of
    ``preview_lines`` lines (its other options 20 lines each). Its options have one-line
    descriptions, so its option list is shorter than the screen and the box, not the list,
    decides the frame's height. The other questions alternate single and multi.
    """
    items: list[JsonObject] = []
    for q in range(questions):
        options = _options(q)
        if q == 1:
            for o, option in enumerate(options):
                option["description"] = f"Layout {o + 1}"
                option["preview"] = _preview_text(o, preview_lines if o == 0 else 20)
        items.append(
            {
                "id": f"q{q}",
                "label": f"Question {q + 1}",
                "prompt": f"Question number {q + 1}: which option fits best?",
                "type": "preview" if q == 1 else ("multi" if q % 2 else "single"),
                "options": options,
            }
        )
    return {"title": "Stress", "questions": items}


def _markdown_preview(option: int, lines: int) -> str:
    # What agents send: a heading, a table, a list, then code — most of it one fenced
    # Python block, so both the window parser and the window highlighter are paid for.
    head = [
        f"## Layout {option + 1}",
        "",
        "| file | purpose | size |",
        "|---|---|---:|",
        "| `app.py` | **entry point** | 2 KB |",
        "| `config.toml` | settings, *per environment* | 1 KB |",
        "",
        "- keeps [the guide](https://example.com/guide) in step",
        "- > quoted from the design notes",
        "",
        "```python",
    ]
    # Short lines keep it under the 1 MiB payload limit, as the plain stress payload.
    code = [
        f"def h{option}_{n}(r: R) -> S:  # {n}" if n % 3 == 0 else f'    return S("{n}", {n % 5})'
        for n in range(max(1, lines - len(head) - 1))
    ]
    return "\n".join([*head, *code, "```"])


def markdown_stress_payload(preview_lines: int, questions: int = 10) -> JsonObject:
    """The stress payload in Markdown (issue 30): every prompt and description has inline
    Markdown, question 1's prompt a fenced block (so the first frame parses and highlights),
    and question 2's first option a ``preview_lines``-line Markdown preview, mostly code."""
    payload = stress_payload(preview_lines, questions)
    items = payload["questions"]
    assert isinstance(items, list)
    for q, item in enumerate(items):
        item["prompt"] = f"Question number {q + 1}: which **option** fits `best`?" + (
            "\n> Compare them first.\n```toml\n[server]\nport = 8080\n```" if q == 0 else ""
        )
        for o, option in enumerate(item["options"]):
            option["description"] = f"A *described* option with `code` and [a link](https://x/{o})"
            if q == 1:
                option["preview"] = _markdown_preview(o, preview_lines if o == 0 else 20)
    return payload


def questions_payload(questions: int) -> JsonObject:
    """``questions`` questions of 9 options each, no previews, single and multi alternating."""
    return {
        "title": "Many questions",
        "questions": [
            {
                "id": f"q{q}",
                "label": f"Question {q + 1}",
                "prompt": f"Question number {q + 1}: which option fits best?",
                "type": "multi" if q % 2 else "single",
                "options": _options(q),
            }
            for q in range(questions)
        ],
    }


def cases() -> tuple[KeyCase, ...]:
    """Previews of 20 / 2,000 / 20,000 lines, then 1 / 10 / 50 questions."""
    previews = tuple(
        KeyCase(f"preview_{lines}_lines", stress_payload(lines), opening=(TAB,), timed_on="up")
        for lines in (20, 2_000, 20_000)
    )
    questions = tuple(
        KeyCase(f"questions_{count}", questions_payload(count)) for count in (1, 10, 50)
    )
    markdown = KeyCase(
        "markdown_preview_20000_lines",
        markdown_stress_payload(20_000),
        opening=(TAB,),
        timed_on="up",
    )
    return (*previews, *questions, markdown)


class _Discard:
    """A text stream that drops what the renderer writes, counting its UTF-8 bytes."""

    encoding = "utf-8"

    def __init__(self) -> None:
        self.bytes = 0

    def write(self, data: str) -> int:
        self.bytes += len(data.encode("utf-8"))
        return len(data)

    def flush(self) -> None:
        pass


@dataclass(slots=True)
class RoundResult:
    """What one round measured: per timed key, seconds (or calls) and bytes written; and the
    two frames the timed keys move between, for the floor."""

    times: list[float]
    bytes: list[int]
    frames: tuple[tuple[object, ...], tuple[object, ...]] | None = None


class CallCounter:
    """Counts the Python function calls made while ``on`` (a ``sys.setprofile`` hook).

    A call count does not depend on the machine's load, so it shows whether the work per
    key grows with the payload where timings on a busy machine can only hint at it.
    """

    def __init__(self) -> None:
        self.on = False
        self.calls = 0

    def __call__(self, _frame: FrameType, event: str, _arg: object) -> None:
        if self.on and event == "call":
            self.calls += 1


async def _time_round(
    case: KeyCase, store_path: Path, keys: int, counter: CallCounter | None = None
) -> RoundResult:
    """Open a flow on ``case``, send ``keys`` arrow keys, cancel it.

    Returns:
        For each timed key, the seconds until its frame was drawn (or, with ``counter``,
        the Python calls made meanwhile) and the bytes written; the frames keys alternate.
    """
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from pi_ask.ask.face import FaceRequest
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.loading import LoadedPayload, load_payload
    from pi_ask.faces.tui.flow import AskFlow
    from pi_ask.state.commands import Abort
    from pi_ask.state.opening import new_state

    loaded = load_payload(json.dumps(case.payload))
    assert isinstance(loaded, LoadedPayload), loaded
    size = Size(rows=SCREEN_ROWS, columns=SCREEN_COLUMNS)
    stream = _Discard()
    output = Vt100_Output(stream, lambda: size, enable_cpr=False)  # type: ignore[arg-type]
    rendered = asyncio.Event()
    with create_pipe_input() as pipe:
        request = FaceRequest(SettingsStore(store_path))
        flow = AskFlow(new_state(loaded.payload), request, input=pipe, output=output)
        # Wait on an event, not a poll: prompt_toolkit postpones a redraw while the loop has
        # other work, so a polling loop would measure its own postponement.
        flow.app.after_render += lambda _app: rendered.set()
        task = asyncio.ensure_future(flow.run_async())

        async def send(data: str) -> tuple[float, int]:
            rendered.clear()
            if counter is not None:
                counter.calls, counter.on = 0, True
            written = stream.bytes
            start = time.perf_counter()
            pipe.send_text(data)
            await rendered.wait()
            elapsed = time.perf_counter() - start
            if counter is not None:
                counter.on = False
                elapsed = counter.calls
            await asyncio.sleep(SETTLE_S)
            return elapsed, stream.bytes - written

        def frame() -> tuple[object, ...]:
            return tuple(flow.canvas.render_frame(SCREEN_COLUMNS, SCREEN_ROWS))

        if counter is not None:
            sys.setprofile(counter)
        await rendered.wait()
        await asyncio.sleep(0.05)  # the services that start after the first frame
        for key in case.opening:
            await send(key)
        result = RoundResult([], [])
        shown: dict[str, tuple[object, ...]] = {}
        for index in range(keys):
            key = DOWN if index % 2 == 0 else UP
            elapsed, written = await send(key)
            shown[key] = frame()
            if case.timed_on == "all" or key == UP:
                result.times.append(elapsed)
                result.bytes.append(written)
        flow.dispatch(Abort())
        await task
        sys.setprofile(None)
    if DOWN in shown and UP in shown:
        result.frames = (shown[DOWN], shown[UP])
    return result


async def _floor_round(
    case: KeyCase, frames: tuple[tuple[object, ...], ...], keys: int
) -> RoundResult:
    """The floor of one case: prompt_toolkit alone, drawing the frames pi-ask drew.

    A bare application on the same pipe input and discarding output, inline, whose only
    window shows one of the two frames the timed keys move between; Down and Up swap them.
    The keys are sent and timed exactly as ``_time_round`` does.
    """
    from prompt_toolkit.application import Application
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout
    from prompt_toolkit.layout.containers import Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.output.vt100 import Vt100_Output

    texts = [_fragments(lines) for lines in frames]  # [after Down, after Up]
    showing = [1]
    bindings = KeyBindings()

    @bindings.add("down")
    def _down(event: object) -> None:
        showing[0] = 0

    @bindings.add("up")
    def _up(event: object) -> None:
        showing[0] = 1

    @bindings.add("c-c")
    def _quit(event: object) -> None:
        app.exit()

    size = Size(rows=SCREEN_ROWS, columns=SCREEN_COLUMNS)
    stream = _Discard()
    output = Vt100_Output(stream, lambda: size, enable_cpr=False)  # type: ignore[arg-type]
    rendered = asyncio.Event()
    with create_pipe_input() as pipe:
        app: Application[None] = Application(
            layout=Layout(Window(FormattedTextControl(lambda: texts[showing[0]]))),
            key_bindings=bindings,
            full_screen=False,
            input=pipe,
            output=output,
        )
        app.after_render += lambda _app: rendered.set()
        task = asyncio.ensure_future(app.run_async())
        await rendered.wait()
        result = RoundResult([], [])
        for index in range(keys):
            key = DOWN if index % 2 == 0 else UP
            rendered.clear()
            written = stream.bytes
            start = time.perf_counter()
            pipe.send_text(key)
            await rendered.wait()
            elapsed = time.perf_counter() - start
            await asyncio.sleep(SETTLE_S)
            if case.timed_on == "all" or key == UP:
                result.times.append(elapsed)
                result.bytes.append(stream.bytes - written)
        pipe.send_text("\x03")
        await task
    return result


def _fragments(lines: Sequence[object]) -> StyleAndTextTuples:
    """pi-ask's frame lines as one formatted text, lines joined by newlines."""
    out: StyleAndTextTuples = []
    for number, line in enumerate(lines):
        if number:
            out.append(("", "\n"))
        out.extend((style, text) for style, text, *_ in line)  # type: ignore[attr-defined]
    return out


def _summary(
    name: str,
    times: Sequence[float],
    calls: Sequence[float],
    written: Sequence[int],
    floor: Sequence[float],
    floor_written: Sequence[int],
    ratios: Sequence[float],
) -> KeyTiming:
    ordered = sorted(times)
    return KeyTiming(
        name=name,
        keys=len(ordered),
        median_ms=round(statistics.median(ordered) * 1000, 2),
        p95_ms=round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 2),
        max_ms=round(ordered[-1] * 1000, 2),
        calls_per_key=round(statistics.median(calls)),
        bytes_per_key=round(statistics.median(written)),
        floor_median_ms=round(statistics.median(floor) * 1000, 2),
        floor_bytes_per_key=round(statistics.median(floor_written)),
        floor_ratio=round(statistics.median(ratios), 2),
    )


def measure_keystrokes(
    workdir: Path, only: Sequence[str] | None = None, rounds: int = ROUNDS
) -> tuple[KeyTiming, ...]:
    """Time keys on every case of ``cases()`` (or those named in ``only``) and on its floor,
    interleaved over ``rounds`` rounds: each round runs every case, then that case's floor
    right after it."""
    all_cases = tuple(case for case in cases() if only is None or case.name in only)
    times: dict[str, list[float]] = {case.name: [] for case in all_cases}
    written: dict[str, list[int]] = {case.name: [] for case in all_cases}
    floor: dict[str, list[float]] = {case.name: [] for case in all_cases}
    floor_written: dict[str, list[int]] = {case.name: [] for case in all_cases}
    ratios: dict[str, list[float]] = {case.name: [] for case in all_cases}
    store_path = workdir / "keystrokes.toml"
    # One untimed round first: imports, caches and the config file are warm for all cases.
    asyncio.run(_time_round(all_cases[0], store_path, 4))
    for round_number in range(rounds):
        shift = round_number % len(all_cases)
        for case in all_cases[shift:] + all_cases[:shift]:
            measured = asyncio.run(_time_round(case, store_path, KEYS_PER_ROUND))
            assert measured.frames is not None
            bare = asyncio.run(_floor_round(case, measured.frames, KEYS_PER_ROUND))
            times[case.name] += measured.times
            written[case.name] += measured.bytes
            floor[case.name] += bare.times
            floor_written[case.name] += bare.bytes
            ratios[case.name].append(
                statistics.median(measured.times) / statistics.median(bare.times)
            )
    calls = {
        case.name: asyncio.run(_time_round(case, store_path, COUNTED_KEYS, CallCounter())).times
        for case in all_cases
    }
    return tuple(
        _summary(
            case.name,
            times[case.name],
            calls[case.name],
            written[case.name],
            floor[case.name],
            floor_written[case.name],
            ratios[case.name],
        )
        for case in all_cases
    )
