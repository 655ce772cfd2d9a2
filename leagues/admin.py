"""The leagues in the admin: read-only (settings, weeks, declared byes, week lists). They change
through the API's services, which keep the audit log."""
from django.contrib import admin

from config.readonly_admin import ReadOnlyAdmin
from leagues.models import DeclaredBye, League, Week, WeekList


class WeekInline(admin.TabularInline):
    model = Week
    fields = ("number", "opens", "closes", "points_limit", "announced_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "mode", "games_counted_per_week", "drop_worst_weeks",
                    "byes_allowed", "rematch", "escalation")
    list_filter = ("mode",)
    inlines = [WeekInline]


@admin.register(DeclaredBye)
class DeclaredByeAdmin(ReadOnlyAdmin):
    list_display = ("player", "week", "created_at")
    list_select_related = ("player", "week__league__tournament")


@admin.register(WeekList)
class WeekListAdmin(ReadOnlyAdmin):
    list_display = ("player", "week", "army_list", "updated_at")
    list_select_related = ("player", "week__league__tournament", "army_list")
