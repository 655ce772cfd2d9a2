"""Players: check-in, drop, and unlocking a list with a reason."""
from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy

from events.admin.common import (
    PLAYER_EDITABLE,
    ServiceErrorsMixin,
    admin_url,
    copy_saved,
    list_validity_text,
    with_main_list_validity,
)
from events.admin.forms import UnlockForm
from events.audit import Actor
from events.errors import ServiceError
from events.models import Player
from events.services import lists, tournaments
from venue.checkin_codes import shown


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["tournament", "user", "name", "club", "faction", "checked_in", "dropped"]

    def clean(self):
        data = super().clean()
        user, tournament = data.get("user"), data.get("tournament")
        if self.instance.pk is None and user and tournament and tournament.players.filter(user=user).exists():
            # Said here in plain words (a field error also spares the model's constraint message).
            self.add_error("user", _("This account is already registered for this tournament."))
        return data


def player_update_action(changes: dict[str, bool], label: str, done: str):
    def action(modeladmin, request, queryset):
        actor = Actor.of(request)
        count = 0
        for player in queryset:
            try:
                tournaments.update_player(actor, player, **changes)
                count += 1
            except ServiceError as exc:
                modeladmin.message_user(request, f"{player.name}: {exc}", messages.ERROR)
        if count:
            modeladmin.message_user(request, done % {"n": count})

    action.__name__ = "players_" + "_".join(f"{k}_{v}".lower() for k, v in changes.items())
    return admin.action(description=label, permissions=["change"])(action)


@admin.register(Player)
class PlayerAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "tournament", "club", "faction", "checked_in", "dropped", "list_status",
                    "list_unlocked", "user"]
    list_filter = ["tournament", "checked_in", "dropped", "list_unlocked"]
    search_fields = ["name", "club", "faction", "user__username"]
    list_select_related = ["tournament", "user"]
    raw_id_fields = ["user"]
    actions = [
        player_update_action({"checked_in": True}, _("Check in"), ngettext_lazy(
            "%(n)s player checked in.", "%(n)s players checked in.", "n")),
        player_update_action({"checked_in": False}, _("Check out (undo check-in)"), ngettext_lazy(
            "%(n)s player checked out.", "%(n)s players checked out.", "n")),
        player_update_action({"dropped": True}, _("Drop (no longer paired)"), ngettext_lazy(
            "%(n)s player dropped.", "%(n)s players dropped.", "n")),
        player_update_action({"dropped": False}, _("Bring back (undo drop)"), ngettext_lazy(
            "%(n)s player brought back.", "%(n)s players brought back.", "n")),
        "unlock_list",
    ]

    def get_queryset(self, request):
        return with_main_list_validity(super().get_queryset(request).select_related("tournament", "user"))

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["tournament", "user", "name", "club", "faction"]
        return ["tournament", "user", "name", "club", "faction", "checked_in", "checked_in_at",
                "checked_in_by", "check_in_code", "dropped", "list_status", "list_unlocked",
                "lists_table", "created_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["tournament", "user", "checked_in_at", "checked_in_by", "check_in_code",
                "list_status", "list_unlocked", "lists_table", "created_at"]

    @admin.display(description=_("check-in code"))
    def check_in_code(self, obj: Player) -> str:
        return shown(obj.checkin_code)

    def has_delete_permission(self, request, obj=None):
        return False  # drop a player instead: their games and the audit log refer to them

    @admin.display(description=_("list"))
    def list_status(self, obj: Player) -> str:
        return list_validity_text(getattr(obj, "main_list_valid", None))

    @admin.display(description=_("current lists"))
    def lists_table(self, obj: Player) -> str:
        rows = [
            (row.get_role_display(), admin_url(row.army_list), row.army_list,
             list_validity_text(row.army_list.valid),
             _("%(points)s points") % {"points": row.army_list.total_points},
             date_format(localtime(row.updated_at), "SHORT_DATETIME_FORMAT"))
            for row in obj.lists.select_related("army_list__chart").order_by("role")
        ]
        if not rows:
            return _("No list submitted.")
        return format_html("<table>{}</table>", format_html_join(
            "", '<tr><td>{}</td><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>', rows))

    def save_model(self, request, obj, form, change):
        actor = Actor.of(request)
        data = form.cleaned_data
        if not change:
            user = data.get("user")
            created = tournaments.register_player(
                actor, data["tournament"], name=data["name"], club=data.get("club", ""),
                faction=data.get("faction", ""), username=user.get_username() if user else None)
            copy_saved(obj, created)
            return
        changes = {k: data[k] for k in form.changed_data if k in PLAYER_EDITABLE}
        if changes:
            copy_saved(obj, tournaments.update_player(actor, obj, **changes))

    @admin.action(description=_("Unlock the list (asks for a reason)"), permissions=["change"])
    def unlock_list(self, request, queryset):
        form = UnlockForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            actor, reason, count = Actor.of(request), form.cleaned_data["reason"], 0
            for player in queryset:
                try:
                    lists.unlock_list(actor, player, reason)
                    count += 1
                except ServiceError as exc:
                    self.message_user(request, f"{player.name}: {exc}", messages.ERROR)
            if count:
                self.message_user(request, ngettext(
                    "%(n)s list unlocked: the player may submit once more.",
                    "%(n)s lists unlocked: each player may submit once more.", count) % {"n": count})
            return None
        context = {**self.admin_site.each_context(request), "opts": self.opts, "form": form,
                   "players": queryset, "title": _("Unlock lists"),
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return TemplateResponse(request, "admin/league/player/unlock_list.html", context)
