"""The offline extractor: the questions of an assistant message, found without a model.

What it reads (in ``message_blocks`` terms):

- a paragraph sentence ending in ``?`` is a question; when it is the paragraph's last
  question and a list follows, the list items are its options;
- a list item holding a ``?`` is a question (``**Label** — prompt?`` gives it a label); a
  list nested under it holds its options;
- a question with no list gets the alternatives of "A, B or C?", else Yes/No when it is a
  closed question, else it becomes a free-form question;
- small talk ("Does that sound good?") with no concrete choices is dropped.

The result is ``ask_user`` arguments (``{"questions": []}`` when nothing is asked), shaped by
the same rules the model extractor's answers are held to (behaviour.md §14.3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pi_ask.contract.results import JsonObject
from pi_ask.session.choice_phrases import (
    clean_question,
    inline_choices,
    is_generic,
    is_question,
    is_yes_no,
    wants_many,
)
from pi_ask.session.extraction import FREEFORM_OPTION, cap_options, snake_id
from pi_ask.session.message_blocks import (
    ItemList,
    ListItem,
    Paragraph,
    read_blocks,
    split_sentences,
)

# Below this many words a question leans on the sentence before it ("Which would you prefer?").
_SHORT_QUESTION_WORDS = 5
_DEICTIC = frozenset({"it", "them", "these", "those", "either", "ones"})
_LABELLED = re.compile(r"^\*\*(?P<label>[^*]{1,60})\*\*\s*(?:[—–:-]\s*)?(?P<rest>.*)$")
_PREFIXED = re.compile(r"^(?P<label>[^:?]{1,40}):\s+(?P<rest>.*\?.*)$")
_BOLD_OPTION = re.compile(r"^\*\*(?P<label>[^*]+)\*\*\s*(?P<rest>.*)$")
_DASHED = re.compile(r"^(?P<label>.+?)\s+(?:[—–]|-)\s+(?P<rest>.+)$")
_COLONED = re.compile(r"^(?P<label>[^:]{1,40}):\s+(?P<rest>.+)$")
_PARENTHESIZED = re.compile(r"^(?P<label>.+?)\s*\((?P<rest>[^()]+)\)[.;,]?$")
_MAX_LABEL_WORDS = 6
_YES_NO_OPTIONS: tuple[JsonObject, ...] = (
    {"value": "yes", "label": "Yes"},
    {"value": "no", "label": "No"},
)


@dataclass(frozen=True, slots=True)
class _Found:
    """A question as found in the text, before ids are given."""

    prompt: str
    sentence: str
    context: str
    options: tuple[JsonObject, ...]
    many: bool
    label: str | None = None


def extract_offline(text: str) -> JsonObject:
    """Turn an assistant message into ``ask_user`` arguments without a model.

    Args:
        text: the assistant message (Markdown or plain text).

    Returns:
        ``{"questions": [...]}``; the list is empty when the message asks nothing.

    Example:
        >>> extract_offline("Which do you prefer, tabs or spaces?")["questions"][0]["options"]
        [{'value': 'tabs', 'label': 'Tabs'}, {'value': 'spaces', 'label': 'Spaces'}]
    """
    questions: list[JsonObject] = []
    seen_prompts: set[str] = set()
    used_ids: set[str] = set()
    for found in _find(text):
        if found.prompt in seen_prompts:
            continue
        seen_prompts.add(found.prompt)
        questions.append(_to_json(found, used_ids, len(questions) + 1))
    return {"questions": questions}


def _find(text: str) -> Iterator[_Found]:
    blocks = read_blocks(text)
    consumed: set[int] = set()
    for number, block in enumerate(blocks):
        if number in consumed:
            continue
        if isinstance(block, Paragraph):
            following = blocks[number + 1] if number + 1 < len(blocks) else None
            options_list = following if isinstance(following, ItemList) else None
            found = list(_paragraph_questions(block.text, options_list))
            if (
                found
                and options_list is not None
                and found[-1].options
                and _is_options(options_list.items)
            ):
                consumed.add(number + 1)
            yield from found
        else:
            for item in block.items:
                yield from _item_questions(item)


def _paragraph_questions(text: str, following: ItemList | None) -> Iterator[_Found]:
    sentences = split_sentences(text)
    asked = [n for n, sentence in enumerate(sentences) if is_question(sentence)]
    for n in asked:
        listed = following.items if following is not None and n == asked[-1] else ()
        context = sentences[n - 1] if n > 0 and not is_question(sentences[n - 1]) else ""
        found = _question(sentences[n], context, " ".join(sentences[n:]), listed)
        if found is not None:
            yield found


def _item_questions(item: ListItem) -> Iterator[_Found]:
    label, text = _split_label(item.text)
    sentences = split_sentences(text)
    asked = [n for n, sentence in enumerate(sentences) if is_question(sentence)]
    for n in asked:
        listed = item.children if n == asked[-1] else ()
        context = sentences[n - 1] if n > 0 and not is_question(sentences[n - 1]) else ""
        found = _question(sentences[n], context, " ".join(sentences[n:]), listed)
        if found is not None:
            yield found if n != asked[0] or label is None else _with_label(found, label)


def _with_label(found: _Found, label: str) -> _Found:
    return _Found(found.prompt, found.sentence, found.context, found.options, found.many, label)


def _split_label(text: str) -> tuple[str | None, str]:
    for pattern in (_LABELLED, _PREFIXED):
        match = pattern.match(text)
        if match and "?" in match.group("rest") and "?" not in match.group("label"):
            label = match.group("label").strip().rstrip(":").strip()
            if label and len(label.split()) <= _MAX_LABEL_WORDS:
                return label, match.group("rest").strip()
    return None, text


def _question(
    sentence: str, context: str, tail: str, listed: tuple[ListItem, ...]
) -> _Found | None:
    """One question from its sentence, the sentence before it and the list after it."""
    question = clean_question(sentence)
    if not question:
        return None
    options: tuple[JsonObject, ...] = ()
    if listed and _is_options(listed):
        options = tuple(_option(item.text) for item in listed)
    if not options:
        options = tuple({"value": c, "label": c} for c in inline_choices(sentence))
    if not options and is_generic(question):
        return None
    if not options and is_yes_no(sentence):
        options = _YES_NO_OPTIONS
    if _needs_context(question) and context:
        prompt = f"{context.replace('**', '')} {question}"
    else:
        prompt, context = question, ""
    return _Found(prompt, question, context, options, wants_many(tail))


def _needs_context(question: str) -> bool:
    words = re.findall(r"[\w'-]+", question.lower())
    return len(words) < _SHORT_QUESTION_WORDS or any(w in _DEICTIC for w in words)


def _is_options(items: tuple[ListItem, ...]) -> bool:
    """A list offers options when it has two or more items and none of them asks."""
    return len(items) >= 2 and not any(is_question(item.text) for item in items)


def _option(text: str) -> JsonObject:
    """Label and description of an option item (``**Name** – what it means``, ``Name (why)``)."""
    plain = text.strip()
    for pattern in (_BOLD_OPTION, _DASHED, _COLONED, _PARENTHESIZED):
        match = pattern.match(plain)
        if match is None:
            continue
        label = _plain_label(match.group("label"))
        rest = match.group("rest").strip().lstrip("—–:-").strip()
        if rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1].strip()
        if label and len(label.split()) <= _MAX_LABEL_WORDS:
            option: JsonObject = {"value": label, "label": label}
            if rest:
                option["description"] = rest.replace("**", "")
            return option
    label = _plain_label(plain)
    return {"value": label, "label": label}


def _plain_label(text: str) -> str:
    # List items keep their own capitals: "argon2id" and "ruff" are names.
    return text.replace("**", "").replace("__", "").replace("`", "").strip().rstrip(".,;:").strip()


def _to_json(found: _Found, used_ids: set[str], position: int) -> JsonObject:
    source = found.label or _content_words(found.sentence) or _content_words(found.context)
    qid = _unique(snake_id(source) or f"question_{position}", used_ids)
    question: JsonObject = {"id": qid}
    if found.label:
        question["label"] = found.label
    question["prompt"] = found.prompt
    question["type"] = "multi" if found.many and found.options else "single"
    question["options"] = _options_json(found.options) if found.options else [dict(FREEFORM_OPTION)]
    return question


def _options_json(options: tuple[JsonObject, ...]) -> list[JsonObject]:
    values: set[str] = set()
    out: list[JsonObject] = []
    for number, option in enumerate(cap_options(options), start=1):
        value = _unique(snake_id(str(option["value"])) or f"option_{number}", values)
        out.append({**option, "value": value})
    return out


_STOPWORD_TEXT = """a an the and or but if then so to of in on at for with by from as into
    about over
    which what who whom whose where when why how should shall would will could can may might
    must do does did is are was were be been being have has had i me my we us our you your
    it its this that these those them they their there here any some all few many more most
    want like prefer use need make get go let know think pick choose see please also just
    now one ones either other else up out not no yes ok okay"""
# Words that say nothing about the question's subject, left out of generated ids.
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _content_words(text: str, limit: int = 3) -> str:
    words = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())
    return " ".join([w for w in words if w not in _STOPWORDS][:limit])


def _unique(base: str, used: set[str]) -> str:
    candidate, suffix = base, 2
    while candidate in used:
        candidate, suffix = f"{base}_{suffix}", suffix + 1
    used.add(candidate)
    return candidate
