"""The plain face says Markdown as clean text: no markup for a screen reader to read out."""

from __future__ import annotations

from pi_ask.faces.plain.render import preview_lines, question_lines
from pi_ask.markdown.switch import set_markdown_enabled
from tests.faces.tui.driver import state_for
from tests.markdown import fixtures

PAYLOAD = {
    "questions": [
        {
            "id": "q",
            "type": "preview",
            "prompt": "Keep **which** loader? See [notes](https://example.com/n).",
            "options": [
                {"value": "a", "label": "Cached", "preview": fixtures.CODE},
                {
                    "value": "b",
                    "label": "Fresh",
                    "description": "reads `config.toml`",
                    "preview": "x",
                },
            ],
        }
    ]
}


def test_a_question_with_markdown_reads_as_clean_text() -> None:
    lines = question_lines(state_for(PAYLOAD), 0)
    text = "\n".join(lines)
    assert "Keep which loader? See notes (https://example.com/n)." in lines
    assert "     reads config.toml" in lines
    assert "Code (python):" in text and "End of code." in text
    assert "**" not in text and "```" not in text and "`" not in text


def test_a_long_markdown_preview_is_cut_by_source_lines() -> None:
    state = state_for(PAYLOAD)
    option = state.questions[0].options[0]
    lines = preview_lines(option._replace(preview="\n".join(["- *x*"] * 50)), 1, 12)
    assert lines[1] == "       Item: x" and len(lines) == 14
    assert lines[-1].endswith("(38 more lines: /preview 1 shows them all)")


def test_with_markdown_off_the_text_is_shown_as_written() -> None:
    set_markdown_enabled(False)
    assert "Keep **which** loader? See [notes](https://example.com/n)." in question_lines(
        state_for(PAYLOAD), 0
    )
