"""Rounds and games, read-only: they change through pairing and results (staff settle on the game page)."""
from __future__ import annotations

import copy
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from config.readonly_admin import ReadOnlyAdmin
from events.admin import round_desk
from events.admin.common import DEVIATION_LABELS, EMPTY, admin_url, link, safe_next
from events.admin.disputes import disputes_of
from events.admin.forms import ScenarioForm, SettleForm
from events.audit import Actor
from events.errors import ServiceError
from events.messages import chart_names, list_problem_text, role_name
from events.models import Game, Player, Report, Round
from events.services import result_grid, results, rounds
from printing.admin import start_pack
from printing.services.mission_pack import PURPOSES, dice_text, roll_lines
from systems.reports import SystemReportForm, outcome_lines, report_form_class


def player_label(player: Player | None) -> str:
    if player is None:
        return EMPTY
    return f"{player.name} ({player.club})" if player.club else player.name


def deviations_text(codes: list[str]) -> str:
    return ", ".join(str(DEVIATION_LABELS.get(c, c)) for c in codes) or EMPTY


def roles_text(game: Game, names: dict[int, str]) -> str:
    return ", ".join(f"{names.get(int(pid), pid)}: {role_name(role)}"
                     for pid, role in game.roles.items()) or EMPTY


def problems_text(game: Game, names: dict[int, str], charts: dict[str, str] | None = None) -> str:
    """Each player's list problem, the chart by name (``charts``: read here when not given)."""
    if not game.list_problems:
        return EMPTY
    if charts is None:
        charts = chart_names({p["chart"] for p in game.list_problems})
    return " ".join(f"{names.get(p['player'], p['player'])}: {list_problem_text(p, charts)}"
                    for p in game.list_problems)


def result_text(game: Game) -> str:
    if game.is_bye:
        return _("bye")
    if game.status != Game.Status.CONFIRMED:
        return EMPTY
    vp = game.victory_points or {}
    score = f" ({vp.get(str(game.player_a_id), 0)}–{vp.get(str(game.player_b_id), 0)} VP)" if vp else ""
    if game.winner_id is None:
        return _("draw") + score
    winner = game.player_a if game.winner_id == game.player_a_id else game.player_b
    return _("%(player)s won") % {"player": winner.name} + score


def mission_rolls_text(round_: Round) -> str:
    """The round's mission dice as the pack prints them: "Mission: D6: 3 → Domination"."""
    if not round_.rolls:
        return _("one mission per table (see each game)")
    mission = f" → {round_.mission.name}" if round_.mission else ""
    return f"{PURPOSES['mission']}: {dice_text(round_.rolls)}{mission}"


def pregame_table(game: Game) -> str:
    """Each pre-game step with both players' dice and what it settled, in the same sentences
    as the player's game page and the printed pack (``packs.roll_lines``)."""
    if game.is_bye or not (game.rolls or game.pregame):
        return EMPTY
    names = {str(p.pk): p.name for p in (game.player_a, game.player_b)}
    ids = (str(game.player_a_id), str(game.player_b_id))
    rows = [(line.step, line.side_a or EMPTY, line.side_b or EMPTY,
             " → ".join(part for part in (line.shared, line.outcome) if part) or EMPTY)
            for line in roll_lines(game, ids, names)]
    head = format_html("<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>", _("step"),
                       game.player_a.name, game.player_b.name, _("outcome"))
    body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows)
    return format_html('<table class="pregame">{}{}</table>', head, body)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    change_form_template = "admin/league/round/change_form.html"
    actions = [start_pack]
    list_display = ["__str__", "tournament", "number", "status_badge", "mission", "game_count",
                    "created_at", "published_at"]
    list_filter = ["status", "tournament"]
    list_select_related = ["tournament", "mission"]
    fields = readonly_fields = ["tournament_link", "number", "status_badge", "mission", "rolls_list",
                                "pairing_summary", "created_at", "published_at", "games_table"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("tournament", "mission").annotate(
            game_count=Count("games"))

    @admin.display(description=_("games"), ordering="game_count")
    def game_count(self, obj: Round) -> int:
        return obj.game_count

    @admin.display(description=_("status"), ordering="status")
    def status_badge(self, obj: Round) -> str:
        if obj.status == Round.Status.DRAFT:
            return format_html('<strong class="muster-alert">{}</strong>',
                               _("DRAFT: players do not see it"))
        return Round.Status(obj.status).label

    @admin.display(description=_("tournament"))
    def tournament_link(self, obj: Round) -> str:
        return link(obj.tournament)

    @admin.display(description=_("mission rolls"))
    def rolls_list(self, obj: Round) -> str:
        if obj.mission is None and not obj.rolls and not obj.tournament.rules.rolls_missions:
            return _("none: this game system is played with the organisers' scenario")
        return mission_rolls_text(obj)

    @admin.display(description=_("pairing summary"))
    def pairing_summary(self, obj: Round) -> str:
        cost = (obj.pairing or {}).get("cost", {})
        items = [(k, v) for k, v in cost.items() if v]
        if not items:
            return _("No compromise was needed.")
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{}: {}</li>", items))

    @admin.display(description=_("games"))
    def games_table(self, obj: Round) -> str:
        games = list(obj.games.select_related("player_a", "player_b", "mission", "winner")
                     .order_by("table", "pk"))
        names = {p.pk: p.name for g in games for p in (g.player_a, g.player_b) if p is not None}
        slugs = {p["chart"] for g in games for p in g.list_problems}
        charts = chart_names(slugs) if slugs else {}
        rows = [
            (admin_url(g), g.table or _("bye"), player_label(g.player_a), player_label(g.player_b),
             g.mission.name if g.mission else EMPTY, roles_text(g, names),
             deviations_text(g.deviations), problems_text(g, names, charts), Game.Status(g.status).label,
             result_text(g))
            for g in games
        ]
        titles = [_("table"), _("player"), _("opponent"), _("mission"), _("roles"),
                  _("deviations"), _("list problems"), _("status"), _("confirmed result")]
        head = format_html("<tr>{}</tr>", format_html_join("", "<th>{}</th>", ((t,) for t in titles)))
        body = format_html_join(
            "", '<tr><td><a href="{}">{}</a></td>' + "<td>{}</td>" * 8 + "</tr>", rows)
        return format_html("<table>{}{}</table>", head, body)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            may_change = request.user.has_perm("league.change_tournament")
            context["can_publish"] = obj.status == Round.Status.DRAFT and may_change
            # Rounds of systems without rolled missions are played with the organisers' text.
            if may_change and (obj.scenario or not obj.tournament.rules.rolls_missions):
                context["scenario_form"] = ScenarioForm(initial={"scenario": obj.scenario})
            context["clock"] = round_desk.clock_panel(obj, can_act=may_change,
                                                      next_url=request.path)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_urls(self):
        scenario = self.admin_site.admin_view(require_POST(self.scenario_view))
        return [path("<int:pk>/scenario/", scenario, name="league_round_scenario"),
                *round_desk.urls(self), *super().get_urls()]

    def scenario_view(self, request, pk: int):
        if not request.user.has_perm("league.change_tournament"):
            raise PermissionDenied
        round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
        form = ScenarioForm(request.POST)
        if not form.is_valid():
            for errors in form.errors.values():
                messages.error(request, " ".join(errors))
            return HttpResponseRedirect(admin_url(round_))
        try:
            rounds.set_scenario(Actor.of(request), round_.tournament, round_.number,
                                form.cleaned_data["scenario"])
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Round %(number)s: scenario saved.")
                             % {"number": round_.number})
        return HttpResponseRedirect(admin_url(round_))


def settle_form(game: Game, data: Any = None) -> SettleForm | SystemReportForm:
    """The organiser's result form: the game system's report form (the player's game page's,
    with a comment), or the winner-and-points form of a chart game."""
    form_class = report_form_class(game)
    if form_class is None:
        return SettleForm(game, data)
    form = form_class(data, game=game, lists=result_grid.game_lists(game))
    form.fields["comment"] = copy.deepcopy(SettleForm.base_fields["comment"])
    return form


def settle_input(form: SettleForm | SystemReportForm) -> results.ResultInput:
    if isinstance(form, SettleForm):
        return form.result_input()
    return results.ResultInput(**form.content(), comment=form.cleaned_data.get("comment", ""))


def report_rows(game: Game) -> list[dict[str, Any]]:
    names = {game.player_a_id: game.player_a.name}
    if game.player_b is not None:
        names[game.player_b_id] = game.player_b.name
    rows = []
    lists: dict[int, Any] | None = None  # read (one query) for the first outcome to tell
    for rep in game.reports.select_related("reporter", "confirmed_by").order_by("created_at", "pk"):
        if rep.outcome and lists is None:
            lists = result_grid.game_lists(game)
        rows.append({
            "when": rep.created_at,
            "by": names.get(rep.by_player_id) if rep.by_player_id else
            _("staff (%(user)s)") % {"user": rep.reporter or EMPTY},
            "status": Report.Status(rep.status).label,
            "winner": names.get(rep.winner_id, EMPTY) if rep.winner_id else _("draw"),
            "vp": ", ".join(f"{names.get(int(k), k)}: {v}" for k, v in rep.victory_points.items()),
            "stratagems": "; ".join(f"{names.get(int(k), k)}: {', '.join(v)}"
                                    for k, v in rep.stratagems.items() if v),
            "outcome": outcome_lines(game, rep.outcome, rep.victory_points, lists or {}),
            "comment": rep.comment,
            "confirmed": rep.confirmed_at,
            "confirmed_by": rep.confirmed_by,
        })
    return rows


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    change_form_template = "admin/league/game/change_form.html"
    list_display = ["__str__", "round", "table", "player_a", "player_b", "mission", "status"]
    list_filter = ["status", "round__tournament"]
    list_select_related = ["round__tournament", "player_a", "player_b", "mission"]
    search_fields = ["player_a__name", "player_b__name"]
    fields = readonly_fields = [
        "round_link", "table", "first_player", "second_player", "mission", "status", "result",
        "roles_list", "deviations_list", "problems_list", "pregame_rolls"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(
            "round__tournament", "player_a", "player_b", "mission", "winner")

    @admin.display(description=_("round"))
    def round_link(self, obj: Game) -> str:
        return link(obj.round)

    def _names(self, obj: Game) -> dict[int, str]:
        return {p.pk: p.name for p in (obj.player_a, obj.player_b) if p is not None}

    @admin.display(description=_("player"))
    def first_player(self, obj: Game) -> str:
        return link(obj.player_a, player_label(obj.player_a))

    @admin.display(description=_("opponent"))
    def second_player(self, obj: Game) -> str:
        return link(obj.player_b, player_label(obj.player_b)) if obj.player_b else _("bye")

    @admin.display(description=_("confirmed result"))
    def result(self, obj: Game) -> str:
        return result_text(obj)

    @admin.display(description=_("roles"))
    def roles_list(self, obj: Game) -> str:
        return roles_text(obj, self._names(obj))

    @admin.display(description=_("deviations"))
    def deviations_list(self, obj: Game) -> str:
        return deviations_text(obj.deviations)

    @admin.display(description=_("list problems"))
    def problems_list(self, obj: Game) -> str:
        return problems_text(obj, self._names(obj))

    @admin.display(description=_("Pre-game rolls"))
    def pregame_rolls(self, obj: Game) -> str:
        return pregame_table(obj)

    def _may_settle(self, request) -> bool:
        return request.user.has_perm("league.change_game")

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context["reports"] = report_rows(obj)
            context["disputes"] = disputes_of([obj]).get(obj.pk, [])
            settle = (not obj.is_bye and obj.round.status != Round.Status.DRAFT
                      and self._may_settle(request))
            context["settle_form"] = settle_form(obj) if settle else None
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_urls(self):
        return [path("<int:pk>/settle/", self.admin_site.admin_view(require_POST(self.settle_view)),
                     name="league_game_settle"), *super().get_urls()]

    def settle_view(self, request, pk: int):
        """A staff result, final at once; the players' reports stay on record."""
        if not self._may_settle(request):
            raise PermissionDenied
        game = get_object_or_404(self.get_queryset(request), pk=pk)
        if game.is_bye:
            messages.error(request, _("A bye has no result to report."))
            return HttpResponseRedirect(admin_url(game))
        form = settle_form(game, request.POST)
        if not form.is_valid():
            for field, errors in form.errors.items():
                label = form.fields[field].label if field in form.fields else ""
                messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))
            return HttpResponseRedirect(admin_url(game))
        try:
            updated = results.report(Actor.of(request), game.pk, settle_input(form))
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Table %(table)s: result recorded, status “%(status)s”.") % {
                "table": updated.table, "status": Game.Status(updated.status).label})
        return HttpResponseRedirect(safe_next(request, admin_url(game)))
