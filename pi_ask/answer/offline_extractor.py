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

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pi_ask.answer.choice_phrases import (
    alternative,
    capitalize,
    choices_only,
    clean_question,
    inline_choices,
    is_generic,
    is_or_follow_up,
    is_question,
    is_yes_no,
    parenthesized_choices,
    wants_many,
    without_answer_hint,
)
from pi_ask.answer.extraction import FREEFORM_OPTION, cap_options, snake_id
from pi_ask.answer.message_blocks import (
    Block,
    ItemList,
    ListItem,
    Paragraph,
    read_blocks,
    split_sentences,
)
from pi_ask.contract.kinds import JsonObject

_DEICTIC = frozenset({"them", "these", "those", "either", "ones"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "your", "our", "my"})
# "Is it OK to …" and its kin: an "it" that points at nothing.
_DUMMY_IT = re.compile(
    r"^(?:is|would)\s+it\s+(?:be\s+)?(?:ok|okay|fine|better|worth|possible|safe|alright)\b",
    re.IGNORECASE,
)
_WH_START = re.compile(r"^(?:what|which)\b", re.IGNORECASE)
_SELF_ANSWER = re.compile(r"^(?:mostly|partly|largely|probably|simply)?\s*because\b", re.IGNORECASE)
_DASHED_TAIL = re.compile(r"^(?P<question>.*\?)\s+[-•]\s+(?P<items>.+)$")
# "Which *Node version* should …", "What *kind of project* is …": the thing asked about.
_WH_NOUN = re.compile(
    r"^(?:what|which)\s+(?:kind\s+of\s+|type\s+of\s+)?"
    r"(?P<noun>[\w.+-]+(?:\s+[\w.+-]+){0,2}?)\s+"
    r"(?:should|shall|do|does|did|would|will|can|could|is|are|was|to|for|has|have|must)\b",
    re.IGNORECASE,
)
_NUMBERING = re.compile(r"^\s*(?:(?:option|choice)\s+)?(?:\d{1,2}|[A-Ha-h])[.):]\s+", re.IGNORECASE)
_LABELLED = re.compile(r"^\*\*(?P<label>[^*]{1,60})\*\*\s*(?:[—–:-]\s*)?(?P<rest>.*)$")
_PREFIXED = re.compile(r"^(?P<label>[^:?]{1,40}):\s+(?P<rest>.*\?.*)$")
_BOLD_OPTION = re.compile(r"^\*\*(?P<label>[^*]+)\*\*\s*(?P<rest>.*)$")
_DASHED = re.compile(r"^(?P<label>.+?)\s+(?:[—–]|-)\s+(?P<rest>.+)$")
_COLONED = re.compile(r"^(?P<label>[^:]{1,40}):\s+(?P<rest>.+)$")
# A parenthesis of a few words describes the option; "(Frankfurt)" is part of its name.
_PARENTHESIZED = re.compile(r"^(?P<label>.+?)\s*\((?P<rest>[^()]*(?:,|\S\s+\S)[^()]*)\)[.;,]?$")
_MAX_LABEL_WORDS = 6
_MAX_EITHER_OR_LABEL = 3  # alternatives an either-or label names one word each
# "Naming: should the flag …?" has a label; "One decision left on the theme: A or B?" does not.
_MAX_PREFIX_WORDS = 3
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
    intro: str = ""  # the text that introduced options listed before the question
    either_or: bool = False  # its options are alternatives written into the question


@dataclass(frozen=True, slots=True)
class _Asked:
    """A question sentence of a paragraph or item, with what surrounds it."""

    sentence: str
    context: str
    tail: str
    hinted: bool = False  # it ended in "(yes/no)" or "(y/n)"
    follow_up: tuple[str, ...] = ()
    alternatives: tuple[str, ...] = ()  # "Or wait until Monday?" sentences after it


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
    label: str | None = None
    for number, block in enumerate(blocks):
        if number in consumed:
            continue
        heading_label, label = label, None
        if isinstance(block, ItemList):
            for item in block.items:
                yield from _item_questions(item)
            continue
        if block.heading and not is_question(block.text):
            label = _heading_label(block.text)
            continue
        listed, used = _options_after(blocks, number)
        found = list(_paragraph_questions(block.text, listed))
        if not found and listed and not _asks_after(blocks, max(used)):
            found = [q for q in (_lead_in_question(block.text, listed),) if q is not None]
        if not found:
            continue
        if found[-1].options and listed:
            consumed.update(used)
        elif _asks_which(found[-1]) and not found[-1].options:
            earlier, intro = _options_before(blocks, number)
            if earlier:
                found[-1] = dataclasses.replace(found[-1], options=earlier, intro=intro)
        if heading_label and found[0].label is None:
            found[0] = _with_label(found[0], heading_label)
        yield from found


def _lead_in_question(text: str, listed: tuple[ListItem, ...]) -> _Found | None:
    """ "Would you like me to:" over a list: a question that its list ends, with no question
    mark anywhere (a question after the list asks instead, and takes the list)."""
    sentences = split_sentences(text)
    last = sentences[-1].rstrip() if sentences else ""
    head = last.removesuffix(":").rstrip()
    if head == last or not (is_yes_no(head) or _WH_START.match(head)):
        return None
    context = sentences[-2] if len(sentences) > 1 else ""
    found = _question(_Asked(last, context, last), listed)
    # "Should I: patch the parser / rewrite the lexer" is an either-or, and is named like one.
    return dataclasses.replace(found, either_or=True) if found else None


def _asks_after(blocks: tuple[Block, ...], number: int) -> bool:
    following = blocks[number + 1] if number + 1 < len(blocks) else None
    return isinstance(following, Paragraph) and any(
        is_question(s) for s in split_sentences(following.text)
    )


def _options_after(blocks: tuple[Block, ...], number: int) -> tuple[tuple[ListItem, ...], set[int]]:
    """The list after a paragraph, or the bold headings that name options ("**Option A: X**")."""
    following = blocks[number + 1] if number + 1 < len(blocks) else None
    if isinstance(following, ItemList):
        return following.items, {number + 1}
    items: list[ListItem] = []
    used: set[int] = set()
    for later in range(number + 1, len(blocks)):
        block = blocks[later]
        if not isinstance(block, Paragraph):
            break
        if block.heading and not is_question(block.text):
            items.append(ListItem(_heading_label(block.text), "heading"))
        elif not (items and _is_heading(blocks[later - 1])):
            break  # a description paragraph follows only its heading
        used.add(later)
    return (tuple(items), used) if len(items) >= 2 else ((), set())


def _options_before(blocks: tuple[Block, ...], number: int) -> tuple[tuple[JsonObject, ...], str]:
    """The options a list (or table) just before a "Which do you prefer?" paragraph offers,
    and the paragraph that introduced them ("I see two ways to fix the upload test:")."""
    for earlier in range(number - 1, -1, -1):
        block = blocks[earlier]
        if isinstance(block, ItemList):
            if not _is_options(block.items):
                return (), ""
            intro = blocks[earlier - 1] if earlier else None
            intro_text = intro.text if isinstance(intro, Paragraph) else ""
            return tuple(_option(i.text) for i in block.items), intro_text
        if is_question(block.text):
            return (), ""
    return (), ""


def _is_heading(block: Block) -> bool:
    return isinstance(block, Paragraph) and block.heading


def _heading_label(text: str) -> str:
    return _NUMBERING.sub("", text.replace("**", "")).strip().rstrip(":").strip()


def _asks_which(found: _Found) -> bool:
    return bool(_WH_START.match(found.sentence))


def _paragraph_questions(text: str, following: tuple[ListItem, ...]) -> Iterator[_Found]:
    label, text = _split_label(text)
    text, dashed = _inline_dashes(text)
    asked = _asked(split_sentences(text))
    for n, question in enumerate(asked):
        listed = following if n == len(asked) - 1 else ()
        found = _question(question, listed or dashed)
        if found is not None:
            yield found if n or label is None else _with_label(found, label)


def _item_questions(item: ListItem) -> Iterator[_Found]:
    label, text = _split_label(item.text)
    asked = _asked(split_sentences(text))
    for n, question in enumerate(asked):
        listed = item.children if n == len(asked) - 1 else ()
        found = _question(question, listed)
        if found is not None:
            yield found if n or label is None else _with_label(found, label)


def _asked(sentences: tuple[str, ...]) -> list[_Asked]:
    """The question sentences, each with the statement before it and what follows.

    A sentence that is nothing but choices ("PostgreSQL, SQLite, or MySQL?") belongs to the
    question before it, and so does one that offers another alternative ("Ship it today? Or
    wait until Monday?"); a question its own next sentence answers ("Why is it slow? Mostly
    because …") asks nothing of the user.
    """
    asked: list[_Asked] = []
    last = -2  # the index of the sentence the latest question ends with
    for n, written in enumerate(sentences):
        sentence, hinted = without_answer_hint(written)
        if not is_question(sentence):
            continue
        following = sentences[n + 1] if n + 1 < len(sentences) else ""
        if _SELF_ANSWER.match(following):
            continue
        if asked and last == n - 1 and is_or_follow_up(sentence):
            alternatives = (*asked[-1].alternatives, sentence)
            asked[-1] = dataclasses.replace(asked[-1], alternatives=alternatives)
            last = n
            continue
        choices = choices_only(sentence) if asked and last == n - 1 else ()
        if choices:
            asked[-1] = dataclasses.replace(asked[-1], follow_up=choices)
            last = n
            continue
        previous = sentences[n - 1] if n > 0 else ""
        context = previous if previous and not is_question(previous) else ""
        asked.append(_Asked(sentence, context, " ".join(sentences[n:]), hinted))
        last = n
    return asked


def _inline_dashes(text: str) -> tuple[str, tuple[ListItem, ...]]:
    """ "Which first? - Login - Export - Sync": the question, and the dashed items after it."""
    match = _DASHED_TAIL.match(text)
    if match is None:
        return text, ()
    items = [p.strip() for p in re.split(r"\s+[-•]\s+", " " + match.group("items")) if p.strip()]
    if len(items) < 2:
        return text, ()
    return match.group("question"), tuple(ListItem(item, "bullet") for item in items)


def _with_label(found: _Found, label: str) -> _Found:
    return dataclasses.replace(found, label=label)


def _split_label(text: str) -> tuple[str | None, str]:
    for pattern, most in ((_LABELLED, _MAX_LABEL_WORDS), (_PREFIXED, _MAX_PREFIX_WORDS)):
        match = pattern.match(text)
        if match and "?" in match.group("rest") and "?" not in match.group("label"):
            label = match.group("label").strip().rstrip(":").strip()
            if label and len(label.split()) <= most:
                return label, match.group("rest").strip()
    return None, text


def _question(asked: _Asked, listed: tuple[ListItem, ...]) -> _Found | None:
    """One question from its sentence, the sentence before it and the list after it."""
    hinted = asked.hinted
    sentence, parenthesized = parenthesized_choices(asked.sentence)
    question = clean_question(sentence)
    if not question:
        return None
    options: tuple[JsonObject, ...] = ()
    if listed and _is_options(listed):
        options = tuple(_option(item.text) for item in listed)
    choices = parenthesized or asked.follow_up or inline_choices(sentence)
    either_or = bool(choices) and not parenthesized and not options
    if asked.alternatives and not options:
        choices, either_or = _with_alternatives(sentence, choices, asked.alternatives), True
        question = " ".join((question, *asked.alternatives))
    if not options and not hinted:
        options = tuple({"value": c, "label": c} for c in choices)
    if not options and is_generic(question):
        return None
    if not options and (hinted or is_yes_no(sentence)):
        options = _YES_NO_OPTIONS
    context = asked.context
    if _needs_context(question) and context:
        prompt = f"{context.replace('**', '')} {question}"
    else:
        prompt, context = question, ""
    many = wants_many(asked.tail)
    return _Found(prompt, question, context, options, many, either_or=either_or and bool(choices))


def _with_alternatives(
    sentence: str, choices: tuple[str, ...], follow_ups: tuple[str, ...]
) -> tuple[str, ...]:
    """The choices of a question and the "Or …?" sentences after it: "Ship it today? Or wait
    until Monday?" offers "Ship it today" and "Wait until Monday"."""
    more = tuple(a for a in (alternative(s) for s in follow_ups) if a)
    if not more:
        return choices
    if choices:
        return (*choices, *more)
    first = alternative(sentence)
    return (first, *more) if first else more


def _needs_context(question: str) -> bool:
    """True when the question cannot stand alone: it names nothing, or points back."""
    words = re.findall(r"[\w'-]+", question.lower())
    if len([w for w in words if w not in _STOPWORDS]) <= 1:
        return True
    if any(w in _DEICTIC for w in words):
        return True
    if "it" not in words or _DUMMY_IT.match(question):
        return False
    # "mark *it* as xfail" after "the race" in the same sentence points inside it.
    before = words[: words.index("it")]
    return not any(w in _DETERMINERS for w in before)


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
        # "Continue with enhanced automation (add smarter fixes)": its aside is no length.
        if label and len(re.sub(r"\([^()]*\)", "", label).split()) <= _MAX_LABEL_WORDS:
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
    sources = (found.sentence, found.context, found.intro)
    source = found.label or next((w for t in sources if (w := _content_words(t))), "")
    qid = _unique(snake_id(source) or f"question_{position}", used_ids)
    question: JsonObject = {"id": qid}
    question["label"] = found.label or _label_from(found)
    question["prompt"] = found.prompt
    question["type"] = "multi" if found.many and found.options else "single"
    question["options"] = _options_json(found.options) if found.options else [dict(FREEFORM_OPTION)]
    return question


def _label_from(found: _Found) -> str:
    """A tab label in the question's own words: "Which *database* …" → "Database".

    Never a number: the agent numbered its own questions, and ``Q3`` for its question 4
    would send the answer to the wrong one.
    """
    match = _WH_NOUN.match(found.sentence)
    if match and match.group("noun").split()[0].lower() not in _STOPWORDS:
        return capitalize(match.group("noun"))
    if found.either_or and (either := _either_or_label(found.options, found.sentence)):
        return either
    # "Which database? PostgreSQL, SQLite or MySQL?" is named by what it asks about.
    for text in (found.sentence, found.context, found.intro):
        words = _content_words(text, keep_case=True)
        if words:
            return capitalize(words)
    return "Answer"


def _either_or_label(options: tuple[JsonObject, ...], sentence: str) -> str:
    """ "Ship or wait" for "Should I ship it today, or wait until Monday?": the first word that
    says something of each alternative, as a person names an either-or; "" past three, or
    when the question names its subject before the alternatives ("Which database? …")."""
    if not 2 <= len(options) <= _MAX_EITHER_OR_LABEL:
        return ""
    labels = [str(o["label"]) for o in options]
    start = sentence.lower().find(labels[0].lower())
    if _WH_START.match(sentence) and _content_words(sentence[: max(start, 0)] or sentence):
        return ""
    heads = [_content_words(label, 1, keep_case=True) for label in labels]
    if not all(heads):
        return ""
    words = [
        heads[0],
        *(
            _as_written(head, label, sentence)
            for head, label in zip(heads[1:], labels[1:], strict=True)
        ),
    ]
    return capitalize(f"{', '.join(words[:-1])} or {words[-1]}")


def _as_written(head: str, label: str, sentence: str) -> str:
    """A word inside a label as a sentence would write it: "wait", "create", but "GraphQL",
    "Redux" (a name keeps its capitals; an option's capital only started its phrase)."""
    written: list[str] = re.findall(r"[A-Za-z0-9][\w.+-]*", sentence)
    for word in written:
        if word.lower() == head.lower():
            return word
    rest = label.split()[1:]
    phrase = head[1:].islower() and any(w[:1].islower() for w in rest)
    return head[0].lower() + head[1:] if phrase and label.startswith(head) else head


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
    now one ones either other else up out not no yes ok okay called named rather ahead
    two three four several couple ways here option"""
# Words that say nothing about the question's subject, left out of generated ids.
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _content_words(text: str, limit: int = 3, *, keep_case: bool = False) -> str:
    words = re.findall(r"[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)*", re.sub(r"['’]s\b", "", text))
    kept = [w if keep_case else w.lower() for w in words if w.lower() not in _STOPWORDS]
    return " ".join(kept[:limit])


def _unique(base: str, used: set[str]) -> str:
    candidate, suffix = base, 2
    while candidate in used:
        candidate, suffix = f"{base}_{suffix}", suffix + 1
    used.add(candidate)
    return candidate
