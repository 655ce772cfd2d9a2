"""Warhammer Battle lists (seed 003): systems/whfb/army.py with the chart's percentage limits, the
faction's tags and the event's advanced rules; slot counts still come from the chart's rows."""
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from armylists import chart_reports, services, validation
from armylists.models import Faction
from armylists.roster import RosterUnreadable
from armylists.systems import messages
from armylists.systems.base import ListRefused, ListRules, render_problems
from systems.whfb import army as engine
from systems.whfb.list_messages import render_whfb_problem
from systems.whfb.list_serializers import WhfbListSerializer, WhfbUnitSerializer

NO_POINTS_LIMIT = 10**9
ASSUMED_TYPE = "infantry"  # a roster gives no unit type: the most common, said in a warning  # the count check only counts slots: points are the engine's


class WhfbRules(ListRules):
    slug = "whfb"
    serializer = WhfbListSerializer
    item_serializer = WhfbUnitSerializer

    def check(self, chart: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        if "roster" in data:
            return self._check_roster(chart, data)
        slug, tags = self._faction(chart, data.get("faction"))
        for unit in data["units"]:
            for option in unit["options"]:
                if option not in engine.OPTIONS:
                    raise ListRefused("option_unknown", option=option, name=unit["name"])
        entries = [_entry(unit) for unit in data["units"]]
        try:
            limits = engine.percent_limits(dict(chart.rules or {}).get("percent") or {})
        except (AttributeError, TypeError, ValueError):
            raise ListRefused("chart_rules_invalid", chart=chart.slug) from None
        rules = engine.AdvancedRules(**data.get("advanced_rules", {}))
        report = engine.validate(entries, data["points_limit"], rules, slug, tags, limits)
        counted = validation.validate(
            [validation.Entry(e.name, e.slot, e.points, max(e.models, 1)) for e in entries if not e.baggage],
            services.chart_spec(chart), NO_POINTS_LIMIT, known_slots=engine.SLOTS,
        )
        slot_errors = [p for p in counted.errors if p.code.startswith("slot_")]
        zero = [p for p in counted.warnings if p.code == "entry_zero_points"]
        errors = [*report.errors, *slot_errors]
        return services.report_data(validation.Report(
            valid=not errors, total_points=report.total_points, slots=counted.slots,
            errors=tuple(errors), warnings=(*report.warnings, *zero),
        )) | {
            "base_points": report.base_points,
            "surcharges": [{"name": s.name, "option": s.option, "points": s.points} for s in report.surcharges],
            "baggage": None if report.baggage is None else
            {"points": report.baggage.points, "allowance": report.baggage.allowance},
        }

    def _check_roster(self, chart: Any, data: Mapping[str, Any]) -> dict[str, Any]:
        """A roster's units as typed units (infantry, no tags or options: a roster says neither),
        checked as such; the answer lists them (``units``) with the reader's warnings and
        ``unit_type_assumed``, so the player knows to set types before choosing options."""
        try:
            parsed = services.read_roster(data["roster"], data["roster_format"], chart.game_system)
        except RosterUnreadable as exc:
            raise ListRefused("roster_unreadable", reason=exc.reason, **exc.params) from None
        units = [{"name": e.name, "slot": e.slot, "points": e.points, "models": max(e.models, 1),
                  "unit_type": ASSUMED_TYPE, "tags": [], "options": [], "baggage": False}
                 for e in parsed.entries]
        body = {k: v for k, v in data.items() if k not in ("roster", "roster_format")}
        answer = self.check(chart, {**body, "units": units})
        assumed = validation.Problem("unit_type_assumed", None, {"count": len(units), "type": ASSUMED_TYPE})
        warnings = [*answer["warnings"], *(p.to_dict() for p in parsed.warnings), assumed.to_dict()]
        return {**answer, "warnings": warnings, "units": units, "roster_format": parsed.format}

    def stored_items(self, data: Mapping[str, Any], answer: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A roster is stored as the units read from it."""
        return [dict(u) for u in answer["units"]] if "roster" in data else super().stored_items(data, answer)

    def stored_report(self, data: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
        """The faction was checked with the list (its tags forbid baggage) but is none of its
        units: a stored list keeps it in its report, so the page and the API read it back. The
        roster itself is not an input: its units are the stored items."""
        kept = {k: v for k, v in data.items() if k not in ("roster", "roster_format")}
        return {**super().stored_report(kept, answer), "faction": data.get("faction")}

    def render(self, chart: Any, answer: Mapping[str, Any]) -> dict[str, Any]:
        names = chart_reports.slot_names(chart.game_system)

        def one(problem: validation.Problem) -> str:
            if problem.code == "unknown_slot" and problem.slot is None:
                return messages.render("whfb_unknown_slot", problem.params) or problem.code
            return messages.render(problem.code, problem.params) or render_whfb_problem(
                problem.code, problem.slot, problem.params, names)

        return {**answer, "errors": render_problems(answer["errors"], one),
                "warnings": render_problems(answer["warnings"], one)}

    def rules_problem(self, rules: Mapping[str, Any]) -> str | None:
        try:
            engine.percent_limits(rules.get("percent") or {})
        except (AttributeError, TypeError, ValueError):
            return str(_('Write percentage limits as {"percent": {"core": {"min": 25}, "rare": '
                         '{"max": 25}}}: slots lords, heroes, core, special, rare; whole numbers 0 to 100, '
                         'min not above max.'))
        return None

    @staticmethod
    def _faction(chart: Any, slug: str | None) -> tuple[str | None, frozenset[str]]:
        if not slug:
            return None, frozenset()
        faction = Faction.objects.filter(game_system_id=chart.game_system_id, slug=slug).first()
        if faction is None:
            raise ListRefused("faction_unknown", faction=slug)
        return slug, frozenset(str(tag).lower() for tag in faction.tags or ())


def _entry(unit: Mapping[str, Any]) -> engine.WfbEntry:
    return engine.WfbEntry(
        name=unit["name"], slot=unit.get("slot"), points=unit["points"], models=unit.get("models", 1),
        unit_type=unit["unit_type"], tags=frozenset(unit.get("tags", ())),
        options=tuple(unit.get("options", ())), baggage=unit.get("baggage", False),
    )

