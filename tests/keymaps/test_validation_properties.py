"""Properties: no document makes validation raise, and accepted keymaps are stable."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.keymaps.contexts import CONTEXTS
from pi_ask.keymaps.key_ids import (
    BASE_ALIASES,
    FUNCTION_KEYS,
    MODIFIER_ALIASES,
    NAMED_KEYS,
    SYMBOLS,
    KeyIdError,
    parse_key_id,
)
from pi_ask.keymaps.terminal_keys import is_available
from pi_ask.keymaps.validation import resolve_keymaps

BASES = [*NAMED_KEYS, *FUNCTION_KEYS, *"abnxz059", *SYMBOLS, *BASE_ALIASES, "f13", "foo", ""]
MODIFIERS = [*MODIFIER_ALIASES, "hyper", ""]


def _random_case(text: str) -> st.SearchStrategy[str]:
    return st.lists(st.booleans(), min_size=len(text), max_size=len(text)).map(
        lambda flips: "".join(c.upper() if f else c for c, f in zip(text, flips, strict=True))
    )


key_texts = st.one_of(
    st.builds(
        lambda mods, base, pad: pad + "+".join([*mods, base]) + pad,
        st.lists(st.sampled_from(MODIFIERS).flatmap(_random_case), max_size=3),
        st.sampled_from(BASES).flatmap(_random_case),
        st.sampled_from(["", " ", "\t"]),
    ),
    st.text(max_size=8),
)
NAMES = [
    name
    for spec in CONTEXTS
    for name in (spec.name, spec.alias, *(n for a in spec.actions for n in (a.name, a.alias)))
]
names = st.one_of(st.sampled_from(NAMES), st.text(max_size=6))
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), key_texts)
bindings = st.one_of(scalars, st.lists(st.one_of(key_texts, scalars), max_size=4))
documents = st.one_of(
    scalars,
    st.lists(scalars, max_size=3),
    st.dictionaries(names, st.one_of(bindings, st.dictionaries(names, bindings, max_size=6))),
)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_any_document_resolves_without_raising(document: object) -> None:
    result = resolve_keymaps(document)
    for binding in result.keymaps.bindings:
        assert binding.keys, "every action keeps at least one bound key"
        for key in binding.keys:
            assert parse_key_id(key) == key
            assert is_available(key)
        for key in binding.unavailable:
            assert parse_key_id(key) == key
            assert not is_available(key)
    for problem in result.problems:
        assert problem.path.startswith("keymaps")
        assert problem.message
        assert "\x1b" not in str(problem)


@settings(max_examples=200, deadline=None)
@given(key_texts)
def test_accepted_key_ids_round_trip(text: str) -> None:
    try:
        canonical = parse_key_id(text)
    except KeyIdError as error:
        assert error.reason.startswith(("empty binding", "unsupported modifier", "unsupported key"))
        return
    assert parse_key_id(canonical) == canonical
    assert parse_key_id(canonical.upper()) == canonical


_DEFAULT_KEYS = {key for spec in CONTEXTS for action in spec.actions for key in action.default_keys}
_POOL = sorted(
    {
        "+".join([*mods, base])
        for mods in ([], ["ctrl"], ["alt"], ["shift"], ["super"], ["ctrl", "shift"])
        for base in [*NAMED_KEYS, *FUNCTION_KEYS, *"abcdefghijklmnopqrstuvwxyz0", *"?/@;"]
    }
    - _DEFAULT_KEYS
)
_SPELLINGS = {v: k for k, v in BASE_ALIASES.items()}


def _spelled(key: str) -> st.SearchStrategy[str]:
    """A canonical id as a user might write it: other case, an alias."""
    *mods, base = key.split("+")
    written = "+".join([*mods, _SPELLINGS.get(base, base)])
    return st.sampled_from([key, written]).flatmap(_random_case)


remaps = st.fixed_dictionaries(
    {},
    optional={
        spec.alias if index % 2 else spec.name: st.fixed_dictionaries(
            {},
            optional={
                action.name: st.lists(
                    st.sampled_from(_POOL).flatmap(_spelled), min_size=1, max_size=3
                )
                for action in spec.actions
            },
        )
        for index, spec in enumerate(CONTEXTS)
    },
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(documents, remaps))
def test_accepted_keymaps_round_trip_through_normalization(document: object) -> None:
    result = resolve_keymaps(document)
    if result.has_errors:
        return
    again = resolve_keymaps(result.keymaps.as_document())
    assert again.keymaps == result.keymaps
    assert not again.has_errors
