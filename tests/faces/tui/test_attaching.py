"""The TUI's attach action, headless: keys through a pipe, the screen read through pyte."""

from __future__ import annotations

import stat
from pathlib import Path

from pi_ask.config.store import SettingsStore
from pi_ask.keymaps.key_ids import keys_label
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from tests.faces.tui.driver import Driver, run, state_for


def work_tree(tmp_path: Path) -> tuple[Path, Path]:
    """A working folder with two files, and the ask's attachments folder (not made yet)."""
    work = tmp_path / "work"
    (work / "shots").mkdir(parents=True)
    (work / "shots" / "login.png").write_bytes(b"\x89PNG" + b"x" * 1496)
    (work / "notes.txt").write_text("the log says no\n", encoding="utf-8")
    return work, tmp_path / "state" / "attachments" / "ask-1"


def screen(driver: Driver) -> str:
    return "\n".join(driver.lines())


def test_a_file_is_attached_through_the_prompt_and_taken_off_again(
    tmp_path: Path, store: SettingsStore
) -> None:
    work, folder = work_tree(tmp_path)
    attach_key = keys_label(DEFAULT_KEYMAPS.keys("main", "attach"))
    detach_key = keys_label(DEFAULT_KEYMAPS.keys("main", "detach"))

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        assert f"{attach_key} attach" in screen(driver)
        assert "detach" not in screen(driver)  # nothing attached yet
        await driver.press("a")
        assert "Attach a copy of a file to this answer" in screen(driver)
        assert "Enter attach · Esc close" in screen(driver)
        # The prompt completes paths from the editors' list while typing.
        await driver.press("text:logi")
        await driver.until(driver.flow.attaching.field.has_completions)
        await driver.until(lambda: "shots/login.png" in screen(driver))
        await driver.press("enter")  # takes the completion, does not attach yet
        assert driver.flow.attaching.field.text == "shots/login.png"
        assert not folder.exists()
        await driver.press("enter")
        text = screen(driver)
        assert "Attached 1: login.png (1.5 KB)" in text
        assert "Attached login.png (1.5 KB) to this answer." in text
        assert f"{detach_key} detach" in text
        assert "Attach a copy" not in text  # the prompt closed
        answer = dict(driver.flow.state.answers)["lang"]
        (item,) = answer.attachments
        copy = Path(item.path)
        assert copy.parent == folder and copy.read_bytes().startswith(b"\x89PNG")
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600
        # The notice is said once: the next key clears it.
        await driver.press("down")
        assert "to this answer." not in screen(driver)
        await driver.press("shift+a")
        text = screen(driver)
        assert "Removed login.png (1.5 KB) from this answer." in text
        assert "Attached 1:" not in text and "detach" not in text
        assert "lang" not in dict(driver.flow.state.answers)
        await driver.close()

    run(scenario())


def test_enter_attaches_a_whole_name_its_completion_would_not_change(
    tmp_path: Path, store: SettingsStore
) -> None:
    # The menu offers the name typed in full first, then a longer one: taking the first would
    # change nothing, so Enter attaches (the menu comes while typing, from a worker thread:
    # an Enter that took it did nothing, and the user had to press it again).
    work, folder = work_tree(tmp_path)
    (work / "notes.txt.bak").write_text("older\n", encoding="utf-8")

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        await driver.press("a")
        await driver.press("text:notes.txt")
        await driver.until(driver.flow.attaching.field.has_completions)
        await driver.until(lambda: "notes.txt.bak" in screen(driver))  # the menu is drawn
        await driver.press("enter")
        assert "Attached 1: notes.txt (16 B)" in screen(driver)
        (item,) = dict(driver.flow.state.answers)["lang"].attachments
        assert item.name == "notes.txt"

    run(scenario())


def test_a_refusal_stays_under_the_prompt_with_what_was_typed(
    tmp_path: Path, store: SettingsStore
) -> None:
    work, folder = work_tree(tmp_path)
    (tmp_path / "outside.txt").write_text("secret", encoding="utf-8")

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        await driver.press("a", "text:missing.txt", "enter")
        assert "Not attached: missing.txt: no such file." in screen(driver)
        assert driver.flow.attaching.is_open
        assert driver.flow.attaching.field.text == "missing.txt"
        for _ in "missing.txt":
            await driver.press("backspace")
        await driver.press("text:../outside.txt", "enter")
        assert "only files under the working folder or home" in screen(driver)
        await driver.press("esc")
        assert not driver.flow.attaching.is_open
        assert "Not attached" not in screen(driver)
        assert driver.flow.state.answers == () and not folder.exists()
        # Keys of the flow work again once the prompt is closed.
        await driver.press("down")
        assert driver.flow.state.row == 1
        await driver.close()

    run(scenario())


def test_the_prompt_takes_every_key_it_types(tmp_path: Path, store: SettingsStore) -> None:
    """Digits, ``?``, ``n`` and ``t`` are text in the prompt, not the flow's keys."""
    work, folder = work_tree(tmp_path)
    (work / "n?t 1.txt").write_text("odd name", encoding="utf-8")

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        await driver.press("a", "text:n?t 1.txt")
        assert driver.flow.attaching.field.text == "n?t 1.txt"
        assert driver.flow.panel is None and driver.flow.state.answers == ()
        await driver.press("enter")
        # The copy's name is made safe; it is still the file typed.
        (item,) = dict(driver.flow.state.answers)["lang"].attachments
        assert item.name == "n_t 1.txt" and Path(item.path).read_text() == "odd name"
        await driver.close()

    run(scenario())


def test_at_path_in_an_answer_stays_text(tmp_path: Path, store: SettingsStore) -> None:
    work, folder = work_tree(tmp_path)

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        await driver.press("4", "text:see @notes.tx")
        await driver.until(driver.flow.editor.has_completions)
        await driver.press("enter", "enter")  # the completion, then the answer
        answer = dict(driver.flow.state.answers)["lang"]
        assert answer.custom_text == "see @notes.txt" and answer.attachments == ()
        assert not folder.exists()
        await driver.close()

    run(scenario())


def test_an_ask_that_cannot_carry_files_says_so(tmp_path: Path, store: SettingsStore) -> None:
    """No attachments folder (a host without one): the footer keeps the reference's hints and
    the key says why nothing opens."""
    work, _ = work_tree(tmp_path)

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, cwd=work).start()
        assert "attach" not in screen(driver)
        await driver.press("a")
        assert "Files cannot be attached to an ask answered from here." in screen(driver)
        assert not driver.flow.attaching.is_open
        await driver.close()

    run(scenario())


def test_the_keys_follow_the_keymaps(tmp_path: Path, store: SettingsStore) -> None:
    work, folder = work_tree(tmp_path)
    store.path.write_text('[keymaps.main]\nattach = "ctrl+o"\n', encoding="utf-8")
    store.reload()

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        assert "Ctrl+O attach" in screen(driver)
        await driver.press("a")
        assert not driver.flow.attaching.is_open
        await driver.press("ctrl+o", "text:notes.txt", "enter")
        assert [a.name for a in dict(driver.flow.state.answers)["lang"].attachments] == [
            "notes.txt"
        ]
        await driver.close()

    run(scenario())


def test_the_result_lists_the_attachment(tmp_path: Path, store: SettingsStore) -> None:
    work, folder = work_tree(tmp_path)

    async def scenario() -> None:
        driver = Driver(state_for("payload_a.json"), store, cwd=work, attachments_folder=folder)
        await driver.start()
        await driver.press("a", "text:notes.txt", "enter", "1")
        await driver.press("right", "right")  # past features and layout: the review
        assert "     Attached 1: notes.txt (16 B)" in screen(driver)
        await driver.press("1", "1")
        result = await driver.result()
        await driver.close()
        return result

    result = run(scenario())
    files = result.details.answers["lang"].attachments
    assert [(a.name, a.size, a.media_type) for a in files] == [("notes.txt", 16, "text/plain")]
    assert "  attached: notes.txt (16 B)" in result.text
