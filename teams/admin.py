"""Team events in the admin: teams with their members, team matches with their draft moves."""
from django.contrib import admin

from teams.models import (
    DoublesEvent,
    DoublesPartner,
    DraftMove,
    MatchGame,
    Team,
    TeamEvent,
    TeamMatch,
    TeamMember,
)


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "captain"]
    list_filter = ["tournament"]
    raw_id_fields = ["captain"]
    inlines = [TeamMemberInline]


class DraftMoveInline(admin.TabularInline):
    model = DraftMove
    extra = 0
    can_delete = False
    readonly_fields = ["index", "team", "phase", "players", "table", "rolls", "auto", "forced", "by", "created_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # moves go through the draft (and its undo), never typed in


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    can_delete = False
    readonly_fields = ["game", "role"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number", "first_table"]
    readonly_fields = ["round", "number", "first", "second", "first_table", "created_at"]
    inlines = [MatchGameInline, DraftMoveInline]


admin.site.register(TeamEvent)


@admin.register(DoublesPartner)
class DoublesPartnerAdmin(admin.ModelAdmin):
    list_display = ["player", "user", "army_list"]
    raw_id_fields = ["player", "user", "army_list"]


admin.site.register(DoublesEvent)
