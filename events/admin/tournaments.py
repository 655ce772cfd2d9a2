"""The tournament page: settings, players inline, lifecycle and pairing buttons, import and exports."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from armylists.models import GameSystem
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
    safe_next,
    with_main_list_validity,
)
from events.admin.event_import import import_event_view
from events.admin.forms import (
    DEFAULT_SYSTEM,
    MODEL_FIELDS,
    SUGGESTED_POINTS,
    ImportForm,
    RepairForm,
    TournamentForm,
    event_systems,
    setting_fields,
    setting_title,
)
from events.audit import Actor, record
from events.errors import Invalid, ServiceError
from events.models import Game, Player, Round, Tournament
from events.services import exports, imports, lists, rounds, tournaments
from events.systems import event_rules
from venue.admin.checkin import check_in_view, door_roster, window_view
from venue.admin.walkins import finish_view, invite_view, require_typed_name


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


def round_summary(round_: Round) -> dict[str, int]:
    rows = list(round_.games.values_list("player_b_id", "deviations"))
    return {"tables": sum(1 for b, _d in rows if b is not None),
            "byes": sum(1 for b, _d in rows if b is None),
            "deviations": sum(len(d or []) for _b, d in rows)}


def round_mission_text(round_: Round, rolls_missions: bool) -> str:
    """What a round is played with: its rolled mission, or the organisers' scenario."""
    if round_.mission is not None:
        return round_.mission.name
    if rolls_missions:
        return _("per table")
    return Truncator(round_.scenario).chars(60) or _("no scenario written yet")


def paired_message(round_: Round, sentence: str) -> str:
    """``sentence`` has %(number)s and %(details)s: whole sentences translate better."""
    counts = round_summary(round_)
    parts = [
        ngettext("%(n)s table", "%(n)s tables", counts["tables"]) % {"n": counts["tables"]},
        ngettext("%(n)s bye", "%(n)s byes", counts["byes"]) % {"n": counts["byes"]},
        ngettext("%(n)s pairing deviation", "%(n)s pairing deviations",
                 counts["deviations"]) % {"n": counts["deviations"]},
    ]
    return sentence % {"number": round_.number, "details": ", ".join(parts)}


def _round_number(data) -> int:
    try:
        return int(data.get("number", ""))
    except (TypeError, ValueError):
        raise Invalid(_("Say which round."), "round_number_missing") from None


def _do_transition(actor: Actor, t: Tournament, data) -> str:
    target = data.get("target", "")
    if target == Status.FINISHED and target in tournaments.TRANSITIONS.get(t.status, ()):
        require_typed_name(t, data)  # the finish page sends it (admin/league/walkins.py)
    updated = tournaments.transition(actor, t, target)
    return _("“%(name)s” is now “%(status)s”.") % {
        "name": updated.name, "status": Status(updated.status).label}


def _do_publish_lists(actor: Actor, t: Tournament, data) -> str:
    tournaments.publish_lists(actor, t, True)
    return _("Lists are now visible to every player.")


def _do_hide_lists(actor: Actor, t: Tournament, data) -> str:
    tournaments.publish_lists(actor, t, False)
    return _("Lists are hidden again: each player sees only their own.")


def _do_pair_draft(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.pair_next_round(actor, t, draft=True)
    return paired_message(round_, _("Round %(number)s paired as a draft (players do not see it yet): %(details)s."))


def _do_pair_publish(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.pair_next_round(actor, t, draft=False)
    return paired_message(round_, _("Round %(number)s paired and published: %(details)s."))


def _do_publish_round(actor: Actor, t: Tournament, data) -> str:
    round_ = rounds.publish_round(actor, t, _round_number(data))
    return paired_message(round_, _("Round %(number)s published: %(details)s."))


TOURNAMENT_ACTIONS: dict[str, Callable[[Actor, Tournament, Any], str]] = {
    "status": _do_transition,
    "publish_lists": _do_publish_lists,
    "hide_lists": _do_hide_lists,
    "pair_draft": _do_pair_draft,
    "pair_publish": _do_pair_publish,
    "publish_round": _do_publish_round,
}


def bulk_transition(target: str, label: str):
    """A changelist action moving every selected tournament to ``target``."""

    def action(modeladmin, request, queryset):
        actor = Actor.of(request)
        for t in queryset:
            try:
                modeladmin.message_user(request, _do_transition(actor, t, {"target": target}))
            except ServiceError as exc:
                modeladmin.message_user(request, f"{t.name}: {exc}", messages.ERROR)

    action.__name__ = f"make_{target}"
    return admin.action(description=label, permissions=["change"])(action)


@admin.register(Tournament)
class TournamentAdmin(ServiceErrorsMixin, admin.ModelAdmin):
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

    # The game system: which fields the page shows ------------------------------------------

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
            return GameSystem.objects.get(slug=DEFAULT_SYSTEM)
        return None

    def system_fieldsets(self, system: GameSystem | None) -> list[tuple[Any, dict]]:
        """Only what the system uses: a level and mission rolls where Cities of Death missions
        are rolled, a turn system where there is a choice, its own switches and settings."""
        slug = system.slug if system is not None else DEFAULT_SYSTEM
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
        if system.slug in SUGGESTED_POINTS:
            initial.setdefault("points_limit", SUGGESTED_POINTS[system.slug])
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

    def get_urls(self):
        def view(fn):
            return self.admin_site.admin_view(fn)

        return [
            path("<int:pk>/do/<slug:action>/", view(self.action_view), name="league_tournament_action"),
            path("<int:pk>/repair-round/", view(self.repair_view), name="league_tournament_repair"),
            path("<int:pk>/import-players/", view(self.import_view), name="league_tournament_import"),
            path("<int:pk>/finish/", view(lambda request, pk: finish_view(self, request, pk)),
                 name="league_tournament_finish"),
            path("<int:pk>/invite/", view(lambda request, pk: invite_view(self, request, pk)),
                 name="league_tournament_invite"),
            path("<int:pk>/check-in/", view(lambda request, pk: check_in_view(self, request, pk)),
                 name="league_tournament_check_in"),
            path("<int:pk>/check-in/window/",
                 view(lambda request, pk: window_view(self, request, pk)),
                 name="league_tournament_check_in_window"),
            path("import-event/", view(lambda request: import_event_view(self, request)),
                 name="league_tournament_import_event"),
            path("<int:pk>/export.json", view(self.export_json), name="league_tournament_export_json"),
            path("<int:pk>/standings.csv", view(self.export_standings), name="league_tournament_standings_csv"),
            path("<int:pk>/pairings.csv", view(self.export_pairings), name="league_tournament_pairings_csv"),
            *super().get_urls(),
        ]

    def _tournament(self, request, pk: int, *, change: bool = True) -> Tournament:
        tournament = get_object_or_404(
            Tournament.objects.select_related(
                "game_system", "level", "chart", "dice", "created_by"), pk=pk)
        allowed = self.has_change_permission(request, tournament) if change else \
            self.has_view_permission(request, tournament)
        if not allowed:
            raise PermissionDenied
        return tournament

    def _page(self, request, tournament: Tournament, title: str, template: str, **extra: Any):
        context = {**self.admin_site.each_context(request), "opts": self.opts, "original": tournament,
                   "title": title, "subtitle": tournament.name, **extra}
        return TemplateResponse(request, template, context)

    @staticmethod
    def _run(request, fn: Callable[[], str]) -> bool:
        try:
            messages.success(request, fn())
        except ServiceError as exc:
            messages.error(request, str(exc))
            return False
        return True

    def action_view(self, request, pk: int, action: str):
        if request.method != "POST":
            return HttpResponse(status=405, headers={"Allow": "POST"})
        tournament = self._tournament(request, pk)
        handler = TOURNAMENT_ACTIONS.get(action)
        if handler is None:
            raise Http404
        self._run(request, lambda: handler(Actor.of(request), tournament, request.POST))
        return HttpResponseRedirect(safe_next(request, admin_url(tournament)))

    def repair_view(self, request, pk: int):
        """Pair a published round again: the organiser types its number to confirm."""
        tournament = self._tournament(request, pk)
        latest = tournament.round_set.order_by("-number").first()
        if latest is None:
            messages.error(request, _("No round has been paired yet."))
            return HttpResponseRedirect(admin_url(tournament))
        form = RepairForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            def repair() -> str:
                round_ = rounds.repair_published_round(
                    Actor.of(request), tournament, latest.number, form.cleaned_data["confirmation"])
                if round_.status == Round.Status.DRAFT:
                    return paired_message(round_, _("Round %(number)s paired again (draft): %(details)s."))
                return paired_message(round_, _("Round %(number)s paired again and published: %(details)s."))

            if self._run(request, repair):
                return HttpResponseRedirect(admin_url(tournament))
        return self._page(request, tournament, _("Pair round %(number)s again") % {"number": latest.number},
                          "admin/league/tournament/repair_round.html", form=form,
                          field=form["confirmation"], round=latest,
                          summary=round_summary(latest))

    def import_view(self, request, pk: int):
        tournament = self._tournament(request, pk)
        form = ImportForm(request.POST or None, request.FILES or None)
        outcome = None
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"].read(imports.MAX_BYTES + 1)
            outcome = imports.import_players_csv(Actor.of(request), tournament, data)
            if not outcome.errors:
                messages.success(request, ngettext(
                    "%(n)s player registered.", "%(n)s players registered.", len(outcome.players))
                    % {"n": len(outcome.players)})
                if outcome.ignored_columns:
                    messages.warning(request, _("Columns ignored: %(columns)s.") % {
                        "columns": ", ".join(outcome.ignored_columns)})
                return HttpResponseRedirect(admin_url(tournament))
        return self._page(request, tournament, _("Import players"),
                          "admin/league/tournament/import_players.html", form=form,
                          field=form["file"], multipart=True, outcome=outcome)

    @staticmethod
    def _download(content: str, content_type: str, filename: str) -> HttpResponse:
        response = HttpResponse(content, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    @staticmethod
    def _delimiter(request) -> str:
        return ";" if request.GET.get("sep") in (";", "semicolon") else ","

    def export_json(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        response = JsonResponse(exports.event_data(tournament),
                                json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response

    def export_standings(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        # The byte-order mark lets spreadsheet programs read the accents right.
        text = "\ufeff" + exports.standings_csv(tournament, self._delimiter(request))
        return self._download(text, "text/csv; charset=utf-8", f"{tournament.slug}-standings.csv")

    def export_pairings(self, request, pk: int):
        tournament = self._tournament(request, pk, change=False)
        number = request.GET.get("round")
        number = int(number) if number and number.isdigit() else None
        text = "\ufeff" + exports.pairings_csv(tournament, number, self._delimiter(request))
        suffix = f"-round-{number}" if number else ""
        return self._download(text, "text/csv; charset=utf-8", f"{tournament.slug}-pairings{suffix}.csv")
