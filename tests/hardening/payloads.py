"""Hypothesis strategies for payloads: valid ones of every shape, and hostile text."""

from __future__ import annotations

from hypothesis import strategies as st

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.payload import AskPayload

# Terminal-hostile snippets (python-port.md §7): CSI, OSC (title, clipboard, hyperlink), DCS,
# C1 CSI/OSC, BEL, backspace, DEL, and every bidi or direction mark.
HOSTILE_SNIPPETS = (
    "\x1b[2J",
    "\x1b[31m",
    "\x1b[1;1H",
    "\x1b]0;pwned\x07",
    "\x1b]2;title\x1b\\",
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
    "\x1bP1$qm\x1b\\",
    "\x9b31m",
    "\x9d0;c1title\x9c",
    "\x07",
    "\x08\x08",
    "\x7f",
    "\r",
    "\u202e",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
)

_PLAIN = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12
)
# Text an agent could send: mostly plain, sometimes hostile, wide, combining or emoji.
texts = st.one_of(
    _PLAIN,
    st.lists(
        st.one_of(
            st.sampled_from(HOSTILE_SNIPPETS),
            st.sampled_from(["漢字", "e\u0301", "👩\u200d💻", "ｆｕｌｌ", " ", "\n", "\t"]),
            _PLAIN,
        ),
        min_size=1,
        max_size=4,
    ).map("".join),
)
solid_texts = texts.filter(lambda text: bool(text.strip()))
_ids = st.builds(
    str.__add__,
    st.sampled_from("abcdefghij"),
    st.text(alphabet="abcdefghij_-0123456789", max_size=5),
)


@st.composite
def _options(draw: st.DrawFn, kind: str) -> list[dict[str, object]]:
    values = draw(st.lists(_ids, min_size=1, max_size=5, unique=True))
    options: list[dict[str, object]] = []
    for value in values:
        option: dict[str, object] = {"value": value}
        if draw(st.booleans()):
            option["label"] = draw(texts)
        if draw(st.booleans()):
            option["description"] = draw(texts)
        if kind == "preview":
            option["preview"] = draw(solid_texts)
        elif draw(st.booleans()):
            option["preview"] = draw(texts)
        if draw(st.integers(0, 3)) == 0:
            option["recommended"] = draw(st.booleans())
        options.append(option)
    return options


@st.composite
def payload_documents(draw: st.DrawFn, *, max_questions: int = 4) -> dict[str, object]:
    """A valid ``ask_user`` payload as decoded JSON, with random text in every field."""
    ids = draw(st.lists(_ids, min_size=1, max_size=max_questions, unique=True))
    questions: list[dict[str, object]] = []
    for qid in ids:
        kind = draw(st.sampled_from(["single", "multi", "preview", None]))
        question: dict[str, object] = {
            "id": qid,
            "prompt": draw(solid_texts),
            "options": draw(_options(kind or "single")),
        }
        if kind is not None:
            question["type"] = kind
        if draw(st.booleans()):
            question["label"] = draw(texts)
        if draw(st.integers(0, 3)) == 0:
            question["required"] = draw(st.booleans())
        questions.append(question)
    document: dict[str, object] = {"questions": questions}
    if draw(st.booleans()):
        document["title"] = draw(texts)
    return document


def loaded(document: object, *, single_as_multi: bool = False) -> AskPayload:
    """The normalized payload of a document that must be valid."""
    result = load_payload(document, present_single_as_multi=single_as_multi)
    assert isinstance(result, LoadedPayload), result
    return result.payload
