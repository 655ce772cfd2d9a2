"""The audit log, read-only: each action under its name in the reader's language, and a
disputed result's reason in the list (it is otherwise only inside the entry's data)."""
from __future__ import annotations

import json

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from config.readonly_admin import ReadOnlyAdmin
from events.admin.disputes import reason_of
from events.models import AuditEntry

# Every action a service records (events.audit.record), by its stored key.
ACTION_NAMES = {
    "tournament_created": _("event created"),
    "settings_changed": _("event settings changed"),
    "status_changed": _("status changed"),
    "event_imported": _("event imported"),
    "players_imported": _("players imported"),
    "player_registered": _("player registered"),
    "player_changed": _("player changed"),
    "player_invited": _("player invited"),
    "player_linked": _("player linked to an account"),
    "player_checked_in": _("player checked in"),
    "self_check_in_opened": _("self check-in opened"),
    "self_check_in_closed": _("self check-in closed"),
    "list_submitted": _("list submitted"),
    "list_unlocked": _("list unlocked"),
    "lists_published": _("lists published"),
    "lists_hidden": _("lists hidden"),
    "round_paired": _("round paired"),
    "round_repaired": _("round paired again"),
    "round_published": _("round published"),
    "round_unpublished": _("round unpublished"),
    "round_scenario": _("round scenario set"),
    "clock_start": _("clock started"),
    "clock_pause": _("clock paused"),
    "clock_resume": _("clock resumed"),
    "clock_extend": _("clock extended"),
    "clock_end": _("clock ended"),
    "stratagems_declared": _("stratagems declared"),
    "table_roll": _("table roll"),
    "result_reported": _("result reported"),
    "result_disputed": _("result disputed"),
    "result_confirmed": _("result confirmed"),
    "mission_pack_requested": _("mission pack requested"),
    "mission_pack_retried": _("mission pack retried"),
    "mission_pack_superseded": _("mission pack replaced"),
    "mission_pack_restarted": _("mission pack restarted"),
    "score_component_defined": _("award or penalty defined"),
    "score_component_changed": _("award or penalty changed"),
    "score_component_removed": _("award or penalty removed"),
    "score_entry_set": _("award or penalty given"),
    "score_vote": _("award vote"),
    "account.email": _("account e-mail changed"),
    "account.notices": _("account notifications changed"),
    "campaign_created": _("campaign created"),
    "campaign_side_added": _("campaign side added"),
    "campaign_army_set": _("campaign army set"),
    "campaign_majors_set": _("campaign major territories set"),
    "campaign_planet_rolled": _("campaign planet rolled"),
    "campaign_planet_chosen": _("campaign planet chosen"),
    "campaign_placement": _("campaign detachment placed"),
    "campaign_started": _("campaign started"),
    "campaign_initiative": _("campaign initiative rolled"),
    "campaign_first_chosen": _("campaign first side chosen"),
    "campaign_deadline": _("campaign deadline set"),
    "campaign_order": _("campaign order given"),
    "campaign_order_refused": _("campaign order refused"),
    "campaign_order_forced": _("campaign order forced by an organiser"),
    "campaign_orders_ready": _("campaign orders ready"),
    "campaign_orders_revealed": _("campaign orders revealed"),
    "campaign_infiltrations": _("campaign infiltrations rolled"),
    "campaign_air": _("campaign air mission"),
    "campaign_battles_generated": _("campaign battles set up"),
    "campaign_battle_choices": _("campaign battle choices"),
    "campaign_score_manual": _("campaign score corrected"),
    "campaign_surrendered": _("campaign surrendered"),
    "campaign_turn_closed": _("campaign turn closed"),
}


def action_name(key: str) -> str:
    """An action's name; a key recorded by a newer version reads as words, never as a key."""
    return str(ACTION_NAMES.get(key) or key.replace("_", " ").replace(".", " "))


class ActionFilter(admin.SimpleListFilter):
    title = _("action")
    parameter_name = "action"

    def lookups(self, request, model_admin):
        keys = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
        return sorted(((key, action_name(key)) for key in keys), key=lambda pair: pair[1])

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action_label", "target", "summary", "ip", "tournament"]
    list_filter = ["tournament", ActionFilter]
    search_fields = ["action", "target", "actor__username"]
    list_select_related = ["actor", "tournament"]
    date_hierarchy = "created_at"
    fields = readonly_fields = ["created_at", "tournament", "actor", "action_label", "target",
                                "summary", "ip", "details"]

    @admin.display(description=_("action"), ordering="action")
    def action_label(self, obj: AuditEntry) -> str:
        return action_name(obj.action)

    @admin.display(description=_("reason"))
    def summary(self, obj: AuditEntry) -> str:
        return reason_of(obj) or "—"

    @admin.display(description=_("details"))
    def details(self, obj: AuditEntry) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, ensure_ascii=False, indent=2,
                                                        default=str))
