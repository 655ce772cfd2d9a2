"""The list page of a Warhammer Battle army (events/views/system_lists.py): units with type,
tags, options and baggage, and a faction; each problem shown next to the unit it concerns."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from armylists import chart_reports
from armylists import systems as list_systems
from armylists.models import ArmyList, Chart, Faction
from events.forms.rows import GrowableFormSet
from events.forms.whfb_units import FactionForm, WhfbUnitFormSet, unit_type_choices
from events.models import Player, Tournament
from events.views.system_lists import Forms, SystemPage, grouped
from systems.whfb import army as engine


def option_names() -> dict[str, str]:
    return {"mantlets": _("mantlets"), "stakes": _("wooden stakes")}


class WhfbPage(SystemPage):
    slug = "whfb"
    template = "league/list_whfb.html"
    prefix = "units"
    formset_class = WhfbUnitFormSet

    def reference(self, chart: Chart) -> dict[str, Any]:
        system = chart.game_system
        prefetch_related_objects([system], "slots")  # the form's slots and the report's names
        factions = list(Faction.objects.filter(game_system_id=system.pk))
        return {"slots": list(chart_reports.slot_names(system).items()), "factions": factions}

    @staticmethod
    def _switches(event: Tournament) -> tuple[list[str], bool]:
        rules = event.advanced_rules or {}
        return [o for o in ("mantlets", "stakes") if rules.get(o)], bool(rules.get("baggage"))

    def formset_kwargs(self, ref: Any, event: Tournament) -> dict[str, Any]:
        options, baggage = self._switches(event)
        return {"slots": ref["slots"], "options": options, "baggage": baggage}

    def side_forms(self, ref: Any, player: Player, army_list: ArmyList | None, data=None) -> Forms:
        choices = [(f.slug, f.name) for f in ref["factions"]]
        registered = registered_faction(player, ref["factions"])
        if data is not None:
            form = FactionForm(data, factions=choices)
        else:
            chosen = (army_list.report or {}).get("faction") if army_list is not None else None
            form = FactionForm(factions=choices, initial={"faction": chosen or registered})
        form.registered = registered  # the army a list left "not given" is checked as
        return {"faction_form": form}

    def body(self, formset: GrowableFormSet, side: Forms) -> dict[str, Any]:
        form = side["faction_form"]
        return {"units": formset.units(),
                "faction": form.cleaned_data.get("faction") or getattr(form, "registered", "") or None}

    def initial_rows(self, army_list: ArmyList) -> list[dict[str, Any]]:
        return [{"name": e.get("name", ""), "slot": e.get("slot") or "", "points": e.get("points"),
                 "models": e.get("models", 1), "unit_type": e.get("unit_type", "infantry"),
                 "tags": e.get("tags", []), "options": e.get("options", []),
                 "baggage": bool(e.get("baggage"))} for e in army_list.entries]

    def row_problems(self, form, problems: Sequence[Mapping[str, Any]]) -> list[str]:
        name, slot = form["name"].value() or "", form["slot"].value() or ""
        baggage = "baggage" in form.fields and bool(form["baggage"].value())
        return [p["message"] for p in problems if whfb_concerns(p, name, slot, baggage)]

    def report_context(self, ref: Any, chart: Chart, event: Tournament,
                       army_list: ArmyList) -> dict[str, Any]:
        report = list_systems.rules_for(self.slug).render(chart, army_list.report)
        names = dict(ref["slots"])
        # A unit's own problem is shown next to its row, not against its whole slot.
        errors_by_slot = grouped(report["errors"], lambda p: None if (p.get("params") or {}).get(
            "name") else p.get("slot"))
        slots = [{"code": code, "name": names.get(code, code), **counts,
                  "errors": errors_by_slot.get(code, [])}
                 for code, counts in report.get("slots", {}).items()]
        types, options = dict(unit_type_choices()), option_names()
        entries = [{**e, "slot_name": names.get(e.get("slot") or "", e.get("slot") or ""),
                    "type_name": types.get(e.get("unit_type"), e.get("unit_type")),
                    "option_names": [options.get(o, o) for o in e.get("options", [])]}
                   for e in army_list.entries]
        surcharges = [{**s, "option_name": options.get(s["option"], s["option"])}
                      for s in report.get("surcharges") or []]
        factions = {f.slug: f.name for f in ref["factions"]}
        return {"report": report, "slots": slots, "entries": entries,
                "shares": slot_shares(chart, army_list.entries, names, errors_by_slot),
                "base_points": report.get("base_points", report.get("total_points", 0)),
                "surcharge_points": sum(s["points"] for s in surcharges),
                "surcharges": surcharges, "baggage": report.get("baggage"),
                "within_limit": (event.advanced_rules or {}).get("baggage_mode") == "within_limit",
                "faction_name": factions.get(report.get("faction") or "", "")}

    def page_context(self, ref: Any, event: Tournament) -> dict[str, Any]:
        options, baggage = self._switches(event)
        return {"options_enabled": options, "baggage_enabled": baggage}


def slot_shares(chart: Chart, entries: Sequence[Mapping[str, Any]], names: Mapping[str, str],
                errors: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    """Each slot's points and share of the army (baggage left out, options counted, as the engine
    checks them) beside the chart's percentage limits, in the engine's slot order."""
    try:
        limits = {limit.slot: limit for limit in engine.percent_limits(
            dict(chart.rules or {}).get("percent") or {})}
    except (AttributeError, TypeError, ValueError):
        limits = {}
    army = [engine.WfbEntry(name=e.get("name", ""), slot=e.get("slot"), points=e.get("points") or 0,
                            models=e.get("models") or 1, unit_type=e.get("unit_type", "infantry"),
                            options=tuple(e.get("options", ())))
            for e in entries if not e.get("baggage")]
    base = sum(e.points + engine.option_surcharge(e) for e in army)
    rows = []
    for code in engine.SLOTS:
        points = sum(e.points + engine.option_surcharge(e) for e in army if e.slot == code)
        units = sum(1 for e in army if e.slot == code)
        limit = limits.get(code)
        rows.append({"code": code, "name": names.get(code, code), "units": units,
                     "points": points, "percent": points * 100 // base if base else 0,
                     "allowed": allowed_words(limit), "errors": errors.get(code, [])})
    return rows


def allowed_words(limit: engine.PercentLimit | None) -> str:
    low = limit.min if limit is not None else None
    high = limit.max if limit is not None else None
    if low is not None and high is not None:
        return _("%(min)s to %(max)s%%") % {"min": low, "max": high}
    if low is not None:
        return _("at least %(min)s%%") % {"min": low}
    if high is not None:
        return _("at most %(max)s%%") % {"max": high}
    return _("no limit")


def registered_faction(player: Player, factions: Sequence[Faction]) -> str:
    """The faction given at registration (free text), when it names one of the system's."""
    given = player.faction.strip().lower()
    for faction in factions:
        if given and given in {faction.slug, faction.name_en.lower(), faction.name_fr.lower()}:
            return faction.slug
    return ""


def whfb_concerns(problem: Mapping[str, Any], name: str, slot: str, baggage: bool) -> bool:
    """Whether a problem belongs next to a unit row: the unit it names, the baggage units for a
    baggage problem, else the units of its slot."""
    params = problem.get("params") or {}
    if params.get("name"):
        return str(params["name"]) == name
    if isinstance(params.get("names"), list):
        return name in params["names"]
    if problem["code"].startswith("baggage"):
        return baggage
    return bool(problem.get("slot")) and problem["slot"] == slot


PAGE = WhfbPage()
