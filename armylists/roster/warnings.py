"""One warning per problem: merging the roster reader's warnings with the validator's.

The reader already says why a unit has no slot (``unknown_category``, ``no_category``,
``no_slot_category``) or no points (``points_missing``, ``negative_points``); the validator
says it again for every entry (``entry_without_slot``, ``entry_zero_points``). The validator's
warning is dropped when the reader's names the same unit. Identical warnings (same code, slot
and params: two copies of one unit) are given once. Order: reader first, then validator.
"""
from __future__ import annotations

from collections.abc import Iterable

from armylists.validation import Problem

# Validator code -> reader codes that already tell the player about the same unit.
COVERED_BY: dict[str, frozenset[str]] = {
    "entry_without_slot": frozenset({"unknown_category", "no_category", "no_slot_category"}),
    "entry_zero_points": frozenset({"points_missing", "negative_points"}),
}


def merge_warnings(
    import_warnings: Iterable[Problem], report_warnings: Iterable[Problem]
) -> list[Problem]:
    """Reader and validator warnings, each problem once."""
    read = list(import_warnings)
    named = {(problem.code, problem.params.get("name")) for problem in read}
    kept = [
        problem for problem in report_warnings
        if not any((code, problem.params.get("name")) in named for code in COVERED_BY.get(problem.code, ()))
    ]
    return list(dict.fromkeys((*read, *kept)))
