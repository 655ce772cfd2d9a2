"""Awards and penalties in the admin: define an event's components, enter values in a grid.

Every save goes through ``venue.services.awards`` (staff check, row lock, audit entry); the
grid is saved in one transaction, so a refused cell (a penalty without a reason) saves none."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from events.admin.common import ServiceErrorsMixin, admin_url, copy_saved
from events.audit import Actor
from events.errors import ServiceError
from events.models import Player, Tournament
from venue.award_models import MAX_VALUE, ScoreComponent, ScoreEntry
from venue.services import awards

EDITABLE = ("name", "kind", "weight", "players_vote", "counts")


def grid_url(tournament: Tournament | int) -> str:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return reverse("admin:venue_scorecomponent_grid", args=[pk])


@admin.register(ScoreComponent)
class ScoreComponentAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    list_display = ["name", "tournament", "kind", "weight", "players_vote", "counts", "grid_link"]
    list_filter = ["tournament", "kind"]
    list_select_related = ["tournament"]
    search_fields = ["name", "tournament__name"]

    def get_fields(self, request, obj=None):
        return ["tournament", *EDITABLE]

    def get_readonly_fields(self, request, obj=None):
        return ["tournament"] if obj is not None else []

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        tournament = request.GET.get("tournament__id__exact") or request.GET.get("tournament")
        if tournament and tournament.isdigit():
            initial["tournament"] = int(tournament)
        return initial

    @admin.display(description=_("values"))
    def grid_link(self, obj: ScoreComponent) -> str:
        return format_html('<a href="{}">{}</a>', grid_url(obj.tournament_id), _("enter values"))

    def save_model(self, request, obj, form, change):
        actor = Actor.of(request)
        values = {key: form.cleaned_data[key] for key in EDITABLE}
        if change:
            copy_saved(obj, awards.change_component(actor, obj, **values))
        else:
            copy_saved(obj, awards.define_component(actor, form.cleaned_data["tournament"], **values))

    # A saved award or penalty leads back to its event's grid, where its values are entered
    # ("save and continue" and "save and add another" keep Django's way).
    def response_post_save_add(self, request, obj):
        return HttpResponseRedirect(grid_url(obj.tournament_id))

    def response_post_save_change(self, request, obj):
        return HttpResponseRedirect(grid_url(obj.tournament_id))

    def delete_model(self, request, obj):
        awards.remove_component(Actor.of(request), obj)

    def delete_queryset(self, request, queryset):
        actor = Actor.of(request)
        for component in queryset.select_related("tournament"):
            awards.remove_component(actor, component)

    def get_urls(self):
        grid = self.admin_site.admin_view(self.grid_view)
        return [path("grid/<int:tournament_pk>/", grid, name="venue_scorecomponent_grid"),
                *super().get_urls()]

    # The grid ----------------------------------------------------------------------------

    def grid_view(self, request, tournament_pk: int):
        """Players down, components across: a value (and a reason) per cell."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        tournament = get_object_or_404(Tournament, pk=tournament_pk)
        players = list(tournament.players.order_by("name", "pk"))
        components = list(tournament.score_components.order_by("pk"))
        entries = {(e.component_id, e.player_id): e
                   for e in ScoreEntry.objects.filter(component__tournament=tournament)}
        form = GridForm(players, components, entries, request.POST or None)
        if request.method == "POST" and form.is_valid():
            saved = save_grid(Actor.of(request), form, players, components, entries)
            if saved is not None:
                messages.success(request, ngettext("%(n)s value saved.", "%(n)s values saved.",
                                                   saved) % {"n": saved})
                return HttpResponseRedirect(request.path)
        extras = awards.load(tournament)
        rows = [{"player": p, "cells": [_cell(form, extras, entries, p, c) for c in components]}
                for p in players]
        context = {**self.admin_site.each_context(request), "opts": self.opts,
                   "title": _("Awards and penalties"), "subtitle": tournament.name,
                   "tournament": tournament, "tournament_url": admin_url(tournament),
                   "components": components, "rows": rows, "form": form,
                   "add_url": reverse("admin:venue_scorecomponent_add")
                   + f"?tournament={tournament.pk}"}
        return TemplateResponse(request, "admin/venue/scorecomponent/grid.html", context)


def _cell(form: GridForm, extras: awards.Extras, entries, player: Player,
          component: ScoreComponent) -> dict[str, Any]:
    votes = 0
    if component.players_vote:
        entry = entries.get((component.pk, player.pk))
        votes = extras.values.get((component.pk, player.pk), 0) - (entry.value if entry else 0)
    return {"component": component, "value": form[value_key(player, component)],
            "reason": form[reason_key(player, component)], "votes": votes}


def value_key(player: Player, component: ScoreComponent) -> str:
    return f"v-{player.pk}-{component.pk}"


def reason_key(player: Player, component: ScoreComponent) -> str:
    return f"r-{player.pk}-{component.pk}"


class GridForm(forms.Form):
    """A value and a reason field per (player, component); blank clears the cell."""

    def __init__(self, players: list[Player], components: list[ScoreComponent],
                 entries: dict[tuple[int, int], ScoreEntry], data=None):
        super().__init__(data)
        for player in players:
            for component in components:
                entry = entries.get((component.pk, player.pk))
                label = f"{component.name} — {player.name}"
                self.fields[value_key(player, component)] = forms.IntegerField(
                    label=label, required=False, min_value=0, max_value=MAX_VALUE,
                    initial=entry.value if entry else None,
                    widget=forms.NumberInput(attrs={"aria-label": label, "style": "width: 5em"}))
                reason = _("reason: %(cell)s") % {"cell": label}
                self.fields[reason_key(player, component)] = forms.CharField(
                    label=reason, required=False, max_length=awards.MAX_REASON,
                    initial=entry.reason if entry else "",
                    widget=forms.TextInput(attrs={"aria-label": reason, "size": 14,
                                                  "placeholder": _("reason")}))


class _Refused(Exception):
    """Leaves the grid's transaction: one refused cell saves nothing."""


def save_grid(actor: Actor, form: GridForm, players: list[Player],
              components: list[ScoreComponent], entries) -> int | None:
    """Save every changed cell through ``awards.set_entry``; the number saved, or None with the
    refusals on their cells."""
    saved = 0
    try:
        with transaction.atomic():
            for player in players:
                for component in components:
                    value = form.cleaned_data[value_key(player, component)]
                    reason = form.cleaned_data[reason_key(player, component)].strip()
                    entry = entries.get((component.pk, player.pk))
                    if entry is None and value is None:
                        continue  # an empty cell stays empty (a reason alone records nothing)
                    if entry is not None and (value, reason) == (entry.value, entry.reason):
                        continue
                    try:
                        awards.set_entry(actor, component, player, value, reason)
                        saved += 1
                    except ServiceError as exc:
                        form.add_error(value_key(player, component), str(exc))
            if form.errors:
                raise _Refused
    except _Refused:
        return None
    return saved
