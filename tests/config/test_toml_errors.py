"""A TOML error names the line that opened what was left open, not only where it was noticed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_ask.config.loading import read_file
from pi_ask.config.toml_errors import opening_line

UNCLOSED = """\
schema_version = 1

[notifications]
channels = [
  "bell",   # a comment with a ] in it
  "osc9",

[behaviour]
show_footer_hints = true
"""


def test_an_unclosed_array_names_the_line_it_opens_on(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(UNCLOSED, encoding="utf-8")
    content = read_file(path)
    assert content.status == "not_toml"
    assert "(at line 8, column" in content.detail
    assert content.detail.endswith("; it opens at line 4")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a = [ { x = 1 },\n\nb = 2\n", 1),
        ('a = 1\nb = """\nnever closed\n', 2),
        ('a = ["]", "[",\n\n[t]\n', 1),
        ("a = [[1, 2], [3\n\nb = 1\n", 1),
    ],
)
def test_the_opening_line_of_brackets_and_strings(text: str, line: int) -> None:
    import tomllib

    with pytest.raises(tomllib.TOMLDecodeError) as raised:
        tomllib.loads(text)
    assert opening_line(text, str(raised.value)) == line


def test_an_error_on_its_own_line_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("a = 1\nb = = 2\n", encoding="utf-8")
    detail = read_file(path).detail
    assert "opens at line" not in detail
    assert "line 2" in detail
