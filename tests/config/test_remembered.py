"""The asker's few settings, remembered from a full read while the file and variables hold."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_ask.config.remembered import AskerSettings, asker_settings, recall, remember
from pi_ask.config.store import SettingsStore

EDITED = (
    '[behaviour]\nno_terminal = "wait"\npresent_single_as_multi = true\n[inbox]\ntmux = "off"\n'
    "[attachments]\nmax_files = 3\nmax_mb = 2\n"
)


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("PI_ASK_CONFIG", str(path))
    monkeypatch.setenv("PI_ASK_STATE_DIR", str(tmp_path / "state"))
    return path


def _thorough(path: Path) -> AskerSettings:
    """What a fresh store makes of the file (not the process's cached one)."""
    return AskerSettings.of(SettingsStore(path, create=False).snapshot())


def test_what_is_remembered_is_what_the_store_reads(config: Path) -> None:
    config.write_text(EDITED, encoding="utf-8")
    first = asker_settings()
    assert first == _thorough(config)
    assert (first.no_terminal, first.tmux, first.present_single_as_multi) == ("wait", "off", True)
    assert (first.max_files, first.max_bytes) == (3, 2_000_000)
    assert recall(config) == first  # kept for the next asker


def test_any_write_to_the_file_is_a_miss_even_of_the_same_size(config: Path) -> None:
    config.write_text(EDITED, encoding="utf-8")
    remember(config, _thorough(config))
    assert recall(config) is not None
    with config.open("r+", encoding="utf-8") as handle:  # in place, same size, same inode
        handle.write(EDITED.replace('"off"', '"pop"'))
    assert recall(config) is None
    config.write_text(EDITED.replace('"wait"', '"answer"'), encoding="utf-8")
    assert asker_settings().no_terminal == "answer"


def test_a_setting_variable_is_part_of_what_was_read(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config.write_text(EDITED, encoding="utf-8")
    assert asker_settings().tmux == "off"
    monkeypatch.setenv("PI_ASK_INBOX__TMUX", "window")
    assert recall(config) is None
    assert asker_settings().tmux == "window" == _thorough(config).tmux


@pytest.mark.parametrize(
    "memo",
    [b"", b"not json", b"[]", b'{"key": 1}', b"{" * 5000, b'{"key": null, "settings": [1]}'],
)
def test_a_damaged_memo_is_a_miss(config: Path, memo: bytes) -> None:
    config.write_text(EDITED, encoding="utf-8")
    remember(config, _thorough(config))
    (kept,) = (Path(os.environ["PI_ASK_STATE_DIR"]) / "settings").iterdir()
    kept.write_bytes(memo)
    assert recall(config) is None
    assert asker_settings() == _thorough(config)


def test_a_memo_of_wrong_values_is_a_miss(config: Path) -> None:
    config.write_text(EDITED, encoding="utf-8")
    good = _thorough(config)
    remember(config, good._replace(face="web"))  # type: ignore[arg-type]
    assert recall(config) is None
    remember(config, good._replace(answer_timeout_s=-1.0))
    assert recall(config) is None
    remember(config, good._replace(max_files=True))
    assert recall(config) is None


def test_no_file_no_memo(config: Path) -> None:
    assert recall(config) is None
    asker_settings()  # writes the commented default file, then remembers it
    assert config.exists() and recall(config) == _thorough(config)
