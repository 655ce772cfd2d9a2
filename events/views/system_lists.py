"""The list page of the game systems with list rules of their own (armylists/systems): a
Warhammer Battle army (units with type, tags, options and baggage, and a faction) or an Urban
War commando (one row per model: card, calibre, options, commander, label).

The page sends the same body as ``PUT …/list/`` through the same services (the system's
serializer, then its check under the submission's locks), and shows what the system computes.
Rosters are only read for the count-based charts: a roster file says nothing of unit types,
tags or calibres, so these pages have no paste or upload."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError as BodyError

from armylists import services as list_services
from armylists import systems as list_systems
from armylists.models import ArmyList, Chart, Faction, ProfileCard
from armylists.systems import ListRules
from armylists.systems import messages as list_messages
from config.i18n import current_language
from events.audit import Actor
from events.forms import (
    CommandoFormSet,
    FactionForm,
    GrowableFormSet,
    WhfbUnitFormSet,
    unit_type_choices,
)
from events.models import Player, PlayerList, Tournament
from events.services import lists
from events.views.common import attempt
from systems.urban_war.list_rules import card_specs

Forms = dict[str, Any]


def option_names() -> dict[str, str]:
    return {"mantlets": _("mantlets"), "stakes": _("wooden stakes")}


class SystemPage:
    """One system's forms and report. ``reference`` reads the rows the forms and the report
    need (factions, cards…) once per request."""

    slug: ClassVar[str]
    template: ClassVar[str]
    prefix: ClassVar[str]
    formset_class: ClassVar[type[GrowableFormSet]]

    def reference(self, chart: Chart) -> Any:
        raise NotImplementedError

    def formset_kwargs(self, ref: Any, event: Tournament) -> dict[str, Any]:
        """What each row's form is built with (the choices it offers)."""
        raise NotImplementedError

    def formset(self, ref: Any, event: Tournament, data=None, initial=None) -> GrowableFormSet:
        return self.formset_class(data, prefix=self.prefix, initial=initial,
                                  **self.formset_kwargs(ref, event))

    def side_forms(self, ref: Any, player: Player, army_list: ArmyList | None, data=None) -> Forms:
        """Forms beside the rows (Warhammer Battle: the faction)."""
        return {}

    def body(self, formset: GrowableFormSet, side: Forms) -> dict[str, Any]:
        """The list body as ``PUT …/list/`` takes it."""
        raise NotImplementedError

    def store(self, actor: Actor, player: Player, role: str, rules: ListRules,
              data: Mapping[str, Any]) -> PlayerList:
        return lists.submit_system_list(actor, player, role=role, rules=rules, data=data)

    def initial_rows(self, army_list: ArmyList) -> list[dict[str, Any]]:
        raise NotImplementedError

    def row_problems(self, form, problems: Sequence[Mapping[str, Any]]) -> list[str]:
        raise NotImplementedError

    def report_context(self, ref: Any, chart: Chart, event: Tournament,
                       army_list: ArmyList) -> dict[str, Any]:
        raise NotImplementedError

    def page_context(self, ref: Any, event: Tournament) -> dict[str, Any]:
        return {}


# Warhammer Battle ------------------------------------------------------------------------------

class WhfbPage(SystemPage):
    slug = "whfb"
    template = "league/list_whfb.html"
    prefix = "units"
    formset_class = WhfbUnitFormSet

    def reference(self, chart: Chart) -> dict[str, Any]:
        system = chart.game_system
        prefetch_related_objects([system], "slots")  # the form's slots and the report's names
        factions = list(Faction.objects.filter(game_system_id=system.pk))
        return {"slots": list(list_services.slot_names(system).items()), "factions": factions}

    @staticmethod
    def _switches(event: Tournament) -> tuple[list[str], bool]:
        rules = event.advanced_rules or {}
        return [o for o in ("mantlets", "stakes") if rules.get(o)], bool(rules.get("baggage"))

    def formset_kwargs(self, ref: Any, event: Tournament) -> dict[str, Any]:
        options, baggage = self._switches(event)
        return {"slots": ref["slots"], "options": options, "baggage": baggage}

    def side_forms(self, ref: Any, player: Player, army_list: ArmyList | None, data=None) -> Forms:
        choices = [(f.slug, f.name) for f in ref["factions"]]
        if data is not None:
            return {"faction_form": FactionForm(data, factions=choices)}
        chosen = (army_list.report or {}).get("faction") if army_list is not None else None
        initial = chosen or registered_faction(player, ref["factions"])
        return {"faction_form": FactionForm(factions=choices, initial={"faction": initial})}

    def body(self, formset: GrowableFormSet, side: Forms) -> dict[str, Any]:
        return {"units": formset.units(),
                "faction": side["faction_form"].cleaned_data.get("faction") or None}

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
                "base_points": report.get("base_points", report.get("total_points", 0)),
                "surcharge_points": sum(s["points"] for s in surcharges),
                "surcharges": surcharges, "baggage": report.get("baggage"),
                "within_limit": (event.advanced_rules or {}).get("baggage_mode") == "within_limit",
                "faction_name": factions.get(report.get("faction") or "", "")}

    def page_context(self, ref: Any, event: Tournament) -> dict[str, Any]:
        options, baggage = self._switches(event)
        return {"options_enabled": options, "baggage_enabled": baggage}


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


# Urban War -------------------------------------------------------------------------------------

class CommandoPage(SystemPage):
    slug = "urban-war"
    template = "league/list_urban_war.html"
    prefix = "models"
    formset_class = CommandoFormSet

    def reference(self, chart: Chart) -> dict[str, Any]:
        rows = ProfileCard.objects.filter(
            game_system_id=chart.game_system_id).select_related("faction")
        return {"cards": card_specs(rows)}

    def formset_kwargs(self, ref: Any, event: Tournament) -> dict[str, Any]:
        return {"cards": ref["cards"]}

    def body(self, formset: GrowableFormSet, side: Forms) -> dict[str, Any]:
        return {"models": formset.models()}

    def initial_rows(self, army_list: ArmyList) -> list[dict[str, Any]]:
        return [{"profile": str(e.get("profile", "")), "cal": e.get("cal"),
                 "options": e.get("options", []), "label": e.get("label") or "",
                 "commander": bool(e.get("commander"))} for e in army_list.entries]

    def row_problems(self, form, problems: Sequence[Mapping[str, Any]]) -> list[str]:
        label, profile = form["label"].value() or "", str(form["profile"].value() or "")
        cal = form["cal"].value()
        return [p["message"] for p in problems if commando_concerns(p, label, profile, cal)]

    def report_context(self, ref: Any, chart: Chart, event: Tournament,
                       army_list: ArmyList) -> dict[str, Any]:
        report = list_systems.rules_for(self.slug).render(chart, army_list.report)
        cards = ref["cards"]
        language = current_language()
        entries = [{**e, "card_name": cards[str(e.get("profile"))].name(language)
                    if str(e.get("profile")) in cards else str(e.get("profile", ""))}
                   for e in army_list.entries]
        return {"report": report, "entries": entries}

    def page_context(self, ref: Any, event: Tournament) -> dict[str, Any]:
        rules = {**(event.chart.rules or {}), **(event.settings or {})}
        return {"size_min": rules.get("size_min"), "size_max": rules.get("size_max")}


def commando_concerns(problem: Mapping[str, Any], label: str, profile: str, cal: Any) -> bool:
    """Whether a problem belongs next to a model row: the model it labels, else the card (and
    calibre) it names."""
    params = problem.get("params") or {}
    if "label" in params:
        return str(params["label"]) == label
    if "profile" in params and str(params["profile"]) != profile:
        return False
    if "cal" in params:
        return str(params["cal"]) == str(cal)
    return "profile" in params


PAGES: dict[str, SystemPage] = {page.slug: page for page in (WhfbPage(), CommandoPage())}


def page_for(chart: Chart) -> SystemPage | None:
    """The page of the chart's system; None for the count-based charts (units, rosters). A
    system given list rules of its own needs a page here too."""
    return PAGES.get(list_systems.rules_for(chart.game_system.slug).slug)


# Submitting and showing ------------------------------------------------------------------------

def submit(page: SystemPage, ref: Any, request, actor: Actor, event: Tournament, player: Player,
           role: str, chart: Chart) -> tuple[bool, Forms]:
    """Read the posted rows; True once the service stored the list, else the forms to show
    again (with ``refused``: why the body or the service turned it down)."""
    formset = page.formset(ref, event, data=request.POST)
    side = page.side_forms(ref, player, None, data=request.POST)
    if "add_rows" in request.POST:
        return False, {"formset": formset.grown(**page.formset_kwargs(ref, event)), **side}
    forms: Forms = {"formset": formset, **side}
    if not (formset.is_valid() & all(form.is_valid() for form in side.values())):
        refused = [e for form in side.values() for errors in form.errors.values() for e in errors]
        return False, {**forms, "refused": refused}
    rules = list_systems.rules_for(chart.game_system.slug)
    try:
        data = lists.system_list_data(event, chart, rules, page.body(formset, side))
        stored = attempt(request, lambda: page.store(actor, player, role, rules, data))
    except BodyError as exc:
        return False, {**forms, "refused": flatten(exc.detail)}
    except list_systems.ListRefused as exc:
        return False, {**forms, "refused": [list_messages.render(exc.code, exc.params) or exc.code]}
    if stored is None:
        return False, forms
    if stored.army_list.valid:
        messages.success(request, _("List saved: it is legal."))
    else:
        messages.warning(request, _("List saved, but it is not legal yet: see the problems below."))
    return True, {}


def page_context(page: SystemPage, ref: Any, event: Tournament, player: Player, chart: Chart,
                 shown: ArmyList | None, forms: Forms, editable: bool) -> dict[str, Any]:
    """The report of the version shown and, when editable, the forms (the refused ones as
    sent, else the current version's rows) with each problem next to its row."""
    context: dict[str, Any] = {"report": None, **page.page_context(ref, event)}
    if shown is not None:
        context.update(page.report_context(ref, chart, event, shown))
    if not editable:
        return context
    formset = forms.get("formset") or page.formset(
        ref, event, initial=page.initial_rows(shown) if shown is not None else [])
    side = {key: form for key, form in forms.items() if key not in ("formset", "refused")} or \
        page.side_forms(ref, player, shown)
    report = context["report"]
    problems = [*report["errors"], *report["warnings"]] if report else []
    for form in formset.forms:
        form.problems = page.row_problems(form, problems) if problems else []
    return {**context, "formset": formset, **side}


def grouped(problems: Sequence[Mapping[str, Any]], key) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for problem in problems:
        group = key(problem)
        if group:
            found.setdefault(group, []).append(problem["message"])
    return found


def flatten(detail: Any, prefix: str = "") -> list[str]:
    """A serializer's nested errors as lines ("units: 2: tags: …"), rows counted from 1."""
    if isinstance(detail, Mapping):
        return [line for key, value in detail.items()
                for line in flatten(value, f"{prefix}{key}: ")]
    if isinstance(detail, list):
        if all(isinstance(item, Mapping) for item in detail):
            return [line for number, item in enumerate(detail, start=1)
                    for line in flatten(item, f"{prefix}{number}: ")]
        return [line for item in detail for line in flatten(item, prefix)]
    return [f"{prefix}{detail}"]

