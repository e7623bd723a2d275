"""The web page's words: from the same catalogues, in the server's language (faces/web/words.py).

The page's script marks its text with ``_("...")`` and ``ngettext(...)``; Babel extracts them
into the template (tests/test_i18n.py checks every catalogue translates them), and the
server finds the same calls when it puts the words in front of the script.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from babel.messages.extract import extract_from_file

from pi_ask import i18n
from pi_ask.faces.web.view import view_model
from pi_ask.faces.web.words import page_in_language, page_words, script_with_words
from pi_ask.state.model import Behaviour
from pi_ask.words import REVIEW_ACTIONS
from tests.faces.tui.driver import state_for

STATIC = resources.files("pi_ask.faces.web").joinpath("static")
SCRIPT = STATIC.joinpath("app.js").read_text(encoding="utf-8")


def test_the_server_finds_every_message_babel_extracts_from_the_script() -> None:
    extracted = {
        message if isinstance(message, str) else "\0".join(message[:2])
        for _line, message, _comments, _context in extract_from_file(
            "javascript", str(Path(str(STATIC.joinpath("app.js"))))
        )
        if message and (isinstance(message, str) or all(message[:2]))
    }
    assert len(extracted) > 40
    assert set(page_words(SCRIPT)) - set(REVIEW_ACTIONS) == extracted


def test_the_script_is_served_with_its_words_in_the_language() -> None:
    assert i18n.use_language("de") == "de"
    served = script_with_words(SCRIPT)
    head, _, rest = served.partition("\n")
    assert rest == SCRIPT
    assert head.startswith("const PI_ASK_WORDS = ") and head.endswith(";")
    words = json.loads(head.removeprefix("const PI_ASK_WORDS = ").removesuffix(";"))
    assert words["Back to the list"] == "Zurück zur Liste"
    assert words["Submit"] == "Absenden"
    plural = words[
        "{count} question waiting, oldest first\0{count} questions waiting, oldest first"
    ]
    assert plural == [
        "{count} Frage wartet, älteste zuerst",
        "{count} Fragen warten, älteste zuerst",
    ]


def test_english_words_are_the_message_ids() -> None:
    assert i18n.use_language("en") == "en"
    words = page_words(SCRIPT)
    assert all(key == value for key, value in words.items() if isinstance(value, str))


def test_the_page_says_its_language() -> None:
    page = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    assert i18n.use_language("zh_CN") == "zh_CN"
    shown = page_in_language(page)
    assert '<html lang="zh-CN">' in shown and ">跳到问题<" in shown
    i18n.use_language("en")
    assert page_in_language(page) == page


def test_the_view_words_the_engine_s_text_and_keeps_the_payload_s() -> None:
    assert i18n.use_language("ja") == "ja"
    state = state_for("payload_a.json")
    view = view_model(state, Behaviour())
    labels = [row["label"] for row in view["question"]["rows"]]  # type: ignore[index]
    assert labels[-1] == "自由回答"
    assert labels[0] == state.questions[0].options[0].label
    review = view_model(state._replace(tab=len(state.questions)), Behaviour())
    assert review["review"]["actions"] == list(REVIEW_ACTIONS)  # type: ignore[index]
    assert (
        review["review"]["hint"] == "操作を確定するには 1、2、3 のいずれかを 2 回押してください。"
    )  # type: ignore[index]
