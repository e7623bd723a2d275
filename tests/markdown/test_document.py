"""The parse: source lines to display lines, in windows, with the §12 deviations."""

from __future__ import annotations

import pytest

from pi_ask.markdown import document
from pi_ask.markdown.document import CODE_WINDOW, TEXT_WINDOW, Outline, outline, render
from pi_ask.markdown.lines import BLANK
from tests.markdown import fixtures


def roles_of(text: str) -> set[str]:
    return {role for line in render(text) for roles, _ in line.runs for role in roles.split()}


def test_every_source_line_gives_at_least_one_display_line() -> None:
    for text in (fixtures.CODE, fixtures.DIFF, fixtures.TABLE, fixtures.NESTED):
        source = outline(text)
        assert all(source.line(n) for n in range(len(source))), text


def test_fenced_code_is_highlighted_by_its_language() -> None:
    assert {"syntax-keyword", "syntax-function", "syntax-comment"} <= roles_of(fixtures.CODE)
    assert {"inserted", "deleted"} <= roles_of(fixtures.DIFF)
    # No language: code, not a guess.
    assert roles_of("```\ndef f(): pass\n```") == {"fence", "fence-end", "code"}


def test_code_asked_for_unhighlighted_is_plain_until_asked_for_highlighted() -> None:
    # A fence at the top level (a code window) and one in a list item (parsed with its
    # text window): both plain, then both coloured in the same outline.
    text = fixtures.CODE + "\n- step\n\n  ```python\n  import os\n  ```\n"
    source = Outline(text)

    def roles(highlighted: bool) -> set[str]:
        lines = source.all(highlighted)
        return {role for line in lines for roles, _ in line.runs for role in roles.split()}

    plain = roles(False)
    assert "code" in plain and not any(role.startswith("syntax-") for role in plain)
    assert {"syntax-keyword", "syntax-comment"} <= roles(True)
    runs = [run for line in source.all(True) for run in line.runs]
    assert ("code syntax-keyword", "import") in runs  # the list item's fence


def test_only_windows_with_uncoloured_code_are_parsed_again_once_highlighted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three text windows (cut at blank lines after TEXT_WINDOW lines): plain Markdown, a
    # list item's fence without a language, a list item's fence in Python. Drawn plain, then
    # highlighted: only the Python one has anything to colour, so only it is parsed again.
    plain = "\n".join(f"**line** {n}" for n in range(TEXT_WINDOW))
    unnamed = "- step\n\n  ```\n  echo hi\n  ```\n" + "\n" * TEXT_WINDOW
    python = "- step\n\n  ```python\n  import os\n  ```"
    text = f"{plain}\n\n{unnamed}\n{python}"
    source = Outline(text)
    assert [window.code for window in source.windows] == [False, False, False]
    parsed: list[int] = []
    real = document._parse

    def counting(lines: tuple[str, ...], highlighted: bool) -> object:
        parsed.append(len(lines))
        return real(lines, highlighted)

    monkeypatch.setattr(document, "_parse", counting)
    source.all(highlighted=False)
    assert len(parsed) == 3
    coloured = source.all(highlighted=True)
    assert len(parsed) == 4 and parsed[-1] == len(source.lines) - source.windows[2].start
    runs = [run for line in coloured for run in line.runs]
    assert ("code syntax-keyword", "import") in runs and ("code", "echo hi") in runs
    assert coloured == Outline(text).all(highlighted=True)  # as if drawn highlighted at once


def test_raw_html_stays_text_and_indented_lines_are_not_code() -> None:
    lines = render("<b>bold</b>\n\n    four spaces in")
    assert lines[0].runs == (("", "<b>bold</b>"),)
    assert lines[2].lead == (("", "    "),) and lines[2].runs == (("", "four spaces in"),)
    assert not lines[2].code


def test_a_long_text_is_cut_into_windows_parsed_on_demand() -> None:
    text = "\n\n".join(f"para **{n}**" for n in range(5_000))
    source = Outline(text)
    assert len(source.windows) > 5_000 * 2 // TEXT_WINDOW - 2
    assert source.line(9_000)[0].runs == (("", "para "), ("strong", "4500"))
    assert len(source._done) == 1  # only the window asked for was parsed


def test_a_long_fence_is_highlighted_a_window_at_a_time() -> None:
    code = "\n".join(f"x_{n} = {n}" for n in range(20_000))
    source = Outline(f"```python\n{code}\n```")
    assert len(source) == 20_002
    line = source.line(15_001)[0]
    assert line.code and ("code syntax-number", "15000") in line.runs
    assert len(source._done) == 1
    assert sum(window.code for window in source.windows) >= 20_000 // CODE_WINDOW


def test_an_empty_list_item_and_an_unclosed_fence_do_not_break_the_map() -> None:
    assert render("-\n- b")[0] != BLANK or render("-\n- b")[1].runs == (("", "b"),)
    unclosed = outline("```python\nprint(1)")
    assert len(unclosed) == 2 and unclosed.line(1)[0].code
