"""What every game system's list rules provide, so `lists/validate` (and later the tournament
services) dispatch by the chart's game system instead of branching on it."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from rest_framework import serializers

from armylists.validation import Problem
from config.refusals import CodedRefusal

Renderer = Callable[[Problem], str]


class ListRefused(CodedRefusal):
    """The body names something that does not exist (a faction, an option): a 400 with ``code``."""


class ListRules:
    """One game system's list rules. Subclasses set the class attributes and implement ``check``.

    ``serializer`` is the whole request body it reads; its list of units (or models) sits under
    ``item_key`` and each item is read by ``item_serializer``. ``shared_view`` marks the
    count-based chart rules, whose units and rosters the generic list view reads itself.
    """

    slug: ClassVar[str]
    serializer: ClassVar[type[serializers.Serializer]]
    item_key: ClassVar[str] = "units"
    item_serializer: ClassVar[type[serializers.Serializer]]
    shared_view: ClassVar[bool] = False

    @classmethod
    @cache
    def top_fields(cls) -> frozenset[str]:
        return frozenset(cls.serializer().fields)

    @classmethod
    @cache
    def item_fields(cls) -> frozenset[str]:
        return frozenset(cls.item_serializer().fields)

    def check(self, chart: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        """The language-neutral answer (problems as ``{"code", "slot", "params"}``)."""
        raise NotImplementedError

    def render(self, chart: Any, answer: Mapping[str, Any]) -> dict[str, Any]:
        """The answer with a ``message`` on every problem, in the active language."""
        raise NotImplementedError

    def stored_items(self, data: Mapping[str, Any], answer: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What a stored list keeps of a checked body: its items, JSON-ready."""
        return [dict(item) for item in data[self.item_key]]

    def stored_report(self, data: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
        """What a stored list keeps as its report: the answer, and under ``inputs`` what the
        body held beside its items (faction, advanced rules, size bounds), so the list can be
        checked again when staff edit its chart."""
        inputs = {key: value for key, value in data.items()
                  if key not in ("chart", "points_limit", self.item_key)}
        return {**answer, "inputs": inputs}

    def recheck(self, chart: Any, points_limit: int, items: Sequence[Mapping[str, Any]],
                report: Mapping[str, Any]) -> dict[str, Any] | None:
        """A stored list's report checked again with its stored items and inputs (None: the
        stored body no longer reads, e.g. a faction staff removed: the report stays as it was)."""
        body = {**dict(report.get("inputs") or {}), "chart": chart.slug, "points_limit": points_limit,
                self.item_key: [dict(item) for item in items]}
        checked = self.serializer(data=body)
        if not checked.is_valid():
            return None
        data = checked.validated_data
        try:
            return self.stored_report(data, self.check(chart, data))
        except ListRefused:
            return None

    def rules_problem(self, rules: Mapping[str, Any]) -> str | None:
        """Why a chart's ``rules`` cannot be read by this system (None: fine); for the admin."""
        return None


def problem_dicts(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    return [problem.to_dict() for problem in problems]


def render_problems(problems: Sequence[Mapping[str, Any]], render: Renderer) -> list[dict[str, Any]]:
    """``{"code", "message", "slot"?, "params"}`` per problem, as the chart answers give them."""
    out = []
    for p in problems:
        params = p.get("params", {})
        item: dict[str, Any] = {"code": p["code"],
                                "message": render(Problem(p["code"], p.get("slot"), params))}
        if p.get("slot"):
            item["slot"] = p["slot"]
        item["params"] = params
        out.append(item)
    return out
