"""One vocabulary (pi_ask/words.py): footers, the dirty guard, README.md and docs/keymaps.md."""

from __future__ import annotations

import re
from pathlib import Path

from pi_ask.faces.plain import render
from pi_ask.faces.tui.footer import SEPARATOR, footer_chunks
from pi_ask.keymaps.keymap import DEFAULT_KEYMAPS
from pi_ask.keymaps.validation import resolve_keymaps
from pi_ask.state.dismissal import DISMISS_NOTICE
from pi_ask.words import ACTION_WORDS, CONTINUE, HOTKEYS, dirty_guard, question_count

ROOT = Path(__file__).resolve().parents[1]
TABLE_WORDS = {word.text for word in ACTION_WORDS.values()} | {CONTINUE.text, HOTKEYS.text}


def test_every_footer_word_comes_from_the_table() -> None:
    for kind in ("single", "multi", "review", "editor", "note_editor"):
        for chunk in footer_chunks(kind, DEFAULT_KEYMAPS):
            _keys, _, word = chunk.partition(" ")
            assert word in TABLE_WORDS, (kind, chunk)


def test_esc_reads_cancel_on_question_tabs_and_on_the_review() -> None:
    """Esc is main.cancel everywhere; "dismiss" belongs to Ctrl+C alone."""
    single = SEPARATOR.join(footer_chunks("single", DEFAULT_KEYMAPS))
    review = SEPARATOR.join(footer_chunks("review", DEFAULT_KEYMAPS))
    assert "Esc cancel" in single
    assert "Esc cancel" in review
    assert "dismiss" not in single


def test_the_guard_names_the_live_keys() -> None:
    assert DISMISS_NOTICE == "Unsaved ask answers or drafts. Press Esc or Ctrl+C again to discard."
    remapped = resolve_keymaps({"main": {"cancel": "q"}, "global": {"dismiss": "ctrl+d"}})
    keys = remapped.keymaps
    text = dirty_guard(keys.label("main", "cancel"), keys.label("global", "dismiss"))
    assert text == "Unsaved ask answers or drafts. Press q or Ctrl+D again to discard."
    assert "cancel/dismiss" not in render.notice_text(DISMISS_NOTICE)


def test_the_keymaps_page_holds_the_table() -> None:
    page = (ROOT / "docs/keymaps.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)\.(\w+)` \| ([^|]+) \| ([^|]+) \|$", page, re.M))
    expected = {(c, a, w.text, w.meaning) for (c, a), w in ACTION_WORDS.items()}
    assert {(c, a, w.strip(), m.strip()) for c, a, w, m in rows} == expected
    assert DISMISS_NOTICE.split(". ", 1)[1] in " ".join(page.split())


def test_the_readme_says_what_the_footers_say() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for (context, action), key in ((("main", "cancel"), "Esc"), (("global", "dismiss"), "Ctrl+C")):
        word = ACTION_WORDS[(context, action)].text
        assert re.search(rf"`{re.escape(key)}` {word}", readme), (key, word)


def test_counts_read_as_words() -> None:
    assert (question_count(1), question_count(2)) == ("1 question", "2 questions")


def test_the_required_mark_and_plurals_read_in_the_users_language() -> None:
    from pi_ask.i18n import gettext, ngettext, use_language
    from pi_ask.words import REQUIRED

    try:
        use_language("de")
        assert gettext(REQUIRED) == "(Pflicht)"
        assert question_count(1) == "1 Frage"
        skipped = ngettext(
            "skipped {count} unreadable line: {lines}",
            "skipped {count} unreadable lines: {lines}",
            3,
        )
        assert skipped.format(count=3, lines="1, 2, 3").startswith("3 unlesbare Zeilen")
    finally:
        use_language("auto")
