"""Admin: the whole catalogue is editable data; dice rolls are a read-only log."""
from django.contrib import admin
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from config.readonly_admin import ReadOnlyAdmin
from missions.models import (
    DiceBatch,
    DiceRoll,
    DiceStream,
    Level,
    MarginBand,
    Mission,
    SpecialRule,
    Stratagem,
    StratagemCategory,
)


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "table_width_cm", "table_depth_cm", "ruins_min", "ruins_max",
                    "stratagems_per_player"]
    list_editable = ["stratagems_per_player"]


@admin.register(SpecialRule)
class SpecialRuleAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr"]


class StratagemInline(admin.TabularInline):
    model = Stratagem
    fields = ["order", "slug", "name_en", "name_fr", "markers"]
    extra = 0


@admin.register(StratagemCategory)
class StratagemCategoryAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr", "order"]
    inlines = [StratagemInline]


@admin.register(Stratagem)
class StratagemAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr", "category", "markers"]
    list_filter = ["category"]
    search_fields = ["slug", "name_en", "name_fr"]


@admin.register(Mission)
class MissionAdmin(admin.ModelAdmin):
    list_display = ["order", "slug", "name_en", "name_fr", "kind", "d6", "objective_kind",
                    "uses_victory_points"]
    list_display_links = ["slug"]
    list_filter = ["kind", "uses_victory_points"]
    fieldsets = [
        (None, {"fields": ["slug", "kind", "d6", "order", "name_en", "name_fr"]}),
        (_("Objective and deployment"), {"fields": [
            "objective_kind", "objective_en", "objective_fr", "deployment_en", "deployment_fr",
            "outcome_fields", "diagram"]}),
        (_("Game"), {"fields": [
            "game_turns", "game_turns_note_en", "game_turns_note_fr", "first_turn", "special_rules_by_level", "roles",
            "role_charts", "uses_victory_points", "victory_points"]}),
        (_("Stratagems"), {"fields": ["stratagem_exceptions"]}),
        (_("Notes on gaps and defaults"), {"fields": ["notes"]}),
    ]


@admin.register(MarginBand)
class MarginBandAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_en", "name_fr", "min_fraction"]
    list_editable = ["min_fraction"]

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "title": _(
            "Victory margin bands — a Muster default: the rulebook's table (p. 86) is not in the "
            "rules we hold; edit the bands to match your event."
        )}
        return super().changelist_view(request, extra_context)


class DiceRollInline(admin.TabularInline):
    model = DiceRoll
    fields = ["sequence", "purpose", "expression", "dice", "total", "actor", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class DiceBatchInline(admin.TabularInline):
    """A paired round's rolls, one row for them all: its page lists every roll."""

    model = DiceBatch
    fields = ["first_sequence", "roll_count", "actor", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("rolls"))
    def roll_count(self, batch: DiceBatch) -> int:
        return len(batch.rolls)


@admin.register(DiceStream)
class DiceStreamAdmin(admin.ModelAdmin):
    list_display = ["key", "seed", "next_sequence", "created_at"]
    readonly_fields = ["key", "seed", "next_sequence", "created_at"]
    inlines = [DiceRollInline, DiceBatchInline]

    def has_add_permission(self, request):
        return False


@admin.register(DiceRoll)
class DiceRollAdmin(ReadOnlyAdmin):
    """Every die is evidence: nobody edits or deletes a roll."""

    list_display = ["stream", "sequence", "purpose", "expression", "dice", "total", "actor", "created_at"]
    list_filter = ["purpose"]
    readonly_fields = ["stream", "sequence", "purpose", "expression", "dice", "total", "actor", "created_at"]


ROLL_COLUMNS = ["sequence", "purpose", "expression", "dice", "total"]


@admin.register(DiceBatch)
class DiceBatchAdmin(ReadOnlyAdmin):
    """A batch is evidence as every roll is: shown roll by roll, never edited."""

    list_display = ["stream", "first_sequence", "actor", "created_at"]
    fields = ["stream", "first_sequence", "actor", "created_at", "roll_table"]
    readonly_fields = fields

    @admin.display(description=_("rolls"))
    def roll_table(self, batch: DiceBatch) -> str:
        head = format_html_join("", "<th>{}</th>", (
            (DiceRoll._meta.get_field(name).verbose_name,) for name in ROLL_COLUMNS))
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", (
            (r.sequence, r.purpose, r.expression, ", ".join(map(str, r.dice)), r.total)
            for r in batch.as_rolls()))
        return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, rows)
