"""The tournament page's game system: a new event picks its system first, then the page shows
that system's fields only (its level and missions, turn systems, switches and settings)."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin.utils import flatten_fieldsets
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from armylists.models import GameSystem
from events.admin.forms import (
    MODEL_FIELDS,
    default_system,
    event_systems,
    setting_fields,
    setting_title,
    suggested_points,
)
from events.models import Tournament
from events.systems import event_rules


class SystemFieldsMixin:
    """For the ``TournamentAdmin``: the fieldsets and form of the system shown."""

    event_fieldset: tuple[Any, dict]
    after_system_fieldsets: list[tuple[Any, dict]]
    add_only: set[str]

    def _system(self, request, obj: Tournament | None) -> GameSystem | None:
        """The system whose fields the form shows: the one sent (a save, or ``?game_system=``),
        else the saved one; None on a new event's first step."""
        cache = request.__dict__.setdefault("_event_system", {})
        key = obj.pk if obj is not None else None
        if key not in cache:
            cache[key] = self._find_system(request, obj)
        return cache[key]

    @staticmethod
    def _find_system(request, obj: Tournament | None) -> GameSystem | None:
        source = request.POST if request.method == "POST" else request.GET
        slug = source.get("game_system", "")
        found = event_systems().filter(slug=slug).first() if slug else None
        if found is not None:
            return found
        if obj is not None:
            return obj.game_system
        if request.method == "POST":
            return default_system()
        return None

    def system_fieldsets(self, system: GameSystem | None) -> list[tuple[Any, dict]]:
        """Only what the system uses: a level and mission rolls where Cities of Death missions
        are rolled, a turn system where there is a choice, its own switches and settings."""
        slug = system.slug if system is not None else settings.MUSTER_DEFAULT_GAME_SYSTEM
        rules = event_rules(slug)
        armies = ["game_system", "chart", "points_limit", "rounds"]
        if rules.rolls_missions:
            armies += ["level", "on_six", "missions"]
        if len(rules.turn_systems) > 1:
            armies.append("turn_system")
        found = [(_("Game and armies"), {"fields": armies})]
        by_group: dict[str, list[str]] = {}
        for name, (group, _key, _field) in setting_fields(slug).items():
            by_group.setdefault(group, []).append(name)
        found += [(setting_title(slug, group), {"fields": names})
                  for group, names in by_group.items()]
        return found

    def get_fieldsets(self, request, obj=None):
        fieldsets = [self.event_fieldset, *self.system_fieldsets(self._system(request, obj)),
                     *self.after_system_fieldsets]
        if obj is None:
            return [(title, {"fields": [f for f in opts["fields"] if f not in self.add_only]})
                    for title, opts in fieldsets]
        return [*fieldsets,
                (_("Rounds"), {"fields": ["rounds_overview"]}),
                (_("Record"), {"fields": ["created_by", "created_at"]})]

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The form of the system shown; the settings fields it adds itself are left out of the
        model form's field list (they are no model fields)."""
        fields = kwargs.pop("fields", None)
        if fields is None:
            fields = flatten_fieldsets(self.get_fieldsets(request, obj))
        known = set(self.form.base_fields) | MODEL_FIELDS
        kwargs["fields"] = [f for f in fields if f in known]
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"system": self._system(request, obj)})

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        system = self._system(request, None)
        if system is None:
            return initial
        initial["game_system"] = system.slug
        points = suggested_points(system.slug)
        if points is not None:
            initial.setdefault("points_limit", points)
        charts = list(system.charts.values_list("pk", flat=True)[:2])
        if len(charts) == 1:
            initial.setdefault("chart", charts[0])
        return initial

    def add_view(self, request, form_url="", extra_context=None):
        """Without JavaScript the form cannot change as a system is picked: a new event asks for
        its system first, then shows that system's form (``?game_system=<slug>``)."""
        if request.method == "GET" and self._system(request, None) is None:
            return self._choose_system(request)
        return super().add_view(request, form_url, extra_context)

    def _choose_system(self, request):
        asked = request.GET.get("game_system")
        context = {**self.admin_site.each_context(request), "opts": self.opts,
                   "title": _("Add tournament: choose its game system"),
                   "systems": list(event_systems()), "asked": asked,
                   "has_view_permission": self.has_view_permission(request)}
        return TemplateResponse(request, "admin/league/tournament/choose_system.html", context)
