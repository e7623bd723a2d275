"""``@`` file completion: under the working directory only, git-ignored files skipped."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.file_completer import at_query
from pi_ask.faces.tui.file_index import FileIndex
from tests.faces.tui.driver import Driver, run, state_for


def make_tree(root: Path) -> None:
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("", encoding="utf-8")
    (root / "src" / "mailer.py").write_text("", encoding="utf-8")
    (root / "README.md").write_text("", encoding="utf-8")
    (root / "build").mkdir()
    (root / "build" / "main.o").write_text("", encoding="utf-8")


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_git_ignored_files_are_skipped(tmp_path: Path) -> None:
    make_tree(tmp_path)
    git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    index = FileIndex(tmp_path)
    assert "build/main.o" not in index.paths()
    assert "src/main.py" in index.paths()  # untracked but not ignored
    assert "src/" in index.paths()


def test_outside_git_a_walk_skips_tool_folders(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.js").write_text("", encoding="utf-8")
    paths = FileIndex(tmp_path).paths()
    assert "build/main.o" in paths
    assert not any(p.startswith("node_modules") for p in paths)


def test_search_ranks_and_never_leaves_the_tree(tmp_path: Path) -> None:
    make_tree(tmp_path)
    (tmp_path / "src" / "link").symlink_to(tmp_path.parent, target_is_directory=True)
    index = FileIndex(tmp_path)
    assert index.search("ma") == ["src/main.py", "build/main.o", "src/mailer.py"]
    assert index.search("SRC")[0] == "src/"
    assert index.search("../") == []
    assert index.search("/etc") == []
    assert index.search("~") == []
    assert not any(p.startswith("src/link/") for p in index.paths())


def test_walk_is_capped(tmp_path: Path) -> None:
    for n in range(30):
        (tmp_path / f"f{n}.txt").write_text("", encoding="utf-8")
    assert len([p for p in FileIndex(tmp_path, walk_limit=10).paths() if not p.endswith("/")]) == 10


def test_at_query() -> None:
    assert at_query("see @src/ma") == "src/ma"
    assert at_query("@") == ""
    assert at_query("mail me@home") is None
    assert at_query("done @file ") is None


def test_completing_in_the_answer_editor(tmp_path: Path, store: SettingsStore) -> None:
    make_tree(tmp_path)

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, cwd=tmp_path).start()
        await driver.press("4", "text:see @mai")
        await driver.until(driver.flow.editor.has_completions)
        await driver.until(lambda: "src/mailer.py" in "\n".join(driver.lines()))
        await driver.press("down", "down")
        assert "→ build/main.o" in "\n".join(driver.lines())
        await driver.press("up")
        assert "→ src/main.py" in "\n".join(driver.lines())
        await driver.press("enter")  # takes the completion, does not submit
        assert driver.flow.editor.text == "see @src/main.py "
        assert driver.flow.state.tab == 0
        await driver.press("enter")
        await driver.until(lambda: driver.flow.state.tab == 1)
        assert dict(driver.flow.state.answers)["lang"].custom_text == "see @src/main.py"
        await driver.close()

    run(scenario())
