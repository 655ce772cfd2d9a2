"""The league's pages (phone first): the league page (this week, my games, report a game,
declare a bye, the weekly table) and a player's list for one week."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from armylists import services as armylists
from armylists.chart_reports import render_report, slot_names
from armylists.messages import render_roster_error
from armylists.roster import RosterUnreadable
from events.audit import Actor
from events.models import Game, Player, Report
from events.services import results
from events.views.common import attempt, visible_tournament
from leagues.messages import with_league_words
from leagues.models import DeclaredBye, League, Week
from leagues.services import byes, games, standings, week_lists
from leagues.services.setup import league_of, points_limit, weeks_of

RESULTS = ("win", "draw", "loss")


def current_week(weeks: list[Week], now) -> Week | None:
    """The week open now, else the next to open, else the last."""
    return (next((w for w in weeks if w.is_open(now)), None)
            or next((w for w in weeks if w.opens > now), None)
            or (weeks[-1] if weeks else None))


def _league(request, slug: str):
    tournament = visible_tournament(request, slug)
    league = league_of(tournament)
    if league is None:
        raise Http404(_("This tournament is not a league."))
    me = None
    if request.user.is_authenticated:
        me = tournament.players.filter(user=request.user).first()
    return tournament, league, me


def league(request, slug: str):
    tournament, league_, me = _league(request, slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/login/?next={request.path}")
        _act(request, tournament, league_, me)
        return redirect("league", slug=slug)
    return render(request, "leagues/league.html", league_context(tournament, league_, me))


def _act(request, tournament, league_: League, me: Player | None) -> None:
    actor = Actor.of(request)
    week = _int(request.POST.get("week"))
    if request.POST.get("action") == "bye":
        if attempt(request, lambda: byes.declare_bye(actor, tournament, week, None)):
            messages.success(request, _("Your bye for week %(number)s is recorded.") % {"number": week})
        return
    opponent, result = _int(request.POST.get("opponent")), request.POST.get("result")
    if me is None or opponent is None or result not in RESULTS:
        messages.error(request, _("Choose your opponent and the result."))
        return
    winner = {"win": me.pk, "loss": opponent, "draw": None}[result]
    given = games.LeagueGameInput(opponent=opponent, content=results.ResultInput(winner=winner))
    game = attempt(request, lambda: games.report_game(actor, tournament, week, given))
    if game is not None:
        messages.success(request, _("Your game is reported: your opponent confirms it."))


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def league_context(tournament, league_: League, me: Player | None) -> dict[str, Any]:
    now = timezone.now()
    weeks = weeks_of(league_)
    week = current_week(weeks, now)
    rows = standings.league_table(tournament)
    context: dict[str, Any] = {
        "tournament": tournament, "league": league_, "weeks": weeks, "week": week, "rows": rows,
        "limit": points_limit(week, tournament) if week else tournament.points_limit,
        "week_open": bool(week and week.is_open(now)), "me": me,
    }
    if me is not None and week is not None:
        context.update(_mine(tournament, league_, me, week, rows))
    return context


def _mine(tournament, league_: League, me: Player, week: Week, rows) -> dict[str, Any]:
    mine = next((r for r in rows if r.player == me.pk), None)
    score = next((w for w in mine.weeks if w.week == week.number), None) if mine else None
    mine_games = Game.objects.filter(Q(player_a=me) | Q(player_b=me), round__tournament=tournament)
    played_this_week = mine_games.filter(round__number=week.number).exists()
    byes_used = DeclaredBye.objects.filter(week__league=league_, player=me).count()
    declared = DeclaredBye.objects.filter(week=week, player=me).exists()
    opponents = tournament.players.exclude(pk=me.pk)
    if league_.rematch == League.Rematch.NEVER:
        met = {pid for pair in mine_games.values_list("player_a_id", "player_b_id") for pid in pair}
        opponents = opponents.exclude(pk__in=met)
    waiting = (Report.objects.filter(game__in=mine_games, status=Report.Status.REPORTED,
                                     game__status=Game.Status.REPORTED)
               .exclude(by_player=me).select_related("game__player_a", "game__player_b"))
    earlier = week_lists.earlier_list(week, me) if league_.escalation else None
    return {
        "counted": score.games_counted if score else 0, "declared_bye": declared,
        "bye_available": (week.is_open(timezone.now()) and not declared and not played_this_week
                          and byes_used < league_.byes_allowed),
        "byes_left": max(0, league_.byes_allowed - byes_used),
        "opponents": list(opponents), "waiting": [r.game for r in waiting],
        "must_keep": week_lists.unit_names(earlier.army_list) if earlier else [],
        "must_keep_week": earlier.week.number if earlier else None,
    }


@login_required
def week_list(request, slug: str, number: int):
    """The signed-in player's list for week ``number``: the report, what it must keep, and a
    roster to paste (a BattleScribe text export) for a new version."""
    tournament, league_, me = _league(request, slug)
    week = league_.weeks.filter(number=number).first()
    if week is None or me is None:
        raise Http404(_("No such week list."))
    if request.method == "POST":
        _submit_roster(request, tournament, me, week)
        return redirect("league_week_list", slug=slug, number=number)
    current = week_lists.week_list(me, week)
    report = None
    if current is not None:
        names = slot_names(tournament.game_system)
        report = with_league_words(render_report(current.army_list.report, names))
    earlier = week_lists.earlier_list(week, me) if league_.escalation else None
    return render(request, "leagues/week_list.html", {
        "tournament": tournament, "league": league_, "week": week, "me": me,
        "limit": points_limit(week, tournament), "army_list": current.army_list if current else None,
        "report": report, "weeks": weeks_of(league_),
        "must_keep": week_lists.unit_names(earlier.army_list) if earlier else [],
        "must_keep_week": earlier.week.number if earlier else None,
    })


def _submit_roster(request, tournament, me: Player, week: Week) -> None:
    text = request.POST.get("roster", "")
    try:
        parsed = armylists.read_roster(text, "auto", tournament.game_system)
    except RosterUnreadable as exc:
        messages.error(request, render_roster_error(exc.reason, exc.params))
        return
    saved = attempt(request, lambda: week_lists.submit_week_list(
        Actor.of(request), tournament, me, week.number, entries=parsed.entries,
        source_format=parsed.format, raw=text.encode(), import_warnings=parsed.warnings))
    if saved is not None:
        messages.success(request, _("Your list for week %(number)s is saved.") % {"number": week.number})
