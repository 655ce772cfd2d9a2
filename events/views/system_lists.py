"""The list page of the game systems with list rules of their own (armylists/systems): each
system gives its `SystemPage` (``GameSystem.list_page``: its rows, side forms and report, e.g.
systems/whfb/list_page.py and systems/urban_war/list_page.py); this module submits and shows it.

The page sends the same body as ``PUT …/list/`` through the same services (the system's
serializer, then its check under the submission's locks), and shows what the system computes.
Rosters are only read for the count-based charts: a roster file says nothing of unit types,
tags or calibres, so these pages have no paste or upload."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.contrib import messages
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError as BodyError

from armylists import systems as list_systems
from armylists.models import ArmyList, Chart
from armylists.systems import ListRules
from armylists.systems import messages as list_messages
from events.audit import Actor
from events.forms.rows import GrowableFormSet
from events.models import Player, PlayerList, Tournament
from events.services import lists
from events.views.common import attempt
from systems.registry import game_system

Forms = dict[str, Any]


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


def page_for(chart: Chart) -> SystemPage | None:
    """The page of the chart's system (``GameSystem.list_page``); None for the count-based charts
    (units, rosters). A system given list rules of its own gives a page too."""
    system = game_system(chart.game_system.slug)
    return import_string(system.list_page) if system is not None and system.list_page else None


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

