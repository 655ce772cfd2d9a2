"""The round at the venue, in the admin: its clock's buttons (start, pause, resume, extend, end),
"Print the pack", and the results grid (every table's state, many results entered or settled
from one page). All go through services with the signed-in organiser as the actor: the clock
through ``services.clock``, the pack through ``printing.services.packs.request_pack``, each
table through ``services.result_grid`` (``results.report``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from rest_framework import serializers

from events import table_blocks
from events.admin.common import EMPTY, admin_url, safe_next
from events.admin.disputes import Dispute, disputes_of
from events.admin.grid_forms import (
    GridRowForm,
    Lists,
    asks_victory_points,
    grid_titles,
    list_facts,
)
from events.audit import Actor
from events.errors import ServiceError
from events.models import Game, Report, Round
from events.services import result_grid
from printing.services import packs
from systems import reports
from venue.clock_words import clock_label, shown_time
from venue.services import clock

PERMISSION = "league.change_tournament"
EXTEND_CHOICES = (5, 10, 15, 30)


def may_act(request) -> bool:
    return request.user.has_perm(PERMISSION)


# The clock --------------------------------------------------------------------------------

def clock_panel(round_: Round | None, *, can_act: bool, next_url: str = "") -> dict[str, Any] | None:
    """What the clock's row shows: the time left and the moves its state allows."""
    if round_ is None or round_.status == Round.Status.DRAFT:
        return None
    reading = clock.read(round_)
    state = reading.state
    moves = {clock.NOT_STARTED: [clock.START], clock.RUNNING: [clock.PAUSE, clock.EXTEND, clock.END],
             clock.PAUSED: [clock.RESUME, clock.EXTEND, clock.END], clock.ENDED: []}[state]
    over = round_.status == Round.Status.COMPLETED
    return {"round": round_, "reading": reading, "text": shown_time(reading),
            "label": clock_label(reading), "moves": [] if over or not can_act else moves,
            "default_minutes": clock.DEFAULT_MINUTES, "extend_choices": EXTEND_CHOICES,
            "url": reverse("admin:league_round_clock", args=[round_.pk]), "next": next_url}


def _clock_words(action: str, number: int, reading: clock.Reading) -> str:
    words = {
        clock.START: _("Round %(number)s: clock started, %(time)s to play."),
        clock.PAUSE: _("Round %(number)s: clock paused at %(time)s."),
        clock.RESUME: _("Round %(number)s: clock running again, %(time)s left."),
        clock.EXTEND: _("Round %(number)s: clock extended, %(time)s left."),
        clock.END: _("Round %(number)s: clock ended."),
    }[action]
    return words % {"number": number, "time": shown_time(reading)}


def clock_view(request, pk: int):
    if not may_act(request):
        raise PermissionDenied
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    action = request.POST.get("action", "")
    try:
        reading = clock.act(Actor.of(request), round_.tournament, round_.number, action,
                            request.POST.get("minutes") or None)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _clock_words(action, round_.number, reading))
    return HttpResponseRedirect(safe_next(request, admin_url(round_)))


# The mission pack -------------------------------------------------------------------------

def pack_view(request, pk: int):
    """"Print the pack" (the round's page, the organiser's desk): ask for the round's mission
    pack through the service the Rounds action and the API use, then watch its progress on
    the pack's page. It is built in the background, never in this request; a draft round's
    pack says so on every page."""
    if not may_act(request):
        raise PermissionDenied
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    try:
        pack = packs.request_pack(Actor.of(request), round_.tournament, round_.number)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(safe_next(request, admin_url(round_)))
    return HttpResponseRedirect(reverse("admin:printing_missionpack_change", args=[pack.pk]))


# The results grid -------------------------------------------------------------------------

OPEN = (Report.Status.REPORTED, Report.Status.DISPUTED)


@dataclass
class GridRow:
    game: Game
    form: GridRowForm
    version: str
    reports: list[str] = field(default_factory=list)  # the open reports, in words
    error: str = ""
    disputes: list[Dispute] = field(default_factory=list)  # who disputed, when and why

    @property
    def recorded(self) -> str:
        return result_words(self.game)


def grid_games(round_: Round) -> list[Game]:
    """The round's tables (byes have no result) with their report counts, in one query."""
    return list(round_.games.filter(player_b__isnull=False)
                .select_related("player_a", "player_b", "winner")
                .annotate(report_count=Count("reports"))
                .order_by(F("table").asc(nulls_last=True), "pk"))


def _open_reports(round_: Round) -> dict[int, list[Report]]:
    found: dict[int, list[Report]] = {}
    for rep in (Report.objects.filter(game__round=round_, status__in=OPEN)
                .select_related("reporter").order_by("created_at", "pk")):
        found.setdefault(rep.game_id, []).append(rep)
    return found


def report_words(game: Game, rep: Report) -> str:
    """"Alice: Alice won, 900–300 VP": who reported what."""
    names = {game.player_a_id: game.player_a.name, game.player_b_id: game.player_b.name}
    who = names.get(rep.by_player_id) if rep.by_player_id else _("organiser")
    result = (_("%(player)s won") % {"player": names.get(rep.winner_id, "?")}
              if rep.winner_id else _("draw"))
    vp = rep.victory_points or {}
    if vp:
        score = "–".join(str(vp.get(str(pid), 0)) for pid in (game.player_a_id, game.player_b_id))
        result = _("%(result)s, %(score)s VP") % {"result": result, "score": score}
    return f"{who}: {result}"


def result_words(game: Game) -> str:
    if game.status != Game.Status.CONFIRMED:
        return EMPTY
    vp = game.victory_points or {}
    score = "–".join(str(vp.get(str(pid), 0)) for pid in (game.player_a_id, game.player_b_id))
    words = (_("%(player)s won") % {"player": game.winner.name} if game.winner_id
             else _("draw"))
    return f"{words} ({score} VP)" if vp else str(words)


# Rows per page: a post of a whole page stays well under Django's limit of 1,000 form fields.
# A ticked model or unit is one field more, so rows offering them come fewer to a page: 20
# tables with every model of two 20-model commandos ticked still fit.
GRID_PAGE = 100
FACTS_PAGE = 20


@dataclass(frozen=True)
class GridView:
    """Which tables the page shows: every table or the open ones, one page of them."""

    only_open: bool = False
    page: int = 1

    @classmethod
    def of(cls, request) -> GridView:
        try:
            page = max(1, int(request.GET.get("page", "1")))
        except ValueError:
            page = 1
        return cls(request.GET.get("show") == "open", page)

    def pick(self, games: list[Game], size: int | None = None) -> tuple[list[Game], int]:
        """This page's tables (``size`` to a page) and the number of pages."""
        size = size or GRID_PAGE
        chosen = [g for g in games if g.status != Game.Status.CONFIRMED] if self.only_open \
            else games
        pages = max(1, -(-len(chosen) // size))
        start = (min(self.page, pages) - 1) * size
        return chosen[start:start + size], pages


def grid_lists(round_: Round) -> Lists:
    """The players' lists, read (one query) only where a row offers facts picked from them."""
    if not list_facts(round_.tournament):
        return {}
    return result_grid.round_lists(round_)


def grid_rows(round_: Round, games: list[Game], bound: dict[int, GridRowForm] | None = None,
              errors: dict[int, str] | None = None, lists: Lists | None = None) -> list[GridRow]:
    """The tables as they are now; rows refused in a post keep what was typed and their error."""
    bound, errors = bound or {}, errors or {}
    reports = _open_reports(round_)
    lists = grid_lists(round_) if lists is None else lists
    for game in games:
        game.round = round_  # the form reads the event's system and scoring from it
    # Only a disputed table has a reason to show (no query when none is).
    disputed = [g for g in games if g.status == Game.Status.DISPUTED]
    disputes = disputes_of(disputed) if disputed else {}
    rows = []
    for game in games:
        form = bound.get(game.pk) or GridRowForm(game, lists=lists)
        rows.append(GridRow(game, form, result_grid.version_of(game.status, game.report_count),
                            [report_words(game, r) for r in reports.get(game.pk, ())],
                            errors.get(game.pk, ""), disputes.get(game.pk, [])))
    return rows


def _send(actor: Actor, round_: Round, post) -> tuple[int, dict[int, GridRowForm], dict[int, str]]:
    """Each row the organiser filled in, one transaction per table; returns how many went
    through and the refused rows with their reasons."""
    done, kept, errors = 0, {}, {}
    lists = grid_lists(round_)
    for game in grid_games(round_):
        game.round = round_
        form = GridRowForm(game, post, lists=lists)
        if not form.sent:
            continue
        if not form.is_valid():
            kept[game.pk], errors[game.pk] = form, " ".join(
                str(e) for errs in form.errors.values() for e in errs)
            continue
        seen = post.get(f"g{game.pk}-version", "")
        try:
            result_grid.enter(actor, game.pk, seen, form.content())
        except ServiceError as exc:
            kept[game.pk], errors[game.pk] = form, str(exc)
        except serializers.ValidationError:  # a system's outcome it cannot read
            kept[game.pk], errors[game.pk] = form, str(_("This result cannot be read: check the row."))
        else:
            done += 1
    return done, kept, errors


def results_view(modeladmin, request, pk: int):
    """GET: the grid. POST: every filled row; all through, back to the grid (a redirect);
    some refused, the grid again with those rows as typed and their reasons in place."""
    if not may_act(request):
        raise PermissionDenied
    round_ = get_object_or_404(Round.objects.select_related(
        "tournament__game_system", "tournament__level", "mission"), pk=pk)
    kept: dict[int, GridRowForm] = {}
    errors: dict[int, str] = {}
    if request.method == "POST":
        done, kept, errors = _send(Actor.of(request), round_, request.POST)
        if done:
            messages.success(request, ngettext("%(n)s result recorded.", "%(n)s results recorded.",
                                               done) % {"n": done})
        if not errors:
            if not done:
                messages.info(request, _("Nothing to record: fill in a row first."))
            return HttpResponseRedirect(request.get_full_path())
        messages.error(request, ngettext(
            "%(n)s table was not recorded: see its row.",
            "%(n)s tables were not recorded: see their rows.", len(errors)) % {"n": len(errors)})
        round_.refresh_from_db(fields=["status"])
    games = grid_games(round_)
    view = GridView.of(request)
    shown, pages = view.pick(games, FACTS_PAGE if list_facts(round_.tournament)
                             else GRID_PAGE)
    rows = grid_rows(round_, shown, kept, errors)
    tournament = round_.tournament
    # A format that plays tables in blocks (team matches): the rows under their blocks' names.
    blocks = table_blocks.of_round(round_)
    grouped = ([(block, part) for block, part in blocks.group(rows, lambda row: row.game.table)
                if part] if blocks else [(None, rows)])
    words = reports.result_words(tournament.game_system.slug)
    extra = [field.name for field in rows[0].form.extra_fields()] if rows else []
    columns = {"has_vp": asks_victory_points(tournament),
               "facts_label": words.facts_label if words is not None else ""}
    context = {
        **modeladmin.admin_site.each_context(request), "opts": modeladmin.opts,
        "original": round_, "tournament": tournament, "rows": rows, "view": view,
        "grouped": grouped,
        "pages": range(1, pages + 1) if pages > 1 else (),
        "title": _("Results of round %(number)s") % {"number": round_.number},
        "subtitle": tournament.name, "live": round_.status != Round.Status.DRAFT,
        "results_in": sum(1 for g in games if g.status == Game.Status.CONFIRMED),
        "tables": len(games),
        **columns, "extra_titles": grid_titles(tournament, extra),
        # A refused row's message spans every column but the table's.
        "error_span": 4 + len(extra) + sum(bool(column) for column in columns.values()),
        "clock": clock_panel(round_, can_act=True, next_url=request.get_full_path()),
        "tournament_url": admin_url(tournament),
    }
    return TemplateResponse(request, "admin/league/round/results_grid.html", context)


def urls(modeladmin) -> list:
    """The RoundAdmin's extra pages."""
    view = modeladmin.admin_site.admin_view
    return [
        path("<int:pk>/clock/", view(require_POST(clock_view)), name="league_round_clock"),
        path("<int:pk>/pack/", view(require_POST(pack_view)), name="league_round_pack"),
        path("<int:pk>/results/", view(lambda request, pk: results_view(modeladmin, request, pk)),
             name="league_round_results"),
    ]
