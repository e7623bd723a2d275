"""Terminal injection: hostile payload text never reaches the terminal as control sequences.

The flow is drawn through prompt_toolkit's real ``Vt100_Output`` (the TUI tests' ``Driver``)
into a buffer that also feeds a pyte screen. Payloads carry CSI, OSC (window title, OSC 52
clipboard, OSC 8 hyperlinks), DCS, C1 controls, BEL, backspace, DEL and every bidi control in
every text field, and the user types the same back as notes and custom answers. The bytes the
terminal receives hold none of them (only the flow's own CSI sequences); the screen shows them
as visible escapes (python-port.md §10 "Sanitizing"); wide, combining and ZWJ text keeps its
width. Notification text is cleaned the same way for every channel.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wcwidth import wcwidth

from pi_ask.config.store import SettingsStore
from pi_ask.contract.results import ToolResult
from pi_ask.notifications.channel_list import parse_channels
from pi_ask.notifications.dispatcher import dispatch
from pi_ask.state.opening import new_state
from pi_ask.terminal_text import clean_line
from tests.faces.tui.driver import Driver
from tests.hardening.payloads import HOSTILE_SNIPPETS, loaded, texts
from tests.hardening.result_shape import check_result

HOSTILE = "".join(HOSTILE_SNIPPETS)
# A short mix whose visible form fits on one line: CSI, OSC 52, RLO, C1 CSI, BEL.
SHORT = "\x1b[2J\x1b]52;c;aGk=\x07\u202e\x9b1m"
SHORT_SHOWN = "^[[2J^[]52;c;aGk=^G<U+202E>\\x9b1m"
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Characters that must never reach the terminal raw, whatever the flow draws (prompt_toolkit
# itself moves the cursor with BS and CR, so those are checked on the screen instead).
FORBIDDEN = {
    "\x07": "BEL",
    "\x7f": "DEL",
    "\x90": "C1 DCS",
    "\x9b": "C1 CSI",
    "\x9c": "C1 ST",
    "\x9d": "C1 OSC",
    **{mark: f"bidi U+{ord(mark):04X}" for mark in BIDI},
}
# The flow's own escape sequences: prompt_toolkit's SGR (always reset-first), cursor moves
# and erases, and private modes (cursor, wrap, bracketed paste). Nothing else starts with ESC.
OWN_SEQUENCE = re.compile(r"\x1b\[(?:0(?:;\d+)*m|\d*[ABCDGJK]|\?\d+[hl])")


def paste(text: str) -> str:
    """Keys that paste ``text`` (bracketed paste: the one way controls reach an editor)."""
    return f"text:\x1b[200~{text}\x1b[201~"


def hostile_payload(mark: str) -> dict[str, object]:
    """Every text field of every question type carries ``mark`` after its own name."""
    return {
        "title": f"Title{mark}",
        "questions": [
            {
                "id": "q1",
                "label": f"Label{mark}",
                "prompt": f"Prompt{mark}\nsecond line",
                "options": [
                    {"value": "a", "label": f"Option{mark}", "description": f"Desc{mark}"},
                    {"value": "b", "label": "Plain"},
                ],
            },
            {
                "id": "q2",
                "label": f"Many{mark}",
                "type": "multi",
                "prompt": f"Multi{mark}",
                "options": [{"value": "a", "label": f"Pick{mark}"}, {"value": "b"}],
            },
            {
                "id": "q3",
                "type": "preview",
                "prompt": "Layout",
                "options": [
                    {"value": "a", "label": "Boxed", "preview": f"Preview{mark}\n\tline 2"},
                    {"value": "b", "label": "Other", "preview": "plain"},
                ],
            },
        ],
    }


# Key steps through every screen: option note, custom answer, question note, a multi choice,
# the preview box, the review tab, the settings overlay; each step is one screen to look at.
WALK: tuple[tuple[str, ...], ...] = (
    ("n", paste("Note{m}")),
    ("enter",),
    ("down", "down", paste("Custom{m}")),
    ("enter",),
    ("shift+n", paste("QNote{m}")),
    ("enter",),
    ("space", "enter"),
    ("enter",),
    ("?",),
    ("esc",),
)


async def _walk(
    folder: Path, mark: str, *, width: int, config: str = ""
) -> tuple[list[list[str]], str, ToolResult, pyte.Screen]:
    """Walk ``WALK`` on the hostile payload; the screens seen, all output, the result."""
    path = folder / "config.toml"
    path.write_text(config or "[notifications]\nenabled = false\n", encoding="utf-8")
    payload = loaded(hostile_payload(mark))
    driver = await Driver(new_state(payload), SettingsStore(path), width=width, height=40).start()
    screens = [driver.lines()]
    try:
        for step in WALK:
            await driver.press(*(key.replace("{m}", mark) for key in step))
            screens.append(driver.lines())
        await driver.press("1", "1")
        result = await driver.result()
        screens.append(driver.lines())
    finally:
        await driver.close()
    check_result(result.to_json(), payload)
    return screens, "".join(driver.stream.written), result, driver.screen


def walk(
    mark: str, *, width: int = 120, config: str = ""
) -> tuple[list[list[str]], str, ToolResult, pyte.Screen]:
    with tempfile.TemporaryDirectory(prefix="pi-ask-inject-") as name:
        return asyncio.run(_walk(Path(name), mark, width=width, config=config))


def assert_inert(written: str) -> None:
    """The terminal got no raw control from the payload: only the flow's own CSI codes."""
    for char, name in FORBIDDEN.items():
        assert char not in written, f"raw {name} reached the terminal"
    stray = OWN_SEQUENCE.sub("", written)
    assert "\x1b" not in stray, f"foreign escape sequence: {stray[stray.index(chr(27)) :][:20]!r}"
    for snippet in HOSTILE_SNIPPETS:
        if snippet not in ("\x08\x08", "\r") and any(
            ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in snippet
        ):
            assert snippet not in written, f"{snippet!r} reached the terminal"
    # UTF-8 on the wire: no C1 control hides in the encoded bytes either.
    encoded = written.encode("utf-8")
    assert not re.search(rb"\xc2[\x80-\x9f]", encoded)


def test_every_field_shows_visible_escapes_on_screen() -> None:
    screens, written, result, screen = walk(SHORT)
    assert_inert(written)
    shown = "\n".join(line for lines in screens for line in lines)
    for field in (
        "Title",
        "Label",
        "Prompt",
        "Option",
        "Desc",
        "Many",
        "Multi",
        "Pick",
        "Preview",
        "Note: Note",
        "Custom",
        "Note: QNote",
    ):
        assert f"{field}{SHORT_SHOWN}" in shown, f"{field} is not shown escaped:\n{shown}"
    # The final transcript (printed on the terminal when the flow ends) is escaped too.
    assert screens[-1][0] == f"✓ Label{SHORT_SHOWN}: (wrote) Custom{SHORT_SHOWN}"
    assert screen.title == ""  # no OSC 0/2 retitled the window
    # The result JSON carries the strings exactly as given and typed.
    answers = result.details.to_json()["answers"]
    assert answers["q1"]["customText"] == f"Custom{SHORT}"  # type: ignore[index]
    assert answers["q2"]["note"] == f"QNote{SHORT}"  # type: ignore[index]


@pytest.mark.parametrize("width", [120, 40])
def test_no_hostile_sequence_reaches_the_terminal_bytes(width: int) -> None:
    # At 40 columns single-line fields are cut and long lines wrapped: cutting never splits
    # an escape back into a live sequence.
    screens, written, _, screen = walk(HOSTILE, width=width)
    assert_inert(written)
    assert screen.title == ""
    if width == 120:
        shown = "\n".join("\n".join(lines) for lines in screens)
        assert "Desc^[[2J^[[31m^[[1;1H^[]0;pwned^G" in shown
        assert "^G^H^H^?" in shown  # BEL, two backspaces and DEL, shown, not obeyed


def test_paste_of_every_control_into_an_editor_is_inert() -> None:
    controls = "".join(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) != "\x1b")
    _, written, result, _ = walk(controls + BIDI)
    assert_inert(written)
    assert result.details.to_json()["answers"]["q2"]["note"].startswith("QNote")  # type: ignore[index]


# --- wide, combining and zero-width-joined text -------------------------------------------

WIDE = "漢字テスト"
COMBINING = "e\u0301te\u0301"
ZWJ = "👩\u200d💻 dev"


def _wide_payload() -> dict[str, object]:
    preview = f"{WIDE}|\n{COMBINING}|\n{ZWJ}|\nascii|"
    return {
        "questions": [
            {
                "id": "w",
                "type": "preview",
                "prompt": f"{WIDE} {COMBINING} {ZWJ}",
                "options": [
                    {"value": "a", "label": f"{WIDE} {ZWJ}", "preview": preview},
                    {"value": "b", "label": COMBINING, "preview": "x"},
                ],
            }
        ]
    }


def _columns(screen: pyte.Screen, row: int, char: str) -> list[int]:
    """The cell columns of ``char`` on a screen row (wide characters fill two cells)."""
    return [x for x in range(screen.columns) if screen.buffer[row][x].data == char]


def test_wide_combining_and_zwj_text_keep_their_width() -> None:
    async def scenario(folder: Path) -> str:
        (folder / "config.toml").write_text("[notifications]\nenabled = false\n")
        store = SettingsStore(folder / "config.toml")
        driver = await Driver(new_state(loaded(_wide_payload())), store, width=100).start()
        written = "".join(driver.stream.written)
        await driver.close()
        return written

    with tempfile.TemporaryDirectory(prefix="pi-ask-wide-") as name:
        written = asyncio.run(scenario(Path(name)))
    assert_inert(written)
    # Drawn as they are, not escaped: the ZWJ sequence arrives whole.
    for text in (WIDE, unicodedata.normalize("NFC", COMBINING), "👩\u200d💻"):
        assert text in unicodedata.normalize("NFC", written)
    # pyte stops drawing at a zero-width character that is not combining (ZWJ), so it sees
    # the ZWJ as U+0300, which has the same width (0) and which pyte can attach.
    screen = pyte.Screen(100, 40)
    pyte.Stream(screen).feed(written.replace("\u200d", "\u0300"))
    lines = [unicodedata.normalize("NFC", line.rstrip()) for line in screen.display]

    def row_of(text: str) -> int:
        wanted = unicodedata.normalize("NFC", text)
        return next(r for r, line in enumerate(lines) if wanted in line)

    wide, combining = row_of(WIDE + "|"), row_of(COMBINING + "|")
    zwj, plain = row_of("dev|"), row_of("ascii|")
    # Each box row ends with its right border in the same column: widths were counted alike.
    borders = {r: _columns(screen, r, "│")[-1] for r in (wide, combining, zwj, plain)}
    assert len(set(borders.values())) == 1, "\n".join(lines)
    # Each text ends ("|") where its width says: the sum of its code points' widths, as
    # prompt_toolkit counts (a terminal that draws a ZWJ sequence as one glyph differs).
    left = _columns(screen, plain, "│")[0] + 1
    for row, text in ((wide, WIDE), (zwj, ZWJ), (combining, COMBINING), (plain, "ascii")):
        assert _columns(screen, row, "|")[0] == left + sum(map(wcwidth, text)), lines[row]
    # A combining accent shares its base letter's cell.
    assert unicodedata.normalize("NFC", screen.buffer[combining][left].data) == "é"


# --- notifications ------------------------------------------------------------------------

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@settings(max_examples=150, deadline=None)
@given(st.one_of(texts, st.text(), st.sampled_from([HOSTILE, SHORT, BIDI + "\ud800"])))
def test_clean_line_leaves_one_inert_line(text: str) -> None:
    cleaned = clean_line(text)
    assert not UNSAFE.search(cleaned)
    assert "\n" not in cleaned and cleaned == cleaned.strip()
    assert clean_line(cleaned) == cleaned


def _notify(channels: list[object], title: str, message: str) -> list[str]:
    writes: list[str] = []
    parsed, problems = parse_channels(channels)
    assert not problems
    running = dispatch(parsed, title=title, message=message, write_terminal=writes.append)
    assert running.wait(60)
    assert all(attempt.status == "attempted" for attempt in running.attempts), running.attempts
    return writes


def test_terminal_channels_send_only_their_own_sequence() -> None:
    writes = _notify(["bell", "osc9", "osc777"], f"pi ask{HOSTILE}", f"Question waiting: {HOSTILE}")
    bell, osc9, osc777 = writes
    assert bell == "\x07"
    for sequence, head in ((osc9, "\x1b]9;"), (osc777, "\x1b]777;notify;")):
        assert sequence.startswith(head) and sequence.endswith("\x07")
        body = sequence[len(head) : -1]
        assert not UNSAFE.search(body), body
        # OSC 777 separates its fields with ";", so the text has ":" in their place.
        visible = "^[]52;c;aGVsbG8=^G" if head == "\x1b]9;" else "^[]52:c:aGVsbG8=^G"
        assert visible in body and "<U+202E>" in body
    assert osc777.count(";") == 3  # the title and message cannot add fields


def test_command_channel_gets_clean_text_in_its_environment(tmp_path: Path) -> None:
    out = tmp_path / "env.txt"
    command = f'printf \'%s\\n\' "$ASK_NOTIFY_TITLE" "$ASK_NOTIFY_MESSAGE" > {out}'
    writes = _notify([{"type": "command", "command": command}], f"T{HOSTILE}", f"M{HOSTILE}")
    assert writes == []
    title, message = out.read_text(encoding="utf-8").splitlines()
    for value in (title, message):
        assert not UNSAFE.search(value), value
    assert message.startswith("M^[[2J")


def test_the_flow_notification_is_the_only_osc_and_it_is_clean() -> None:
    config = '[notifications]\nchannels = ["osc9", "osc777"]\n'
    _, written, _, _ = walk(SHORT, config=config)
    sequences = re.findall(r"\x1b\](?:9|777);[^\x07]*\x07", written)
    assert len(sequences) == 2
    for sequence in sequences:
        assert "Label^[[2J^[]52" in sequence and "aGk=^G<U+202E>" in sequence
        assert not UNSAFE.search(sequence[2:-1].replace("\x1b", "")), sequence
    rest = written
    for sequence in sequences:
        rest = rest.replace(sequence, "")
    assert_inert(rest)


# --- settings problems: text from a config file -------------------------------------------

HOSTILE_CONFIG = (
    "[behaviour]\n"
    '"\\u001b]0;pwned\\u0007\\u202e\\u009b2J" = 1\n'
    "[keymaps.main]\n"
    'confirm = "\\u009b2J\\u202e"\n'
)


def test_config_problem_texts_are_inert(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(HOSTILE_CONFIG, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(PI_ASK_CONFIG=str(path), PI_ASK_STATE_DIR=str(tmp_path / "state"))
    done = subprocess.run(
        [sys.executable, "-m", "pi_ask", "config", "validate"],
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )
    printed = (done.stdout + done.stderr).decode("utf-8")
    assert "unknown setting" in printed and "is not a key id" in printed
    assert not UNSAFE.search(printed.replace("\n", "")), repr(printed)


def test_a_config_notice_in_the_footer_is_inert() -> None:
    config = '[notifications]\nenabled = false\n[behaviour]\n"\\u202eX" = 1\n'
    screens, written, _, _ = walk("", config=config)
    assert "config.toml: behaviour.<U+202E>X: unknown setting" in "\n".join(screens[0])
    assert_inert(written)


def test_a_config_notice_with_controls_stays_inside_the_overlay() -> None:
    config = '[notifications]\nenabled = false\n[keymaps.main]\nconfirm = "\\u009b2J\\u009b"\n'
    screens, _, _, _ = walk("", width=100, config=config)
    overlay = screens[WALK.index(("?",)) + 1]
    rows = [line for line in overlay if "│" in line]
    # The flow's rules run on behind the overlay; its right border is the last "│".
    ends = {line.rindex("│") for line in rows}
    assert all(line.rstrip("─").endswith("│") for line in rows), "\n".join(overlay)
    assert len(ends) == 1


def test_resume_list_prints_payload_text_inert(tmp_path: Path) -> None:
    payload = tmp_path / "payload.json"
    payload.write_text(
        json.dumps({"title": f"T{SHORT}", "questions": hostile_payload(SHORT)["questions"]}),
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(PI_ASK_CONFIG=str(tmp_path / "config.toml"), PI_ASK_STATE_DIR=str(tmp_path / "s"))

    def pi_ask(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "pi_ask", *args],
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=30,
            check=False,
        )

    assert pi_ask("ask", "--ui", "none", str(payload)).returncode == 1
    listed = pi_ask("resume", "--list")
    assert listed.returncode == 0
    line = listed.stdout.decode("utf-8")
    assert line.endswith(f"0/3 answered  T{SHORT_SHOWN}\n"), line
    assert not UNSAFE.search(line.rstrip("\n"))


def _clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env.update(
        PI_ASK_CONFIG=str(tmp_path / "config.toml"),
        PI_ASK_STATE_DIR=str(tmp_path / "s"),
        PI_ASK_RUNTIME_DIR=str(tmp_path / "run"),
    )
    env.pop("TMUX", None)
    return env


def test_attach_list_prints_a_pending_asks_text_inert(tmp_path: Path) -> None:
    from tests.child_processes import wait_until

    # The asker's folder carries the controls too: the listing shows it.
    folder = tmp_path / f"dir{SHORT}"
    folder.mkdir()
    payload = folder / "payload.json"
    payload.write_text(
        json.dumps({"title": f"T{SHORT}", "questions": hostile_payload(SHORT)["questions"]}),
        encoding="utf-8",
    )
    env = _clean_env(tmp_path)

    def pi_ask(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "pi_ask", *args],
            capture_output=True,
            env=env,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            timeout=60,
            check=False,
        )

    with subprocess.Popen(
        [sys.executable, "-m", "pi_ask", "ask", "--wait", str(payload)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=folder,
        start_new_session=True,  # no terminal: the ask waits for an attach
    ) as asker:
        try:
            listed = wait_until(
                lambda: (done := pi_ask("attach", "--list", "--json")).returncode == 0 and done,
                "the pending ask",
                60,
            )
            text = pi_ask("attach", "--list")
        finally:
            asker.kill()
    assert isinstance(listed, subprocess.CompletedProcess)
    raw = listed.stdout.decode("utf-8")
    assert not UNSAFE.search(raw.rstrip("\n")), ascii(raw)
    (entry,) = json.loads(raw)
    assert entry["title"] == f"T{SHORT}"  # the JSON means the payload's text unchanged
    assert entry["cwd"] == str(folder)
    line = text.stdout.decode("utf-8")
    assert f"T{SHORT_SHOWN}" in line and f"dir{SHORT_SHOWN}" in line, line
    assert not UNSAFE.search(line.rstrip("\n"))


def test_config_show_prints_the_files_text_inert(tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    config = tmp_path / f"c{SHORT}.toml"
    model_id = f"gpt{SHORT}"
    config.write_text(
        f'[answer]\nextraction_models = [{{ provider = "openai", id = {json.dumps(model_id)} }}]\n',
        encoding="utf-8",
    )
    shown = subprocess.run(
        [sys.executable, "-m", "pi_ask", "config", "show", "--config", str(config)],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.decode("utf-8")
    assert not UNSAFE.search(text.replace("\n", "")), ascii(text)
    assert "Traceback" not in shown.stderr.decode("utf-8")
    # What it prints is still TOML meaning the file's values.
    import tomllib

    effective = tomllib.loads("\n".join(line for line in text.splitlines() if "File:" not in line))
    assert effective["answer"]["extraction_models"][0]["id"] == model_id
