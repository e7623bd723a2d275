"""Askers with no terminal answered from another one: ``pi-ask attach`` in a real pty."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from tests.child_processes import wait_until
from tests.e2e.terminal import Terminal, pi_ask_command
from tests.inbox.conftest import Asker, attach_listing, pending


def test_no_terminal_and_nobody_to_ask_answers_no_terminal_at_once(ask, runtime: Path) -> None:
    result, status = ask().result()
    assert status == 1
    details = result["details"]
    assert details["reason"] == "no_terminal"  # type: ignore[index]
    assert result["content"][0]["text"].startswith("Needs user input")  # type: ignore[index]
    # Nothing is left behind for a later attach to find.
    assert [p for p in runtime.iterdir() if p.suffix == ".ask"] == []


def test_a_waiting_asker_is_answered_by_attach_in_a_pty(
    ask, terminal, runtime: Path, asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.title == "Pick a DB"
    assert info.questions == 2
    wait_until(lambda: f"pi-ask attach {info.ask_id}" in asker.stderr.read_text(), "the line")
    assert info.socket is not None
    mode = os.stat(info.socket).st_mode & 0o777
    assert mode == 0o600
    assert os.stat(runtime).st_mode & 0o777 == 0o700
    assert os.stat(info.folder).st_mode & 0o777 == 0o700
    assert os.stat(asks).st_mode & 0o777 == 0o700
    term = terminal("attach", info.ask_id[:8])
    term.wait_for("Which database?")
    term.press("2")  # SQLite, then the next question
    term.wait_for("Which ORM?")
    term.press("1")
    result = _submitted(term, asker)
    answers = result["details"]["answers"]  # type: ignore[index]
    assert answers["db"]["values"] == ["sqlite"]
    assert answers["orm"]["values"] == ["sa"]
    assert "reason" not in result["details"]  # type: ignore[operator]
    assert not info.socket.exists()
    assert not info.folder.exists()


def test_esc_in_attach_cancels_the_agents_ask(ask, terminal, runtime: Path, asks: Path) -> None:
    asker = ask("--wait")
    pending(asks, 1)
    term = terminal("attach")
    term.wait_for("Which database?")
    term.press("esc")
    assert term.exit_status() == 0
    result, status = asker.result()
    assert status == 1
    assert result["details"]["reason"] == "cancelled"  # type: ignore[index]


def test_two_terminals_on_one_ask_first_answer_wins(
    ask, terminal, runtime: Path, asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    first = terminal("attach", info.ask_id, name="first")
    second = terminal("attach", info.ask_id, name="second")
    first.wait_for("Which database?")
    second.wait_for("Which database?")
    first.press("1", "2")
    first.wait_for("Submit")
    first.press("1", "1")
    assert first.exit_status() == 0
    # The other terminal closes on its own and says why.
    assert second.exit_status() == 1
    assert "answered elsewhere" in second.text()
    result, _ = asker.result()
    assert result["details"]["answers"]["orm"]["values"] == ["none"]  # type: ignore[index]


def test_an_attach_killed_mid_answer_leaves_its_drafts_for_the_next(
    ask, terminal, runtime: Path, asks: Path
) -> None:
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    first = terminal("attach", name="first")
    first.wait_for("Which database?")
    first.press("2")
    first.wait_for("Which ORM?")
    first.child.kill(signal.SIGKILL)
    first.exit_status()
    # Still pending, with the committed draft.
    (again,) = pending(asks, 1)
    assert again.ask_id == info.ask_id
    second = terminal("attach", name="second")
    second.wait_for("Which database?")
    assert "☒ Q1" in second.text()  # the first terminal's committed answer is back
    second.press("tab")
    second.wait_for("Which ORM?")
    second.press("2")
    result = _submitted(second, asker)
    answers = result["details"]["answers"]  # type: ignore[index]
    assert answers["db"]["values"] == ["sqlite"]
    assert answers["orm"]["values"] == ["none"]


def test_an_asker_killed_by_sigkill_disappears_from_the_list(
    ask, env: dict[str, str], runtime: Path, asks: Path
) -> None:
    doomed_payload = {
        "title": "Doomed",
        "questions": [{"id": "x", "prompt": "X?", "options": [{"value": "a"}]}],
    }
    ask("--wait", name="keep")
    gone = ask("--wait", name="gone", payload=doomed_payload)
    found = pending(asks, 2)
    doomed = next(info for info in found if info.title == "Doomed")
    gone.process.send_signal(signal.SIGKILL)
    gone.process.wait()
    assert doomed.folder.exists()  # a killed asker cannot clean up after itself
    assert [entry["title"] for entry in attach_listing(env)] == ["Pick a DB"]
    assert not doomed.folder.exists()  # cleaned up when seen


def _submitted(term: Terminal, asker: Asker) -> dict[str, object]:
    """Submit on the review screen the last answer leads to, and the waiting asker's result."""
    term.wait_for("Submit")
    term.press("1", "1")
    assert term.exit_status() == 0
    result, status = asker.result()
    assert status == 0
    return result


def _submitted_in_plain(term: Terminal, asker: Asker) -> dict[str, object]:
    """Answer both questions with their second and first options in the plain face, submit,
    and the waiting asker's result."""
    term.press("text:2\r")
    term.wait_for("Which ORM?")
    term.press("text:1\r")
    term.wait_for("Submit")
    term.press("text:1\r")
    assert term.exit_status() == 0
    result, status = asker.result()
    assert status == 0
    return result


def test_attach_in_the_plain_face(ask, terminal, runtime: Path, asks: Path) -> None:
    asker = ask("--wait")
    pending(asks, 1)
    term = terminal("attach", "--ui", "plain")
    term.wait_for("Which database?")
    result = _submitted_in_plain(term, asker)
    answers = result["details"]["answers"]  # type: ignore[index]
    assert answers["db"]["values"] == ["sqlite"]
    assert answers["orm"]["values"] == ["sa"]


def test_attach_takes_the_face_setting(
    ask, terminal, runtime: Path, tmp_path: Path, asks: Path
) -> None:
    (tmp_path / "config.toml").write_text('[ui]\nface = "plain"\n', encoding="utf-8")
    asker = ask("--wait")
    pending(asks, 1)
    term = terminal("attach")  # no --ui: the setting says plain
    term.wait_for("answer>")
    assert "Question 1 of 2" in term.text()
    term.press("text:/cancel\r")
    assert term.exit_status() == 0  # the cancel was delivered, as with Esc in the TUI
    result, status = asker.result()
    assert status == 1
    assert result["details"]["reason"] == "cancelled"  # type: ignore[index]


def test_a_file_attached_in_attach_reaches_the_waiting_asker(
    ask, terminal, tmp_path: Path, asks: Path
) -> None:
    """The TUI's attach key in ``pi-ask attach``: the file is copied into the pending ask's
    folder, the asker takes it from there and keeps it in its own attachments folder once the
    ask's folder is gone."""
    (tmp_path / "trace.log").write_text("Traceback: boom\n", encoding="utf-8")
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    term = terminal("attach", info.ask_id)
    term.wait_for("Which database?")
    term.wait_for("a attach")
    term.press("a")
    term.wait_for("Attach a copy of a file to this answer")
    term.press("text:trace.log")  # the whole name: its one completion adds nothing
    term.wait_for("trace.log")
    term.press("enter")
    term.wait_for("Attached 1: trace.log (16 B)")
    copies = list((info.folder / "attachments").iterdir())
    assert [p.name for p in copies] == ["trace.log"]
    term.press("2")
    term.wait_for("Which ORM?")
    term.press("1")
    result = _submitted(term, asker)
    (attached,) = result["details"]["answers"]["db"]["attachments"]  # type: ignore[index]
    kept = Path(attached["path"])
    assert kept == tmp_path / "state" / "attachments" / info.ask_id / "trace.log"
    assert kept.read_text(encoding="utf-8") == "Traceback: boom\n"
    assert os.stat(kept.parent).st_mode & 0o777 == 0o700
    assert "attached: trace.log (16 B)" in result["content"][0]["text"]  # type: ignore[index]
    assert not info.folder.exists()


def test_attach_in_the_plain_face_carries_a_file(ask, terminal, tmp_path: Path, asks: Path) -> None:
    (tmp_path / "notes.md").write_text("# notes\n", encoding="utf-8")
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    term = terminal("attach", "--ui", "plain")
    term.wait_for("Which database?")
    term.press("text:/attach ../elsewhere.txt\r")
    term.wait_for("Not attached:")
    term.press("text:/attach notes.md\r")
    term.wait_for("Attached notes.md (8 B) to this answer.")
    result = _submitted_in_plain(term, asker)
    (attached,) = result["details"]["answers"]["db"]["attachments"]  # type: ignore[index]
    assert Path(attached["path"]).read_text(encoding="utf-8") == "# notes\n"
    assert Path(attached["path"]).parent == tmp_path / "state" / "attachments" / info.ask_id


def _asker_allows_one_file_and_this_terminal_five(tmp_path: Path) -> None:
    """Files for the test's answering terminals, and its config rewritten once the asker
    published its ask: the terminal's own ``[attachments]`` would take five files."""
    for name in ("one.txt", "two.txt"):
        (tmp_path / name).write_text(f"{name}\n", encoding="utf-8")
    (tmp_path / "config.toml").write_text("[attachments]\nmax_files = 5\n", encoding="utf-8")


ONE_FILE = "Not attached: two.txt: an ask takes at most 1 attached file."


def test_attach_holds_files_to_the_asker_s_limits(
    ask, terminal, tmp_path: Path, asks: Path
) -> None:
    """The asker keeps only the files within its own limits (written in the ask's summary):
    the answering terminal refuses past them at once, not by its own settings."""
    (tmp_path / "config.toml").write_text("[attachments]\nmax_files = 1\n", encoding="utf-8")
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    assert info.files().max_files == 1
    _asker_allows_one_file_and_this_terminal_five(tmp_path)
    term = terminal("attach", info.ask_id)
    term.wait_for("Which database?")
    term.wait_for("a attach")
    term.press("a")
    term.wait_for("Attach a copy of a file to this answer")
    term.press("text:one.txt", "enter")
    term.wait_for("Attached 1: one.txt")
    term.press("2")
    term.wait_for("Which ORM?")
    term.press("a")
    term.wait_for("Attach a copy of a file to this answer")
    term.press("text:two.txt", "enter")
    term.wait_for(ONE_FILE)
    assert [p.name for p in (info.folder / "attachments").iterdir()] == ["one.txt"]
    term.press("esc")  # closes the prompt; what was attached stays
    term.wait(lambda: "Attach a copy" not in term.text())
    term.press("1")
    result = _submitted(term, asker)
    answers = result["details"]["answers"]  # type: ignore[index]
    assert [a["name"] for a in answers["db"]["attachments"]] == ["one.txt"]
    assert "attachments" not in answers["orm"] or answers["orm"]["attachments"] == []


def test_attach_in_the_plain_face_holds_files_to_the_asker_s_limits(
    ask, terminal, tmp_path: Path, asks: Path
) -> None:
    (tmp_path / "config.toml").write_text("[attachments]\nmax_files = 1\n", encoding="utf-8")
    asker = ask("--wait")
    (info,) = pending(asks, 1)
    _asker_allows_one_file_and_this_terminal_five(tmp_path)
    term = terminal("attach", "--ui", "plain")
    term.wait_for("Which database?")
    term.press("text:/attach one.txt\r")
    term.wait_for("Attached one.txt (8 B) to this answer.")
    term.press("text:/attach two.txt\r")
    term.wait_for(ONE_FILE)
    assert [p.name for p in (info.folder / "attachments").iterdir()] == ["one.txt"]
    result = _submitted_in_plain(term, asker)
    (attached,) = result["details"]["answers"]["db"]["attachments"]  # type: ignore[index]
    assert attached["name"] == "one.txt"


def test_attach_and_the_inbox_without_a_terminal_say_so_in_one_line(
    ask, asks: Path, env: dict[str, str], tmp_path: Path
) -> None:
    asker = ask("--wait")
    pending(asks, 1)
    for args, status, words in (
        (["attach"], 1, "attach needs a terminal to draw on"),
        (["inbox"], 2, "the inbox needs a terminal to draw on"),
    ):
        done = subprocess.run(
            [*pi_ask_command(), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            start_new_session=True,  # no controlling terminal, as a background job
            timeout=60,
            check=False,
        )
        assert done.returncode == status, done.stderr
        assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert asker.process.poll() is None  # its ask still pending, untouched
    pending(asks, 1)
