"""Checks on untrusted input that run before anything else looks at it: NUL characters (which
PostgreSQL refuses in text) and JSON nesting (which would exhaust the recursion limit).

Plain functions over str, dict and list, without recursion, so a hostile document cannot make
them recurse either."""
from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

NUL = "\x00"
# Deeper than any body of the API (a list of units is 3 levels); far below the recursion limit.
MAX_JSON_DEPTH = 64

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` levels deep.

    Counts brackets outside strings without parsing: it runs before the (recursive) parser."""
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot be deeper than it has brackets: the usual body stops here
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > limit


def contains_nul(data: Any) -> bool:
    """Whether any string in ``data`` (a decoded JSON document: keys and values) holds a NUL."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return False


def any_nul(texts: Iterable[str]) -> bool:
    return any(NUL in text for text in texts)


def form_has_nul(lists: Iterable[tuple[str, list[Any]]]) -> bool:
    """Whether a form's fields (a QueryDict's ``lists()``: names and values) hold a NUL."""
    return any(NUL in name or any(isinstance(v, str) and NUL in v for v in values)
               for name, values in lists)
