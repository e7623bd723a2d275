from __future__ import annotations

from pi_ask.answer.message_blocks import (
    ItemList,
    ListItem,
    Paragraph,
    read_blocks,
    split_sentences,
)


def test_paragraphs_lists_and_nesting() -> None:
    text = (
        "Intro line one\nline two.\n\n"
        "1. **Storage** — where?\n"
        "   continued here\n"
        "   - Redis\n"
        "   - Postgres\n"
        "2. Second\n\n"
        "Closing."
    )
    assert read_blocks(text) == (
        Paragraph("Intro line one line two."),
        ItemList(
            (
                ListItem(
                    "**Storage** — where? continued here",
                    "number",
                    (ListItem("Redis", "bullet"), ListItem("Postgres", "bullet")),
                ),
                ListItem("Second", "number"),
            )
        ),
        Paragraph("Closing."),
    )


def test_code_quotes_tables_and_rules_are_left_out() -> None:
    text = "```\nShould I?\n```\n> Quoted question?\n| a | b? |\n---\n# Heading\nText?"
    assert read_blocks(text) == (Paragraph("Heading", heading=True), Paragraph("Text?"))


def test_lettered_and_bold_numbered_items() -> None:
    blocks = read_blocks("A) Fly.io\nB) Render\n**3.** Third")
    assert blocks == (
        ItemList(
            (
                ListItem("Fly.io", "letter"),
                ListItem("Render", "letter"),
                ListItem("Third", "number"),
            )
        ),
    )


def test_sentences_keep_abbreviations_and_file_names() -> None:
    assert split_sentences("Use a tool, e.g. Ruff. Edit config.py now? Yes.") == (
        "Use a tool, e.g. Ruff.",
        "Edit config.py now?",
        "Yes.",
    )


def test_a_numbered_line_that_ran_on_is_its_items() -> None:
    assert read_blocks("1. Run the command directly 2. Create a script file") == (
        ItemList(
            (
                ListItem("Run the command directly", "number"),
                ListItem("Create a script file", "number"),
            )
        ),
    )
    # Only the next number splits: "version 3. Then" is not an item.
    assert read_blocks("1. Bump to version 3. Then tag it") == (
        ItemList((ListItem("Bump to version 3. Then tag it", "number"),)),
    )


def test_a_terminals_turn_mark_is_not_text() -> None:
    text = "● Done! Here is what changed.\n\n⏺ Next\n  ✦ Indented"
    assert read_blocks(text) == (
        Paragraph("Done! Here is what changed."),
        Paragraph("Next Indented"),
    )
