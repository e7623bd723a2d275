"""Live reload: the store watches its file on the event loop."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

from pi_ask.config.settings import Settings
from pi_ask.config.store import SettingsStore


async def wait_for(predicate: Callable[[], bool], timeout: float = 60.0) -> bool:
    """True as soon as ``predicate`` holds, False after ``timeout`` seconds.

    The default is a generous cap for a loaded machine; how fast a reload is (a fraction of
    a second) is measured by ``benchmarks/config_reload.py``, not here.
    """
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def watched(config: Path) -> tuple[SettingsStore, list[Settings]]:
    store = SettingsStore(config)
    heard: list[Settings] = []
    store.subscribe(heard.append)
    return store, heard


def test_a_saved_edit_reaches_subscribers(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"

    async def scenario() -> None:
        store, heard = watched(config)
        stop = store.start_watching(asyncio.get_running_loop(), interval=0.05)
        config.write_text("[behaviour]\nshow_footer_hints = false\n")
        assert await wait_for(lambda: bool(heard))
        assert heard[-1].behaviour.show_footer_hints is False
        stop()

    asyncio.run(scenario())


def test_a_save_between_loading_and_watching_is_not_missed(tmp_path: Path) -> None:
    """The flow loads its settings before the first frame and watches after it."""
    config = tmp_path / "config.toml"
    config.write_text("[behaviour]\nshow_footer_hints = true\n")

    async def scenario() -> None:
        store, heard = watched(config)
        config.write_text("[behaviour]\nshow_footer_hints = false\n")  # not watched yet
        stop = store.start_watching(asyncio.get_running_loop(), interval=0.05)
        assert await wait_for(lambda: bool(heard))
        assert store.snapshot().behaviour.show_footer_hints is False
        stop()

    asyncio.run(scenario())


def test_save_by_rename_is_picked_up(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"

    async def scenario() -> None:
        store, heard = watched(config)
        stop = store.start_watching(asyncio.get_running_loop())
        # What vim and most editors do: write a new file, then rename it over the old one.
        fresh = tmp_path / "config.toml~new"
        fresh.write_text("[notifications]\nenabled = false\n")
        os.replace(fresh, config)
        assert await wait_for(lambda: bool(heard))
        assert store.snapshot().notifications.enabled is False
        stop()

    asyncio.run(scenario())


def test_an_invalid_edit_keeps_the_last_good_settings_and_sets_a_notice(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"

    async def scenario() -> None:
        store, heard = watched(config)
        stop = store.start_watching(asyncio.get_running_loop())
        config.write_text("[behaviour]\nshow_footer_hints = false\n")
        assert await wait_for(lambda: len(heard) == 1)
        config.write_text("[behaviour]\nshow_footer_hints = \n")
        assert await wait_for(lambda: store.notice is not None)
        assert store.notice is not None and store.notice.kind == "error"
        assert "Kept the previous settings" in store.notice.text
        assert store.snapshot().behaviour.show_footer_hints is False
        assert len(heard) == 2  # told about the notice, with the same settings
        assert heard[-1] == heard[0]
        stop()

    asyncio.run(scenario())


def test_a_file_removed_while_watched_means_defaults_and_coming_back_is_seen(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"

    async def scenario() -> None:
        store, _heard = watched(config)
        store.set("behaviour.show_footer_hints", False)
        stop = store.start_watching(asyncio.get_running_loop())
        config.unlink()
        assert await wait_for(lambda: store.snapshot().behaviour.show_footer_hints)
        assert store.snapshot() == Settings()
        config.write_text("[behaviour]\nshow_footer_hints = false\n")
        assert await wait_for(lambda: not store.snapshot().behaviour.show_footer_hints)
        stop()

    asyncio.run(scenario())


def test_stopping_ends_the_polling(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"

    async def scenario() -> None:
        store, heard = watched(config)
        stop = store.start_watching(asyncio.get_running_loop(), interval=0.02)
        stop()
        stop()
        config.write_text("[behaviour]\nshow_footer_hints = false\n")
        assert not await wait_for(lambda: bool(heard), timeout=0.15)

    asyncio.run(scenario())
