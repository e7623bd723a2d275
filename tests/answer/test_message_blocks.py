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
