"""The list page of an Urban War commando (events/views/system_lists.py): one row per model
(card, calibre, options, commander, label); each problem shown next to the model it concerns."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from armylists import systems as list_systems
from armylists.models import ArmyList, Chart, ProfileCard
from config.i18n import current_language
from events.forms.commandos import CommandoFormSet
from events.forms.rows import GrowableFormSet
from events.models import Tournament
from events.views.system_lists import Forms, SystemPage
from systems.urban_war.list_rules import card_specs


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


PAGE = CommandoPage()
