"""League games reported by their players (open play) or entered by staff.

A league game is an ordinary ``events`` game of the round numbered as its week: the report,
the opponent's confirmation, disputes and notices are events' own (events.services.results)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Game, Player, Round, Tournament
from events.services import results
from events.services.tournaments import locked_tournament
from leagues.models import DeclaredBye, League, Week
from leagues.services.setup import get_week, require_league


@dataclass(frozen=True)
class LeagueGameInput:
    """``opponent`` (a player's report) or ``players`` (staff), and the report's content."""

    opponent: int | None = None
    players: tuple[int, ...] | None = None
    content: results.ResultInput = field(default_factory=results.ResultInput)


def player_of(actor: Actor, tournament: Tournament) -> Player | None:
    if actor.user_id is None:
        return None
    return tournament.players.filter(user_id=actor.user_id).first()


@transaction.atomic
def report_game(actor: Actor, tournament: Tournament, number: int, given: LeagueGameInput) -> Game:
    """Store the game in week ``number`` and report it: a player's report waits for the
    opponent's confirmation, a staff entry is confirmed at once."""
    league = require_league(tournament)
    locked = locked_tournament(tournament)  # one writer at a time: rematches, the week's round
    week = get_week(league, number)
    first, second = _sides(actor, locked, given)
    if league.mode == League.Mode.WEEKLY_SWISS:
        raise Conflict(_("In a weekly Swiss league the games are paired: report the result on the "
                         "game of the week's round."), "league_games_paired")
    staff_entry = given.players is not None
    if not staff_entry:
        check_open(week, locked)
    _check_byes(week, first, second)
    _check_rematch(league, locked, first, second)
    round_ = week_round(actor, locked, number)
    # Numbered as tables are (the game page, the letters say "table n"): the week's n-th game.
    table = (round_.games.aggregate(last=Max("table"))["last"] or 0) + 1
    game = Game.objects.create(round=round_, table=table, player_a=first, player_b=second)
    record(actor, "league_game_entered", locked, game,
           {"week": number, "game": game.pk, "players": [first.pk, second.pk]})
    return results.report(actor, game.pk, given.content)


def _sides(actor: Actor, tournament: Tournament, given: LeagueGameInput) -> tuple[Player, Player]:
    if given.players is not None:
        if not actor.is_staff:
            raise Forbidden(_("Only the organisers can enter a game between two other players."),
                            "staff_only")
        ids = list(given.players)
    else:
        me = player_of(actor, tournament)
        if me is None and actor.is_staff:
            raise Invalid(_("Name the game's two players."), "players_required")
        if me is None:
            raise Forbidden(_("Only the league's players can report a league game."), "not_registered")
        if given.opponent is None:
            raise Invalid(_("Say who your opponent was."), "opponent_required")
        ids = [me.pk, given.opponent]
    if ids[0] == ids[1]:
        raise Invalid(_("A game is played against another player."), "league_same_player")
    found = {p.pk: p for p in tournament.players.filter(pk__in=ids)}
    missing = [pid for pid in ids if pid not in found]
    if missing:
        raise Invalid(_("Player %(id)s is not registered in this league.") % {"id": missing[0]},
                      "player_not_registered")
    return found[ids[0]], found[ids[1]]


def check_open(week: Week, tournament: Tournament) -> None:
    """A player acts only in an open week of a league still running (staff may always)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    if not week.is_open(timezone.now()):
        raise Conflict(_("Week %(number)s is not open: ask an organiser to enter this game.")
                       % {"number": week.number}, "league_week_closed")


def _check_byes(week: Week, *players: Player) -> None:
    declared = DeclaredBye.objects.filter(week=week, player__in=players).select_related("player").first()
    if declared is not None:
        raise Conflict(_("%(player)s declared a bye for week %(number)s.")
                       % {"player": declared.player.name, "number": week.number}, "league_bye_declared")


def _check_rematch(league: League, tournament: Tournament, first: Player, second: Player) -> None:
    if league.rematch != League.Rematch.NEVER:
        return
    pair = Q(player_a=first, player_b=second) | Q(player_a=second, player_b=first)
    if Game.objects.filter(pair, round__tournament=tournament).exists():
        raise Conflict(_("%(a)s and %(b)s have already played each other in this league.")
                       % {"a": first.name, "b": second.name}, "league_rematch")


def week_round(actor: Actor, tournament: Tournament, number: int) -> Round:
    """The round of week ``number`` (open play: made, published, when its first game comes)."""
    round_ = tournament.round_set.filter(number=number).first()
    if round_ is None:
        round_ = Round.objects.create(tournament=tournament, number=number,
                                      status=Round.Status.PUBLISHED, published_at=timezone.now())
        record(actor, "league_week_started", tournament, round_, {"week": number})
    return round_


def game_content(data: dict[str, Any]) -> results.ResultInput:
    """A report body (events' ReportSerializer fields) as events' results take it."""
    return results.ResultInput(
        winner=data["result"].get("winner"), outcome=data["result"].get("outcome"),
        victory_points=data.get("victory_points") or {}, stratagems=data.get("stratagems") or {},
        comment=data.get("comment", ""), facts=data.get("outcome"))
