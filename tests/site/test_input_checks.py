"""config.input_checks: the bracket count agrees with the real nesting of any JSON document,
and the NUL search finds a NUL wherever it hides."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from config.input_checks import contains_nul, form_has_nul, json_too_deep

# Strings full of the characters that could fool a bracket count: brackets, quotes, backslashes.
tricky_text = st.text(alphabet='[]{}"\\ab\x00\u00e9', max_size=8)
documents = st.recursive(
    st.none() | st.booleans() | st.integers() | tricky_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
    max_leaves=30,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


def has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(map(has_nul, value))
    if isinstance(value, dict):
        return any(map(has_nul, [*value.keys(), *value.values()]))
    return False


@given(documents, st.integers(min_value=0, max_value=6), st.booleans())
def test_depth_check_agrees_with_the_parsed_document(document, limit, ascii_only):
    text = json.dumps(document, ensure_ascii=ascii_only)
    assert json_too_deep(text, limit) == (depth(document) > limit)


@given(documents)
def test_nul_search_agrees_with_a_recursive_one(document):
    assert contains_nul(document) == has_nul(document)


def test_a_thousand_levels_are_too_deep_without_recursing():
    assert json_too_deep("[" * 100_000 + "]" * 100_000)
    assert contains_nul(json.loads(json.dumps([[["a\x00"]]])))


def test_form_fields_with_a_nul_in_a_name_or_a_value():
    assert form_has_nul([("name", ["ok", "x\x00"])])
    assert form_has_nul([("na\x00me", ["ok"])])
    assert not form_has_nul([("name", ["ok", b"\x00 bytes are files"])])
