"""Hypothesis strategies for payload tests: arbitrary JSON, and valid payloads bent out of shape."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import strategies as st

FIXTURES = Path(__file__).parent.parent / "fixtures" / "payloads"
SAMPLES: tuple[object, ...] = tuple(
    json.loads(path.read_text(encoding="utf-8")) for path in sorted(FIXTURES.glob("*.json"))
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)

# Values and keys that hit the contract's rules more often than random ones would.
_TELLING_VALUES: st.SearchStrategy[object] = st.sampled_from(
    ["", "  ", "single", "multi", "preview", "grid", "a", True, False, 0, None, [], {}]
)
_TELLING_KEYS = st.sampled_from(
    [
        "id",
        "prompt",
        "label",
        "type",
        "value",
        "preview",
        "recommended",
        "freeform",
        "required",
        "title",
        "options",
        "questions",
        "description",
    ]
)


def _mutate_here(draw: st.DrawFn, node: object) -> object:
    operation = draw(st.sampled_from(["replace", "telling", "drop", "add", "duplicate", "empty"]))
    if operation == "replace":
        return draw(json_values)
    if operation == "telling" or not isinstance(node, (dict, list)) or not node:
        return draw(_TELLING_VALUES)
    if operation == "empty":
        return type(node)()
    if isinstance(node, dict):
        if operation == "drop":
            node.pop(draw(st.sampled_from(sorted(node))))
        else:
            node[draw(_TELLING_KEYS)] = draw(_TELLING_VALUES | json_values)
        return node
    position = draw(st.integers(0, len(node) - 1))
    if operation == "drop":
        del node[position]
    else:
        node.insert(position, copy.deepcopy(node[position]))
    return node


def _mutate(draw: st.DrawFn, node: object) -> object:
    children: list[object] = (
        sorted(node)
        if isinstance(node, dict)
        else list(range(len(node)))
        if isinstance(node, list)
        else []
    )
    if children and draw(st.integers(0, 5)) > 0:
        key = draw(st.sampled_from(children))
        node[key] = _mutate(draw, node[key])  # type: ignore[index]
        return node
    return _mutate_here(draw, node)


@st.composite
def mutated_payloads(draw: st.DrawFn) -> object:
    """A sample payload with one to three random edits somewhere in its tree."""
    payload = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        payload = _mutate(draw, payload)
    return payload
