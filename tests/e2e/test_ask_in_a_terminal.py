"""``pi-ask ask`` in a real pseudo-terminal: the screen, the keys, the JSON on stdout."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.e2e.conftest import PAYLOAD_A, PAYLOADS
from tests.e2e.terminal import Terminal

pytestmark = pytest.mark.pty


def result_of(tmp_path: Path) -> dict[str, object]:
    text = (tmp_path / "stdout.json").read_text(encoding="utf-8")
    assert text.count("\n") == 1, "exactly one JSON document on stdout"
    document: dict[str, object] = json.loads(text)
    return document


def _submit_with_the_first_layout(term: Terminal) -> None:
    """On the layout question: its first option, then Submit (1 twice) on the review."""
    term.wait_for("Pick a config file layout.")
    term.press("enter")
    term.wait_for("Review answers")
    term.press("1")
    term.wait_for("Press 1 again to Submit.")
    term.press("1")
    assert term.exit_status() == 0


def test_submit_through_the_flow(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language should the new command-line tool be written in?")
    assert term.lines()[0] == "─" * 80
    assert "❯ 1. Python" in term.lines()
    term.press("down", "enter")
    term.wait_for("Which features should ship in v1?")
    term.press("space", "down", "down", "space", "enter")
    _submit_with_the_first_layout(term)
    assert term.lines()[:3] == [
        "✓ Language: Go",
        "✓ Features: Login, Cloud sync",
        "✓ Layout: Single file",
    ]
    details = result_of(tmp_path)["details"]
    assert isinstance(details, dict)
    assert details["cancelled"] is False
    assert details["answers"]["lang"]["values"] == ["go"]
    assert details["answers"]["features"]["values"] == ["login", "sync"]


def test_cancel_prints_a_cancelled_result(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOADS / "basic.json"))
    term.wait_for("How should I frame the next prompt?")
    term.press("esc")
    assert term.exit_status() == 1
    assert term.lines()[0] == "Cancelled"
    assert result_of(tmp_path)["details"]["cancelled"] is True  # type: ignore[index]
    assert result_of(tmp_path)["details"]["reason"] == "cancelled"  # type: ignore[index]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_restores_the_terminal_and_prints_a_cancelled_result(
    spawn, tmp_path: Path, signum: int
) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language")
    term.press("enter")
    term.wait_for("☒ Language")
    term.child.kill(signum)
    status = term.exit_status()
    # The drawing is gone and the transcript says how it ended: the terminal was restored.
    assert "Which features" not in term.text()
    assert term.lines()[0] == "Aborted"
    assert status == 128 + signum
    details = result_of(tmp_path)["details"]
    assert details["cancelled"] is True  # type: ignore[index]
    assert details["reason"] == "aborted"  # type: ignore[index]


def test_ctrl_c_twice_dismisses_a_dirty_flow(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language")
    term.press("enter", "ctrl+c")
    term.wait_for("Unsaved ask answers or drafts. Press Esc or Ctrl+C again to discard.")
    term.press("ctrl+c")
    assert term.exit_status() == 1
    details = result_of(tmp_path)["details"]
    assert details["cancelled"] is True  # type: ignore[index]
    assert details["reason"] == "cancelled"  # type: ignore[index]
    assert details["answers"]["lang"]["values"] == ["py"]  # type: ignore[index]


def test_sigint_from_outside_exits_130(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language")
    term.child.kill(signal.SIGINT)
    assert term.exit_status() == 130
    assert term.lines()[0] == "Aborted"
    assert result_of(tmp_path)["details"]["reason"] == "aborted"  # type: ignore[index]


def test_preview_notes_and_elaborate(spawn, tmp_path: Path) -> None:
    term = spawn("ask", str(PAYLOAD_A), width=100, height=40)
    term.wait_for("Which language")
    term.press("right", "right")
    term.wait_for("┌")
    assert any("❯ 1. Single file" in line and "┌" in line for line in term.lines())
    term.press("n")
    term.wait_for("Add a note...")
    term.press("text:what about YAML?", "enter")
    term.wait_for("Note: what about YAML?")
    term.press("right", "down", "enter")
    assert term.exit_status() == 0
    details = result_of(tmp_path)["details"]
    assert details["mode"] == "elaborate"  # type: ignore[index]
    assert details["elaboration"]["items"][0]["note"] == "what about YAML?"  # type: ignore[index]


@pytest.mark.parametrize("keys", [("esc",), ("enter", "space", "enter", "enter", "enter")])
def test_the_terminal_is_back_in_cooked_mode_afterwards(
    tmp_path: Path, keys: tuple[str, ...]
) -> None:
    from tests.e2e.terminal import Terminal, child_env, pi_ask_command

    command = " ".join([*pi_ask_command(), "ask", str(PAYLOAD_A)])
    script = f"{command} > {tmp_path / 'out.json'}; stty -a > {tmp_path / 'stty.txt'}"
    term = Terminal(
        ["/bin/sh", "-c", script],
        stdout=tmp_path / "sh.out",
        env=child_env(tmp_path / "config.toml", tmp_path / "state"),
        cwd=tmp_path,
    )
    try:
        term.wait_for("Which language")
        term.press(*keys)
        term.exit_status()
    finally:
        term.kill()
    modes = (tmp_path / "stty.txt").read_text(encoding="utf-8").split()
    assert "icanon" in modes and "echo" in modes and "-icanon" not in modes


def test_settings_subcommand(spawn, tmp_path: Path) -> None:
    term = spawn("settings")
    term.wait_for("pi-ask settings")
    # At 24 rows the overlay keeps the path's end, the file's name, when it cuts it.
    assert str(tmp_path / "config.toml")[-30:] in term.text().replace("\n", "")
    term.press("down", "enter")
    term.wait(lambda: "confirm_dismiss_when_dirty = false" in _read(tmp_path / "config.toml"))
    term.press("esc")
    assert term.exit_status() == 0
    assert (tmp_path / "stdout.json").read_text(encoding="utf-8") == ""


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def test_payload_on_stdin_keys_from_the_terminal(tmp_path: Path) -> None:
    """``pi-ask ask - < q.json > a.json``: stdin holds the payload, keys come from /dev/tty."""
    from tests.e2e.terminal import Terminal, child_env, pi_ask_command

    command = " ".join([*pi_ask_command(), "ask", "-"])
    script = f"{command} < {PAYLOADS / 'basic.json'} > {tmp_path / 'out.json'}"
    term = Terminal(
        ["/bin/sh", "-c", script],
        stdout=tmp_path / "sh.out",
        env=child_env(tmp_path / "config.toml", tmp_path / "state"),
        cwd=tmp_path,
    )
    try:
        term.wait_for("How should I frame the next prompt?")
        term.press("2")
        term.wait_for("☒ Style")
        term.press("esc")
        term.wait_for("Press Esc or Ctrl+C again to discard.")
        term.press("esc")
        term.exit_status()
    finally:
        term.kill()
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert document["details"]["cancelled"] is True
    assert document["details"]["answers"]["style"]["values"] == ["balanced"]


def test_an_attached_file_reaches_the_result(spawn, tmp_path: Path) -> None:
    """The attach key, the path prompt and its completion, in the real ``pi-ask ask``: the
    result lists the copy, which is the file's bytes in the ask's private folder."""
    (tmp_path / "screenshot.png").write_bytes(b"\x89PNG\r\n" + bytes(range(256)) * 8)
    term = spawn("ask", str(PAYLOAD_A))
    term.wait_for("Which language should the new command-line tool be written in?")
    term.wait_for("a attach")
    term.press("a")
    term.wait_for("Attach a copy of a file to this answer")
    term.press("text:screensh")
    term.wait(lambda: term.text().count("screenshot.png") == 1)  # the menu lists it
    term.press("tab")  # takes it
    term.wait(lambda: "screenshot.png" in term.text() and "screensh\n" not in term.text())
    term.press("enter")
    term.wait_for("Attached 1: screenshot.png (2.1 KB)")
    term.press("down", "enter")
    term.wait_for("Which features should ship in v1?")
    term.press("space", "enter")
    _submit_with_the_first_layout(term)
    assert "  attached: screenshot.png (2.1 KB)" in term.lines()
    document = result_of(tmp_path)
    (attached,) = document["details"]["answers"]["lang"]["attachments"]  # type: ignore[index]
    size = (tmp_path / "screenshot.png").stat().st_size
    assert (attached["name"], attached["size"], attached["media_type"]) == (
        "screenshot.png",
        size,
        "image/png",
    )
    copy = Path(attached["path"])
    assert copy.read_bytes() == (tmp_path / "screenshot.png").read_bytes()
    assert (tmp_path / "state") in copy.parents
    assert "attached: screenshot.png (2.1 KB)" in str(document["content"])


def test_markdown_is_drawn_then_its_code_coloured(spawn, tmp_path: Path) -> None:
    # The first frame draws the prompt as written; the worker loads markdown-it (the
    # Markdown is drawn), then Pygments and the Python lexer (the code is coloured).
    payload = json.loads(PAYLOAD_A.read_text(encoding="utf-8"))
    payload["questions"][0]["prompt"] = (
        "Which **loader** do we keep?\n```python\ndef load_config(path):\n    return path\n```"
    )
    marked = tmp_path / "markdown.json"
    marked.write_text(json.dumps(payload), encoding="utf-8")
    term = spawn("ask", str(marked))

    def keyword_coloured() -> bool:
        for row, line in enumerate(term.lines()):
            column = line.find("def load_config")
            if column >= 0:
                cells = term.screen.buffer[row]
                return bool(cells[column].fg != cells[column + 4].fg)
        return False

    term.wait_for("Which loader do we keep?")
    term.wait(keyword_coloured)
    assert "```" not in term.text() and "**" not in term.text()
    term.press("esc")
    assert term.exit_status() == 1
