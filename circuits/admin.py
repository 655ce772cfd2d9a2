"""Circuits in the admin: create and change (method and settings checked as the API checks
them), include Muster events with a multiplier, import results and starting ratings from CSV,
merge two names of one person, and see when the standings were computed. Every change goes
through the services, so it is logged and brings the standings up to date."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from circuits.models import Circuit, CircuitEvent, Person
from circuits.services import circuits, compute, imports
from config.refusals import Refusal
from events.audit import Actor


class CircuitForm(forms.ModelForm):
    class Meta:
        model = Circuit
        fields = ["name", "slug", "game_system", "method", "settings"]
        help_texts = {"settings": gettext_lazy(
            "JSON. Placement: base_by_rounds, size_cap, curve (linear or t3), best_n, weights, "
            "decay_days, decay_step, min_events. Elo: initial_rating, k_factor, min_games. "
            "Glicko-2: initial_rating, initial_deviation, initial_volatility, tau, min_games. "
            "Missing ones take their defaults.")}

    def clean(self):
        data = super().clean()
        raw = data.get("settings") or {}
        if not isinstance(raw, dict):
            raise forms.ValidationError(_("The settings must be a JSON object."))
        try:
            data["settings"] = circuits.checked_settings(data.get("method"), raw)
        except Refusal as refused:
            raise forms.ValidationError(str(refused)) from None
        return data


class CircuitEventInline(admin.TabularInline):
    model = CircuitEvent
    extra = 1
    raw_id_fields = ["tournament"]
    fields = ["tournament", "multiplier"]


class CsvForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"))


class MergeForm(forms.Form):
    keep = forms.CharField(label=gettext_lazy("Keep (key)"))
    merge = forms.CharField(label=gettext_lazy("Merge into it (key)"))


@admin.register(Circuit)
class CircuitAdmin(admin.ModelAdmin):
    form = CircuitForm
    inlines = [CircuitEventInline]
    list_display = ["name", "method", "standings_state", "computed_at", "compute_seconds"]
    readonly_fields = ["standings_state", "computed_at", "computed_as_of", "compute_seconds", "tools"]
    prepopulated_fields = {"slug": ["name"]}

    @admin.display(description=gettext_lazy("standings"))
    def standings_state(self, circuit: Circuit) -> str:
        return _("computing") if circuit.computing else _("current")

    @admin.display(description=gettext_lazy("tools"))
    def tools(self, circuit: Circuit) -> str:
        if not circuit.pk:
            return "—"
        links = [(reverse("admin:circuits_import_results", args=[circuit.pk]), _("Import results (CSV)")),
                 (reverse("admin:circuits_import_ratings", args=[circuit.pk]), _("Import starting ratings (CSV)")),
                 (reverse("admin:circuits_merge", args=[circuit.pk]), _("Merge two names of one person")),
                 (reverse("circuit-standings", args=[circuit.slug]), _("Standings page"))]
        return format_html(" · ".join(['<a href="{}">{}</a>'] * len(links)),
                           *[part for link in links for part in link])

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        with transaction.atomic():  # the settings or the events changed: up to date again
            compute.changed(form.instance)

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/import-results/", wrap(self.import_results), name="circuits_import_results"),
            path("<int:pk>/import-ratings/", wrap(self.import_ratings), name="circuits_import_ratings"),
            path("<int:pk>/merge/", wrap(self.merge), name="circuits_merge"),
            *super().get_urls(),
        ]

    def _tool(self, request, pk: int, form_class, title: str, intro: str, columns: str, action):
        circuit = get_object_or_404(Circuit, pk=pk)
        if not self.has_change_permission(request, circuit):
            return redirect("admin:index")
        form = form_class(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                done = action(Actor.of(request), circuit, form.cleaned_data)
            except Refusal as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(request, done, messages.SUCCESS)
                return redirect("admin:circuits_circuit_change", circuit.pk)
        return render(request, "circuits/admin/tool.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "title": title,
            "form": form, "intro": intro, "columns": columns, "submit": title, "original": circuit})

    def import_results(self, request, pk: int):
        def run(actor, circuit, data):
            ids = imports.import_results(actor, circuit, data["file"].read())
            return _("%(count)s results imported.") % {"count": len(ids)}
        return self._tool(request, pk, CsvForm, _("Import results (CSV)"), _(
            "One line per placing; lines with the same event and date make one event. Optional "
            "column: multiplier. Commas, semicolons or tabs; UTF-8."),
            ", ".join(imports.RESULT_COLUMNS), run)

    def import_ratings(self, request, pk: int):
        def run(actor, circuit, data):
            count = imports.import_ratings(actor, circuit, data["file"].read())
            return _("%(count)s starting ratings imported.") % {"count": count}
        return self._tool(request, pk, CsvForm, _("Import starting ratings (CSV)"), _(
            "One line per person; deviation and volatility are optional (Glicko-2)."),
            "player, rating, deviation, volatility", run)

    def merge(self, request, pk: int):
        def run(actor, circuit, data):
            kept = circuits.merge(actor, circuit, data["keep"], data["merge"])
            return _("Merged into %(key)s.") % {"key": kept.key}
        return self._tool(request, pk, MergeForm, _("Merge two names of one person"), _(
            "The second name's results, games and starting rating count for the first from now on."),
            "", run)


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["key", "name", "circuit", "user", "merged_into"]
    list_filter = ["circuit"]
    search_fields = ["key", "name"]
    readonly_fields = ["circuit", "key", "norm", "merged_into"]
    raw_id_fields = ["user"]

    def has_add_permission(self, request) -> bool:
        return False  # people come from results, events and ratings
