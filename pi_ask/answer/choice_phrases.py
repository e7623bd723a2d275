"""Reading choices out of one question sentence: "A or B?", yes/no, "pick any", small talk.

Heuristics for the offline extractor; each function looks at a single sentence and returns
plain strings, so they can be tested one phrase at a time.
"""

from __future__ import annotations

import re
from typing import Literal

from pi_ask.answer.extraction import GENERIC_PROMPTS

_TRAILING_MARKUP = "*_`\"' )]"
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_COMMA_OR = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s+[—–]\s+|\s+-\s+|:\s+")
_LEADS = re.compile(
    r"^(?:(?:should|shall|can|could|may|will|must)\s+"
    r"(?:i|we|it|they|(?:the|this|that|our|your|my|its|each|every)\s+[\w-]+)"
    r"|(?:do|would)\s+you\s+(?:want|like|prefer)(?:\s+(?:me|us))?(?:\s+to)?"
    r"|would\s+you\s+rather(?:\s+(?:i|we))?"
    r"|(?:is\s+it|would\s+it\s+be)\s+better\s+to"
    r"|(?:do\s+you\s+)?prefer(?:\s+to)?)\s+",
    re.IGNORECASE,
)
_FILLER_START = re.compile(r"^(?:to|either|just|rather|be)\s+", re.IGNORECASE)
# What opens one alternative of an either-or: "should I", "would you prefer to", "want me to".
_ALT_LEAD = re.compile(
    r"^(?:(?:should|shall|can|could|may|will|must)\s+(?:i|we)"
    r"|(?:do|would|will)\s+(?:you|ye)\s+(?:want|like|prefer)(?:\s+(?:me|us))?(?:\s+to)?"
    r"|(?:do\s+(?:you|ye)\s+)?(?:want|prefer)\s+(?:(?:me|us)\s+)?to"
    r"|would\s+(?:you|ye)\s+rather(?:\s+(?:i|we))?"
    r"|(?:i|we)\s+(?:could|can|should|might)"
    r")\s+",
    re.IGNORECASE,
)
_OR_JOINT = re.compile(r"(?:\s*,\s*|\s+)or\s+", re.IGNORECASE)
_WH_START = re.compile(r"^(?:what|which|who|how|where|when|why)\b", re.IGNORECASE)
# "…, captain?", "…, then?": a word of address or an afterthought after the last alternative.
_TRAILING_ADDRESS = re.compile(r"\s*,\s*[A-Za-z]+$")
# "Or something else?", "Or do you have another idea?": the user's own answer, not an option.
_OPEN_ALTERNATIVE = re.compile(
    r"\b(?:something|anything)\s+else\b|\belse\s+in\s+mind\b"
    r"|\b(?:different|another|other)\s+(?:approach|option|idea|plan|way)s?\b",
    re.IGNORECASE,
)
_OR_START = re.compile(r"^or\b[\s,]*(?:(?:maybe|perhaps|instead)\b[\s,]*)?", re.IGNORECASE)
# A phrase that closes the last alternative but belongs to the whole question: "pytest or
# unittest *for the tests*".
_TRAILING_PHRASE = re.compile(
    r"\s+(?:for|in|on|with|at|from|as|into|during|by|to)\s+\S+\s+\S.*$", re.IGNORECASE
)
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "our", "your", "my"})
# Alternatives that end like this are verb phrases ("drop X, or keep it"): no verb to cut.
_VERB_PHRASE_END = re.compile(r"\b(?:it|them|that|this|as\s+(?:it\s+)?is)$", re.IGNORECASE)
_TRAILING_CLAUSE = re.compile(
    r"\s+(?:when|before|after|once|if|while|because|since|so\s+that)\s+.*$", re.IGNORECASE
)
_LEADING_CONJUNCTION = re.compile(
    r"^(?:and|also|but|so|plus|finally|lastly|then|next|first|second|third)\b[,:]?\s+",
    re.IGNORECASE,
)
_YES_NO = re.compile(
    r"^(?:(?:should|shall|can|could|may|will|would|must|is|are|was|were|does|do|did|has|have)\s"
    r"|(?:want|ok|okay)\s+(?:me\s+)?to\b|proceed\b|continue\b)",
    re.IGNORECASE,
)
# Closed in form, open in meaning: the answer names something ("Could you share the logs?",
# "Is there a date I should aim for?", "Do you have a preferred name?").
_NOT_YES_NO = re.compile(
    r"^(?:(?:could|can|would|will)\s+you\s+(?!want|like|need)"
    r"|do\s+you\s+have\s+(?:a|an|any)\s+(?:preferred|preference|specific|particular)"
    r"|(?:is|are)\s+there\s+(?:a|an|any)\b.*\b(?:i|we|you)\s+(?:should|can|could|need|must)\b)",
    re.IGNORECASE,
)
_ANSWER_HINT = re.compile(r"\s*\(\s*(?:y(?:es)?\s*/\s*n(?:o)?)\s*\)[.!]?\s*$", re.IGNORECASE)
_PARENTHESIZED_CHOICES = re.compile(r"\s*\((?P<choices>[^()]*\bor\b[^()]*)\)")
_MULTI = (
    "all that apply",
    "any that apply",
    "select all",
    "select any",
    "pick any",
    "choose any",
    "one or more",
    "which ones",
    "as many as",
    "select multiple",
    "pick several",
)
# The extraction rule's phrases, and the closing small talk an offline reader meets most.
_GENERIC = (
    *GENERIC_PROMPTS,
    "sound good",
    "sounds good",
    "look good",
    "looks good",
    "make sense",
    "makes sense",
    "anything else",
    "any questions",
    "any other questions",
    "what say you",
    "what say ye",
    "what do you say",
)
MAX_WORDS_PER_CHOICE = 12
_SHORT_CHOICE_WORDS = 2


def clean_question(sentence: str) -> str:
    """The sentence without bold markers and leading "And", "Also", ..., capitalized."""
    text = sentence.replace("**", "").replace("__", "").strip()
    text = _LEADING_CONJUNCTION.sub("", text)
    return capitalize(text)


def capitalize(text: str) -> str:
    """Upper-case the first character only (``iPhone``-style words are left alone)."""
    if text[:1].islower() and not text[1:2].isupper():
        return text[0].upper() + text[1:]
    return text


def is_question(sentence: str) -> bool:
    """True when the sentence ends with a question mark (ignoring closing markup)."""
    return sentence.rstrip().rstrip(_TRAILING_MARKUP).endswith("?")


def normalized(text: str) -> str:
    """Lower-cased, every run of non-alphanumerics one space: for phrase matching."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def is_generic(text: str) -> bool:
    """True for conversational prompts that ask for nothing ("Does that sound good?")."""
    plain = f" {normalized(text)} "
    return any(f" {phrase} " in plain for phrase in _GENERIC)


def wants_many(text: str) -> bool:
    """True when the wording asks for several choices ("pick any that apply")."""
    plain = f" {normalized(text)} "
    return any(f" {phrase} " in plain for phrase in _MULTI)


def is_yes_no(sentence: str) -> bool:
    """True for a closed question answered by yes or no ("Should I remove them?")."""
    question = clean_question(sentence)
    return bool(_YES_NO.match(question)) and not _NOT_YES_NO.match(question)


def without_answer_hint(sentence: str) -> tuple[str, bool]:
    """The sentence without a trailing "(yes/no)" or "(y/n)", and whether it had one."""
    stripped = _ANSWER_HINT.sub("", sentence)
    return stripped, stripped != sentence


def parenthesized_choices(sentence: str) -> tuple[str, tuple[str, ...]]:
    """The choices of "How many (3 or 5) retries?" and the sentence without them.

    Returns the sentence unchanged and ``()`` when no parenthesis holds an "A or B" list.
    """
    match = _PARENTHESIZED_CHOICES.search(sentence)
    if match is None:
        return sentence, ()
    parts = [p.strip(" ,;") for p in _COMMA_OR.split(match.group("choices"))]
    if len(parts) < 2 or any(not p or len(p.split()) > _SHORT_CHOICE_WORDS for p in parts):
        return sentence, ()
    rest = sentence[: match.start()] + sentence[match.end() :]
    return re.sub(r"\s+([?.!,])", r"\1", rest).strip(), tuple(parts)


def choices_only(sentence: str) -> tuple[str, ...]:
    """The alternatives of a sentence that is nothing but a choice ("PostgreSQL, SQLite, or
    MySQL?"), or ``()``: every part a name of a word or two, no question word or verb lead."""
    text = clean_question(sentence).rstrip(_TRAILING_MARKUP + "?").strip()
    if not _OR.search(text) or _YES_NO.match(text) or _LEADS.match(text):
        return ()
    if _WH_START.match(text):
        return ()
    parts = [p.strip(" ,;") for p in _COMMA_OR.split(text)]
    if len(parts) < 2 or any(not p or len(p.split()) > _SHORT_CHOICE_WORDS for p in parts):
        return ()
    return tuple(parts)


def inline_choices(sentence: str) -> tuple[str, ...]:
    """The alternatives of an "A or B?" question, or ``()`` when it offers none.

    The part holding the alternatives is found, in order: after a dash or colon, after a
    lead such as "Should I" or "Would you prefer", after the first comma; otherwise the whole
    sentence, with the first alternative cut to the length of the others.
    """
    text = clean_question(sentence).rstrip(_TRAILING_MARKUP + "?").strip()
    if not _OR.search(text) or re.search(r"\bor\s+not$", text, re.IGNORECASE):
        return ()
    if led := _led_alternatives(text):
        return led
    region, cut = _choice_region(text)
    listed = cut != "always" or re.search(r",\s+or\s+", region)  # "A, B, or C"
    parts = [part.strip(" ,;") for part in (_COMMA_OR if listed else _OR).split(region)]
    if len(parts) > 1:
        parts[-1] = _TRAILING_CLAUSE.sub("", parts[-1])
        if cut != "never":  # after a dash or colon the choices are written out as a list
            parts = _without_trailing_phrase(parts)
    verbs = any(_VERB_PHRASE_END.search(p) for p in parts[1:])
    if not verbs and (cut == "always" or (cut == "when_longer" and _is_longest(parts))):
        parts = _balance(parts)
    elif not verbs and cut == "when_longer":
        parts = _aligned(parts)
    choices = tuple(capitalize(_FILLER_START.sub("", p.replace("`", ""))).strip() for p in parts)
    if len(choices) < 2 or any(not c or len(c.split()) > MAX_WORDS_PER_CHOICE for c in choices):
        return ()
    return choices


def _choice_region(text: str) -> tuple[str, Literal["always", "when_longer", "never"]]:
    """The text holding the alternatives, and when its first one needs cutting.

    After a lead the first alternative may still carry the verb ("Should I *use* PostgreSQL
    or SQLite?"): it is cut only when it is a short phrase and longer than every other
    alternative, all of them a word or two, so "migrate now or wait until Friday" and "keep
    the endpoints, or replace them with GraphQL" keep their verbs.
    """
    pieces = _SEPARATOR.split(text)
    if len(pieces) > 1 and _OR.search(pieces[-1]):
        return pieces[-1], "never"
    lead = _LEADS.match(text)
    if lead:
        return text[lead.end() :], "when_longer"
    head, comma, tail = text.partition(",")
    if comma and _OR.search(tail) and not _OR.search(head):
        return tail, "never"
    return text, "always"


def _is_longest(parts: list[str]) -> bool:
    if len(parts) < 2:
        return False
    others = max(len(p.split()) for p in parts[1:])
    first = len(parts[0].split())
    return others <= _SHORT_CHOICE_WORDS and others < first <= _SHORT_CHOICE_WORDS + 2


def _without_trailing_phrase(parts: list[str]) -> list[str]:
    """Cut "for the tests" off "unittest for the tests" when the other choices are short."""
    longest = max(len(p.split()) for p in parts[:-1])
    if longest <= _SHORT_CHOICE_WORDS:
        cut = _TRAILING_PHRASE.sub("", parts[-1])
        if cut and len(cut.split()) <= longest:
            return [*parts[:-1], cut]
    return parts


def _aligned(parts: list[str]) -> list[str]:
    """Drop the verb of "cache the HTML" when the others start where its object does ("the …")."""
    first = parts[0].split()
    starts = {p.split()[0].lower() for p in parts[1:] if p.split()}
    if len(first) > 1 and first[1].lower() in _DETERMINERS and starts <= _DETERMINERS:
        return [" ".join(first[1:]), *parts[1:]]
    return parts


def _balance(parts: list[str]) -> list[str]:
    """Cut the first alternative to as many words as the longest other one."""
    if len(parts) < 2:
        return parts
    width = max(len(p.split()) for p in parts[1:])
    words = parts[0].split()
    return [" ".join(words[-width:]), *parts[1:]]


def is_or_follow_up(sentence: str) -> bool:
    """True for a question that offers one more alternative to the one before ("Or wait?")."""
    return bool(_OR_START.match(clean_question(sentence))) and is_question(sentence)


def alternative(sentence: str) -> str:
    """One alternative as a person would label it: the question without its lead, "Or" and
    question mark ("Or should I wait until Monday?" → "Wait until Monday"); ``""`` when it
    only invites the user's own answer ("Or something else?") or is too long to be a label."""
    text = clean_question(sentence).rstrip(_TRAILING_MARKUP + "?").strip()
    text = _OR_START.sub("", text)
    if _OPEN_ALTERNATIVE.search(text):
        return ""
    text = _strip_lead(_TRAILING_ADDRESS.sub("", text))
    text = re.sub(r"\s+instead$", "", text, flags=re.IGNORECASE)
    if not text or len(text.split()) > MAX_WORDS_PER_CHOICE or _WH_START.match(text):
        return ""
    return capitalize(text.replace("`", ""))


def _strip_lead(text: str) -> str:
    return _FILLER_START.sub("", _ALT_LEAD.sub("", text, count=1)).strip()


def _led_alternatives(text: str) -> tuple[str, ...]:
    """ "Want me to X, or would you prefer to Y": alternatives after the first each open with
    a lead of their own, so each is a whole verb phrase once its lead is taken off."""
    if _WH_START.match(text):
        return ()
    cuts = [m for m in _OR_JOINT.finditer(text) if _ALT_LEAD.match(text[m.end() :])]
    if not cuts:
        return ()
    bounds = [0, *(c for m in cuts for c in (m.start(), m.end())), len(text)]
    parts = [text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]
    parts[-1] = _TRAILING_ADDRESS.sub("", parts[-1])
    choices = tuple(capitalize(_strip_lead(part).replace("`", "")) for part in parts)
    if any(not c or len(c.split()) > MAX_WORDS_PER_CHOICE for c in choices):
        return ()
    return choices
