"""The settings store on real files: create, toggle, revert on failure, reset, reload."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from pi_ask.config.settings import Settings
from pi_ask.config.store import SettingsStore, open_store
from pi_ask.config.toml_text import default_text

needs_permissions = pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return tmp_path / "pi-ask" / "config.toml"


def test_the_file_is_created_with_commented_defaults(config: Path) -> None:
    store = SettingsStore(config)
    assert config.read_text() == default_text()
    assert store.snapshot() == Settings()
    assert store.notice is None
    assert store.file_status == "parsed"


def test_create_false_leaves_an_absent_file_absent(config: Path) -> None:
    store = SettingsStore(config, create=False)
    assert not config.exists()
    assert store.snapshot() == Settings()


def test_a_toggle_is_saved_at_once_and_subscribers_hear_it(config: Path) -> None:
    store = SettingsStore(config)
    heard: list[bool] = []
    unsubscribe = store.subscribe(lambda s: heard.append(s.behaviour.show_footer_hints))
    result = store.set("behaviour.show_footer_hints", False)
    assert result.ok and result.error is None and result.info is None
    assert store.snapshot().behaviour.show_footer_hints is False
    assert tomllib.loads(config.read_text())["behaviour"]["show_footer_hints"] is False
    assert heard == [False]
    unsubscribe()
    store.set("behaviour.show_footer_hints", True)
    assert heard == [False]
    assert SettingsStore(config).snapshot().behaviour.show_footer_hints is True


def test_a_toggle_on_an_absent_file_writes_the_defaults_and_the_value(config: Path) -> None:
    store = SettingsStore(config, create=False)
    assert store.set("notifications.enabled", False).ok
    text = config.read_text()
    assert text == default_text().replace("enabled = true", "enabled = false")


def test_a_bad_key_or_value_is_refused_without_writing(config: Path) -> None:
    store = SettingsStore(config)
    before = config.read_bytes()
    assert (
        store.set("behaviour.nope", True).error == "behaviour.nope is not a setting pi-ask can save"
    )
    refused = store.set("answer.extraction_retries", 9)
    assert refused.error == "answer.extraction_retries: 9 is not a whole number from 0 to 3"
    assert config.read_bytes() == before


@needs_permissions
def test_a_read_only_file_reverts_the_toggle_with_a_message(config: Path) -> None:
    store = SettingsStore(config)
    config.chmod(0o444)
    heard: list[Settings] = []
    store.subscribe(heard.append)
    result = store.set("behaviour.show_footer_hints", False)
    assert not result.ok
    assert result.error is not None
    assert result.error.startswith(
        f"Unable to save ask config at {config}. The file may be read-only or managed "
        "outside pi-ask; edit it manually. Permission denied"
    )
    assert "/reload" not in result.error
    assert store.snapshot().behaviour.show_footer_hints is True
    assert config.read_text() == default_text()
    assert heard == []


def test_a_folder_where_the_file_should_be(config: Path) -> None:
    config.mkdir(parents=True)
    store = SettingsStore(config)
    assert store.snapshot() == Settings()
    assert store.file_status == "unreadable"
    assert store.notice is not None and store.notice.kind == "error"
    assert "it is a folder, not a file" in store.notice.text
    result = store.set("behaviour.show_footer_hints", False)
    assert not result.ok and result.error is not None
    assert "it is a folder" in result.error
    reset = store.request_reset(now=0.0), store.request_reset(now=1.0)
    assert reset[1].status == "failed"
    assert config.is_dir()


def test_an_unparsable_file_loads_defaults_refuses_toggles_and_stays_untouched(
    config: Path,
) -> None:
    config.parent.mkdir(parents=True)
    broken = b"[behaviour]\nshow_footer_hints = fal"
    config.write_bytes(broken)
    store = SettingsStore(config)
    assert store.snapshot() == Settings()
    assert store.notice is not None and store.notice.kind == "error"
    # The notice names the file with its folder, so the user can find it.
    assert store.notice.text.startswith(f"{config}: not valid TOML (")
    assert "Loaded defaults for this session and left the config file unchanged" in (
        store.notice.text
    )
    result = store.set("behaviour.show_footer_hints", True)
    assert not result.ok and result.error is not None
    assert "not valid TOML" in result.error and "nothing was written" in result.error
    assert config.read_bytes() == broken
    # Nothing beside the file: no temporary, and the lock lives in the locks folder.
    assert sorted(path.name for path in config.parent.iterdir()) == ["config.toml"]


def test_reset_needs_two_requests_inside_two_seconds(config: Path) -> None:
    store = SettingsStore(config)
    store.set("behaviour.show_footer_hints", False)
    assert store.request_reset(now=100.0).status == "armed"
    assert store.reset_armed(now=101.9)
    assert not store.reset_armed(now=102.1)
    assert store.request_reset(now=102.5).status == "armed"  # too late: armed again
    assert store.snapshot().behaviour.show_footer_hints is False
    assert store.request_reset(now=104.0).status == "reset"
    assert store.snapshot().behaviour.show_footer_hints is True
    assert config.read_text() == default_text()
    assert not store.reset_armed(now=104.1)


def test_a_toggle_or_cancel_disarms_reset(config: Path) -> None:
    store = SettingsStore(config)
    store.request_reset(now=1.0)
    store.cancel_reset()
    assert store.request_reset(now=1.5).status == "armed"
    store.set("notifications.enabled", False)
    assert store.request_reset(now=2.0).status == "armed"


def test_reset_of_a_valid_file_keeps_comments_and_unknown_keys(config: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_text("# mine\n[behaviour]\nshow_footer_hints = false # why\nextra = 1\n")
    store = SettingsStore(config)
    store.request_reset(now=0.0)
    assert store.request_reset(now=0.5).status == "reset"
    assert config.read_text() == "# mine\n[behaviour]\nshow_footer_hints = true # why\nextra = 1\n"


def test_reset_of_an_unparsable_file_keeps_it_as_bak(config: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_text("this is = = not toml")
    store = SettingsStore(config)
    store.request_reset(now=0.0)
    result = store.request_reset(now=0.1)
    assert result.status == "reset"
    assert result.backup == config.with_name("config.toml.bak")
    assert result.backup.read_text() == "this is = = not toml"
    assert config.read_text() == default_text()
    assert store.notice is None
    assert store.set("behaviour.show_footer_hints", False).ok


def test_a_toggle_of_an_environment_overridden_key_writes_and_says_so(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS", "false")
    store = SettingsStore(config)
    assert store.snapshot().behaviour.show_footer_hints is False
    result = store.set("behaviour.show_footer_hints", True)
    assert result.ok
    assert result.info == (
        "Saved, but PI_ASK_BEHAVIOUR__SHOW_FOOTER_HINTS is set in the environment and still "
        "wins over the file."
    )
    assert tomllib.loads(config.read_text())["behaviour"]["show_footer_hints"] is True
    assert store.snapshot().behaviour.show_footer_hints is False


def test_reload_applies_an_edit_and_an_invalid_edit_keeps_the_last_good_settings(
    config: Path,
) -> None:
    store = SettingsStore(config)
    config.write_text("[behaviour]\nshow_footer_hints = false\n")
    assert store.reload()
    assert store.snapshot().behaviour.show_footer_hints is False
    config.write_text("[behaviour]\nshow_footer_hints = ")
    assert not store.reload()
    assert store.snapshot().behaviour.show_footer_hints is False
    assert store.notice is not None and "Kept the previous settings" in store.notice.text
    config.write_text("[behaviour]\nshow_footer_hints = true\n")
    assert store.reload()
    assert store.notice is None


def test_a_problem_notice_names_the_first_and_counts_the_rest(config: Path) -> None:
    config.parent.mkdir(parents=True)
    config.write_text(
        "[behaviour]\nshow_footer_hints = 'no'\nfoo = 1\n[keymaps.main]\nconfirm = 'space'\n"
    )
    store = SettingsStore(config)
    assert store.notice is not None
    assert store.notice.kind == "error"
    assert store.notice.text == (
        f'{config}: behaviour.show_footer_hints: "no" is not true or false; using the '
        "default (true) (+2 more — run pi-ask config validate)"
    )
    assert len(store.problems) == 3


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs procfs")
def test_a_file_that_cannot_be_created_gives_a_warning_notice() -> None:
    # Nothing, not even root, can create a folder in /proc: the write fails for sure.
    path = Path("/proc/self/pi-ask-test/config.toml")
    store = SettingsStore(path)
    assert store.snapshot() == Settings()
    assert store.notice is not None and store.notice.kind == "warning"
    assert store.notice.text.startswith(
        f"Unable to save ask config at {path}. The file may be read-only"
    )


def test_a_file_under_a_file_cannot_be_read(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    store = SettingsStore(blocker / "config.toml")
    assert store.snapshot() == Settings()
    assert store.notice is not None and "cannot be read (Not a directory)" in store.notice.text


def test_a_symlinked_config_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "pi-ask.toml"
    real.parent.mkdir()
    real.write_text("# managed by dotfiles\n")
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    saved = SettingsStore(link).set("behaviour.show_footer_hints", False)
    assert saved.ok, saved.error
    assert link.is_symlink() and link.resolve() == real
    assert tomllib.loads(real.read_text()) == {"behaviour": {"show_footer_hints": False}}
    assert real.read_text().startswith("# managed by dotfiles\n")
    assert SettingsStore(real).snapshot().behaviour.show_footer_hints is False
    # Nothing written beside either name: no lock, no temporary file.
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["config.toml", "dotfiles"]
    assert [entry.name for entry in real.parent.iterdir()] == ["pi-ask.toml"]


def test_open_store_is_cached_per_path_and_creates_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "cached.toml"
    first = open_store(path, create=False)
    assert not path.exists()
    assert open_store(path) is first
    assert path.exists()


def test_a_notice_writes_the_home_folder_as_a_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = tmp_path / ".config" / "pi-ask" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[behaviour]\nshow_footer_hints = 'no'\n", encoding="utf-8")
    notice = SettingsStore(config).notice
    assert notice is not None
    assert notice.text.startswith("~/.config/pi-ask/config.toml: behaviour.show_footer_hints: ")
