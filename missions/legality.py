"""Stratagem legality for one player's declaration (rules §3.1, §7.1, §8.3–§8.6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from missions.catalogue_types import ROLES, StratagemException

UNKNOWN = "stratagem_unknown"
FORBIDDEN = "stratagem_forbidden"
DUPLICATE = "stratagem_duplicate"
LIMIT = "stratagem_limit"


@dataclass(frozen=True)
class Problem:
    """One legality fault: a stable ``code`` (api-v1) and the values a message needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Allowance:
    """What one player may declare: ``base`` slots plus mission exceptions.

    ``extras``: category -> slots only that category may use (a sheet prints "2 + 1 Key Building").
    ``free``: stratagem -> copies outside the quota (None = any number).
    ``repeatable``: stratagem -> copies allowed (None = any number); others are limited to one.
    """

    base: int
    extras: Mapping[str, int] = field(default_factory=dict, hash=False)
    free: Mapping[str, int | None] = field(default_factory=dict, hash=False)
    repeatable: Mapping[str, int | None] = field(default_factory=dict, hash=False)
    forbidden_categories: frozenset[str] = frozenset()

    def max_copies(self, stratagem: str) -> int | None:
        """How many copies of ``stratagem`` may be declared (None = any number).

        A free grant of n copies allows n copies even without a repeatable exception.
        """
        repeatable = self.repeatable.get(stratagem, 1)
        free = self.free.get(stratagem, 1)
        if repeatable is None or free is None:
            return None
        return max(1, repeatable, free)

    def free_copies(self, stratagem: str, declared: int) -> int:
        """How many of ``declared`` copies are outside the quota."""
        grant = self.free.get(stratagem, 0)
        return declared if grant is None else min(declared, grant)


def allowance_for(
    level_allowance: int, role: str | None, exceptions: Sequence[StratagemException]
) -> Allowance:
    """The allowance of a player holding ``role`` (None outside attacker/defender missions)."""
    if level_allowance < 0:
        raise ValueError("the level allowance cannot be negative")
    if role is not None and role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    extras: Counter[str] = Counter()
    free: dict[str, int | None] = {}
    repeatable: dict[str, int | None] = {}
    forbidden: set[str] = set()
    for exc in (e for e in exceptions if e.applies_to(role)):
        # StratagemException guarantees the slug each kind needs, so `or ""` never applies.
        category, slug = exc.category or "", exc.stratagem or ""
        if exc.kind == "extra":
            extras[category] += exc.count or 0
        elif exc.kind == "forbidden_category":
            forbidden.add(category)
        elif exc.kind == "repeatable":
            repeatable[slug] = _widest(repeatable.get(slug, 1), exc.count)
            if not exc.counts_toward_limit:
                free[slug] = _added(free.get(slug, 0), exc.count)
        else:
            free[slug] = _added(free.get(slug, 0), exc.count)
    return Allowance(level_allowance, dict(extras), free, repeatable, frozenset(forbidden))


def _widest(current: int | None, count: int | None) -> int | None:
    """The larger of two copy limits, None meaning any number."""
    return None if current is None or count is None else max(current, count)


def _added(current: int | None, count: int | None) -> int | None:
    """Two free grants together, None meaning any number."""
    return None if current is None or count is None else current + count


def check_stratagems(
    declared: Sequence[str],
    *,
    allowance: int,
    role: str | None,
    categories: Mapping[str, str],
    exceptions: Sequence[StratagemException] = (),
) -> tuple[Problem, ...]:
    """Every fault of one player's declaration, sorted, each fault reported once.

    A forbidden, unknown or surplus duplicate stratagem is reported under its own code and
    not counted again under ``stratagem_limit``. Extra slots go to their category first, which
    is optimal since each stratagem has one category.
    """
    granted = allowance_for(allowance, role, exceptions)
    problems: list[Problem] = []
    counted: Counter[str] = Counter()
    for slug, copies in sorted(Counter(declared).items()):
        category = categories.get(slug)
        if category is None:
            problems.append(Problem(UNKNOWN, {"stratagem": slug}))
            continue
        if category in granted.forbidden_categories:
            problems.append(Problem(FORBIDDEN, {"stratagem": slug, "category": category}))
            continue
        limit = granted.max_copies(slug)
        if limit is not None and copies > limit:
            problems.append(
                Problem(DUPLICATE, {"stratagem": slug, "declared": copies, "allowed": limit})
            )
            copies = limit
        counted[category] += copies - granted.free_copies(slug, copies)
    problems.extend(_limit_problem(counted, granted))
    return tuple(problems)


def _limit_problem(counted: Counter[str], granted: Allowance) -> list[Problem]:
    over_extras = sum(max(0, n - granted.extras.get(cat, 0)) for cat, n in counted.items())
    if over_extras <= granted.base:
        return []
    params = {
        "counted": sum(counted.values()),
        "allowed": granted.base,
        "extras": dict(granted.extras),
    }
    return [Problem(LIMIT, params)]
