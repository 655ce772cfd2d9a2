"""Admin: game systems, factions, charts, slots and profile cards are editable data; stored lists
are shown with their report."""
from django import forms
from django.contrib import admin
from django.db import transaction
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from armylists import chart_reports, systems, tasks
from armylists.models import ArmyList, Chart, ChartSlot, Faction, GameSystem, Slot
from systems.urban_war.cards_admin import ProfileCardAdmin


class SlotInline(admin.TabularInline):
    model = Slot
    extra = 0


class FactionInline(admin.TabularInline):
    model = Faction
    extra = 0


@admin.register(GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr", "kind"]
    list_filter = ["kind"]
    inlines = [SlotInline, FactionInline]


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr", "game_system", "tags"]
    list_filter = ["game_system"]
    search_fields = ["slug", "name_en", "name_fr"]
    list_select_related = ["game_system"]


class ChartSlotInline(admin.TabularInline):
    model = ChartSlot
    extra = 0


class ChartForm(forms.ModelForm):
    class Meta:
        model = Chart
        fields = ["slug", "game_system", "name_en", "name_fr", "points_min", "points_max", "rules"]

    def clean(self):
        cleaned = super().clean()
        rules, system = cleaned.get("rules"), cleaned.get("game_system")
        if system is not None and rules is not None:
            if not isinstance(rules, dict):
                self.add_error("rules", _("Rules are a JSON object, e.g. {}."))
            elif (problem := systems.rules_for(system.slug).rules_problem(rules)) is not None:
                self.add_error("rules", problem)
        return cleaned


@admin.register(Chart)
class ChartAdmin(admin.ModelAdmin):
    form = ChartForm
    list_display = ["slug", "name_en", "name_fr", "game_system", "points_min", "points_max"]
    list_filter = ["game_system"]
    inlines = [ChartSlotInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        chart_id = form.instance.pk
        # Stored lists follow the chart: re-check them once the edit is committed.
        transaction.on_commit(lambda: tasks.revalidate_chart_lists.delay(chart_id))


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = ["__str__", "owner", "chart", "points_limit", "total_points", "valid", "created_at"]
    list_filter = ["valid", "chart", "source_format"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner", "chart"]
    readonly_fields = [
        "owner", "chart", "points_limit", "source_format", "raw_filename", "total_points",
        "valid", "created_at", "validated_at", "supersedes", "entries_table", "report_table",
        "raw_preview",
    ]
    exclude = ["entries", "report", "raw_upload", "import_warnings"]

    def has_add_permission(self, request):
        return False  # lists come from players and imports, through the services

    @admin.display(description=_("entries"))
    def entries_table(self, obj: ArmyList):
        rows = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((e["name"], e.get("slot") or "—", e["points"], e.get("models", 1)) for e in obj.entries),
        )
        head = format_html(
            "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            _("name"), _("slot"), _("points"), _("models"),
        )
        return format_html("<table>{}{}</table>", head, rows)

    @admin.display(description=_("validation report"))
    def report_table(self, obj: ArmyList):
        names = chart_reports.slot_names(obj.chart.game_system)
        report = chart_reports.render_report(obj.report, names)
        items = [(_("error"), p["message"]) for p in report["errors"]]
        items += [(_("warning"), p["message"]) for p in report["warnings"]]
        if not items:
            return _("Legal list.")
        return format_html("<ul>{}</ul>", format_html_join("", "<li><b>{}</b>: {}</li>", items))

    @admin.display(description=_("raw upload"))
    def raw_preview(self, obj: ArmyList):
        raw = bytes(obj.raw_upload or b"")
        if not raw:
            return "—"
        try:
            return format_html("<pre>{}</pre>", raw[:4000].decode("utf-8"))
        except UnicodeDecodeError:
            return _("%(size)s bytes of binary data") % {"size": len(raw)}


__all__ = ["ProfileCardAdmin"]  # registered in its own module
