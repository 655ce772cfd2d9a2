"""The tournament page: settings, players inline, the rounds overview and the cockpit.

Its parts: the system's fields (tournament_system.py), the buttons and bulk actions
(tournament_actions.py), and its own pages and exports (tournament_pages.py)."""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from events.admin import round_desk
from events.admin.common import (
    EMPTY,
    PLAYER_EDITABLE,
    TRANSITION_LABELS,
    ServiceErrorsMixin,
    Status,
    admin_url,
    copy_saved,
    list_validity_text,
    with_main_list_validity,
)
from events.admin.forms import TournamentForm
from events.admin.tournament_actions import bulk_transition, round_mission_text
from events.admin.tournament_pages import TournamentPagesMixin
from events.admin.tournament_system import SystemFieldsMixin
from events.audit import Actor, record
from events.models import Game, Player, Round, Tournament
from events.services import lists, rounds, tournaments
from venue.admin.checkin import door_roster


class PlayerInline(admin.TabularInline):
    """Registrations of the event; new lines register through the service, edits go through
    ``update_player`` (both logged)."""

    model = Player
    fields = ["name", "club", "faction", "checked_in", "dropped", "list_status", "list_unlocked"]
    readonly_fields = ["list_status", "list_unlocked"]
    extra = 0
    can_delete = False
    show_change_link = True
    verbose_name_plural = _("players (add a line to register a walk-in)")

    def get_queryset(self, request):
        return with_main_list_validity(super().get_queryset(request))

    @admin.display(description=_("list"))
    def list_status(self, obj: Player) -> str:
        if obj is None or obj.pk is None:
            return EMPTY
        return list_validity_text(getattr(obj, "main_list_valid", None))


@admin.register(Tournament)
class TournamentAdmin(ServiceErrorsMixin, SystemFieldsMixin, TournamentPagesMixin,
                      admin.ModelAdmin):
    form = TournamentForm
    change_form_template = "admin/league/tournament/change_form.html"
    change_list_template = "admin/league/tournament/change_list.html"
    list_display = ["name", "status", "game_system", "level", "rounds", "player_count", "starts_on",
                    "created_at"]
    list_filter = ["status", "game_system", "level"]
    search_fields = ["name", "slug"]
    date_hierarchy = "created_at"
    actions = [
        bulk_transition(Status.REGISTRATION_OPEN, _("Open registration")),
        bulk_transition(Status.LISTS_LOCKED, _("Lock lists")),
        bulk_transition(Status.RUNNING, _("Start the tournament")),
        # No bulk finish: each event is finished on its own page, its name typed.
    ]
    inlines = [PlayerInline]
    event_fieldset = (_("Event"), {"fields": ["name", "slug", "status", "starts_on", "language"]})
    after_system_fieldsets = [
        (_("Lists"), {"fields": ["free_faction", "list_deadline", "lists_published"]}),
        (_("Pairing"), {"fields": ["require_check_in", "club_weight", "faction_weight",
                                   "bye_priority"]}),
        (_("Scoring"), {"fields": ["scoring_mode", "scoring_table", "win_points", "draw_points",
                                   "loss_points", "bye_points", "tiebreaks"]}),
        (_("Dice"), {"fields": ["seed"]}),
    ]
    add_only = {"status", "lists_published"}  # not shown on the add page: services set them

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(
            "game_system", "level", "chart", "created_by").annotate(
            player_count=Count("players", distinct=True))

    @admin.display(description=_("players"), ordering="player_count")
    def player_count(self, obj: Tournament) -> int:
        return obj.player_count

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        fixed = ["slug", "status", "lists_published", "seed", "rounds_overview", "created_by",
                 "created_at"]
        if obj.status not in lists.OPEN_STATUSES:
            # Lists were checked against these; reopen registration to change them.
            fixed += ["chart", "points_limit"]
        return fixed

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # register once the event exists

    def has_delete_permission(self, request, obj=None):
        return False  # the audit log and every die rolled stay with the event

    def save_model(self, request, obj, form, change):
        actor = Actor.of(request)
        if change:
            fields = form.saved_fields()
            if fields:
                # Only the edited columns: the status and the lists flag belong to the services,
                # which may have moved them since this page was loaded.
                obj.save(update_fields=fields)
                record(actor, "settings_changed", obj, obj, {"fields": fields})
            return
        # A blank slug or seed lets the service derive the slug and draw a random seed.
        copy_saved(obj, tournaments.create_tournament(actor, **form.service_fields()))

    def save_formset(self, request, form, formset, change):
        if formset.model is not Player:
            return super().save_formset(request, form, formset, change)
        actor = Actor.of(request)
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for player_form in formset.forms:
            if not player_form.has_changed():
                continue
            data = player_form.cleaned_data
            if player_form.instance.pk is None:
                player = tournaments.register_player(
                    actor, form.instance, name=data["name"], club=data.get("club", ""),
                    faction=data.get("faction", ""))
                extra = {k: data[k] for k in ("checked_in", "dropped") if data.get(k)}
                if extra:
                    player = tournaments.update_player(actor, player, **extra)
                formset.new_objects.append(player)
                continue
            changes = {k: data[k] for k in player_form.changed_data if k in PLAYER_EDITABLE}
            if not changes:
                continue
            player = tournaments.update_player(actor, player_form.instance, **changes)
            formset.changed_objects.append((player, sorted(changes)))

    @admin.display(description=_("rounds"))
    def rounds_overview(self, obj: Tournament) -> str:
        rolls_missions = obj.rules.rolls_missions
        rows = [
            (admin_url(r), _("Round %(number)s") % {"number": r.number}, Round.Status(r.status).label,
             round_mission_text(r, rolls_missions), r.game_count)
            for r in self._rounds(obj)
        ]
        if not rows:
            return _("No round paired yet.")
        head = format_html("<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
                           _("round"), _("status"), _("mission or scenario"), _("games"))
        body = format_html_join("", '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td>'
                                    "<td>{}</td></tr>", rows)
        return format_html("<table>{}{}</table>", head, body)

    @staticmethod
    def _rounds(obj: Tournament) -> list[Round]:
        if not hasattr(obj, "_admin_rounds"):
            tables = Q(games__player_b__isnull=False)
            obj._admin_rounds = list(obj.round_set.select_related("mission", "clock").annotate(
                game_count=Count("games"), table_count=Count("games", filter=tables),
                results_in=Count("games", filter=tables & Q(games__status=Game.Status.CONFIRMED)),
            ).order_by("number"))
        return obj._admin_rounds

    # The cockpit: buttons on the change page -------------------------------------------

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["cockpit"] = self._cockpit(request, obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _cockpit(self, request, obj: Tournament) -> dict[str, Any]:
        # One query gives the counts and who is missing (registered, not dropped, not in).
        roster = door_roster(obj)
        counts = roster.counts
        all_rounds = self._rounds(obj)
        latest = all_rounds[-1] if all_rounds else None
        next_number = latest.number if latest and latest.status == Round.Status.DRAFT else \
            (latest.number + 1 if latest else 1)
        return {
            "can_act": self.has_change_permission(request, obj),
            "counts": counts,
            "transitions": [(target, TRANSITION_LABELS.get((obj.status, target), target))
                            for target in tournaments.TRANSITIONS.get(obj.status, ())],
            "pairable": obj.status in rounds.PAIRABLE and next_number <= obj.rounds,
            "next_number": next_number,
            "repairing_draft": latest is not None and latest.status == Round.Status.DRAFT,
            "latest": latest,
            "lists_locked": lists.lists_locked(obj),
            "missing": roster.missing,
            "printed_round": next((r for r in reversed(all_rounds)
                                   if r.status != Round.Status.DRAFT), None),
            "clock": round_desk.clock_panel(latest, can_act=self.has_change_permission(request, obj),
                                            next_url=request.path),
        }
