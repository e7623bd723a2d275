"""The reference screen gallery (screens.md S1-S13), drawn by the real flow through pyte."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask.config.store import SettingsStore
from tests.faces.tui.driver import FIXTURES, Driver, run, state_for

S11_KEYS = (
    "n", "text:Team already knows it", "enter", "down", "n",
    "text:Only if we must ship one binary", "enter", "up", "enter", "space", "down", "down",
    "space", "enter", "shift+n", "text:Need to see both first", "enter", "right",
)  # fmt: skip

S4_KEYS = (
    "shift+n", "text:Must also run on Windows", "enter", "down", "n",
    "text:Only if we must ship one binary", "enter",
)  # fmt: skip

SCREENS: dict[str, tuple[int, tuple[str, ...]]] = {
    "S1": (80, ()),
    "S2": (80, ("down", "down", "down", "text:Zig, if the team agrees")),
    "S3": (80, ("down", "n", "text:Only if we must ship one binary")),
    "S4": (
        80,
        (
            "shift+n",
            "text:Must also run on Windows",
            "enter",
            "down",
            "n",
            "text:Only if we must ship one binary",
            "enter",
        ),
    ),
    "S5": (80, ("t",)),
    "S6": (
        80,
        ("right", "space", "down", "down", "space", "down", "text:Audit log", "enter", "up"),
    ),
    "S7": (26, ("right",)),
    "S8": (100, ("right", "right")),
    "S9": (60, ("right", "right")),
    "S10": (80, ("enter", "esc")),
    "S11": (80, S11_KEYS),
    "S12": (80, (*S11_KEYS, "down")),
    "S13": (60, ("enter", "space", "enter", "enter", "1")),
}


def expected(name: str) -> list[str]:
    text = (FIXTURES / "screens" / f"{name}.txt").read_text(encoding="utf-8")
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


@pytest.mark.parametrize("name", sorted(SCREENS, key=lambda n: int(n[1:])))
def test_reference_screen(name: str, store: SettingsStore) -> None:
    width, keys = SCREENS[name]

    async def scenario() -> list[str]:
        driver = await Driver(state_for("payload_a.json"), store, width=width).start()
        await driver.press(*keys)
        lines = driver.lines()
        await driver.close()
        return lines

    assert run(scenario()) == expected(name)


def test_editor_bar_is_padded_to_the_right_edge(store: SettingsStore) -> None:
    """S2: the editor bar runs to column 80, the cursor cell right after the text."""

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("down", "down", "down")
        row, column = driver.find("Type answer...")
        assert column == 6
        assert driver.style_at(row, 5).bg != "default"
        assert driver.style_at(row, 79).bg == driver.style_at(row, 5).bg
        await driver.press("text:Zig, if the team agrees")
        row, column = driver.find("Zig, if the team agrees")
        cursor = driver.style_at(row, column + len("Zig, if the team agrees"))
        assert cursor.reverse
        assert not driver.style_at(row, column).reverse
        await driver.close()

    run(scenario())


def test_screen_roles_match_the_legend(store: SettingsStore) -> None:
    """S1 legend: the recommended marker warning, the focused row accent, pointer unstyled."""

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        row, column = driver.find("(recommended)")
        marker = driver.style_at(row, column)
        description = driver.style_at(row, column + len("(recommended) | "))
        focused = driver.find("1. Python")
        other = driver.find("2. Go")
        assert marker.fg == "f0c674"
        assert description.fg == "808080"
        assert driver.style_at(*focused).fg == "8abeb7"
        assert driver.style_at(focused[0], 0).fg == "default"
        assert driver.style_at(*other).fg == "default"
        tab = driver.find("☐ Language")
        assert driver.style_at(tab[0], tab[1]).bg != "default"
        await driver.close()

    run(scenario())


def test_fixtures_exist() -> None:
    assert all((FIXTURES / "screens" / f"{name}.txt").is_file() for name in SCREENS)
    assert Path(FIXTURES / "payload_a.json").is_file()
