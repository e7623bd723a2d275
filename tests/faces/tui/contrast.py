"""WCAG 2.x contrast, for colours as pyte reports them (``"8abeb7"``, ``"default"``)."""

from __future__ import annotations

AA_TEXT = 4.5
AA_MUTED = 3.0


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(hex_colour: str) -> float:
    """Relative luminance of ``rrggbb`` (a leading ``#`` is allowed)."""
    code = hex_colour.lstrip("#")
    red, green, blue = (int(code[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(red) + 0.7152 * _channel(green) + 0.0722 * _channel(blue)


def contrast(first: str, second: str) -> float:
    """The contrast ratio of two colours, from 1 to 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_known_ratios() -> None:
    assert round(contrast("#000000", "#ffffff"), 2) == 21.0
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54
    assert contrast("#777777", "#777777") == 1.0
