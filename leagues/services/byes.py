"""Declared byes: a player says they will not play a week (it scores 0, at most ``byes_allowed``)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid
from events.models import Game, Player, Tournament
from events.services.tournaments import get_player, locked_tournament
from leagues.models import DeclaredBye
from leagues.services.games import check_open, player_of
from leagues.services.setup import get_week, require_league


@transaction.atomic
def declare_bye(actor: Actor, tournament: Tournament, number: int, player_id: int | None) -> DeclaredBye:
    """The player's bye for week ``number`` (staff name the player; a player only themself)."""
    league = require_league(tournament)
    locked = locked_tournament(tournament)  # counts byes one declaration at a time
    week = get_week(league, number)
    player = _whose(actor, locked, player_id)
    if not actor.is_staff:
        check_open(week, locked)
    if DeclaredBye.objects.filter(week=week, player=player).exists():
        raise Conflict(_("%(player)s already declared a bye for week %(number)s.")
                       % {"player": player.name, "number": number}, "league_bye_declared")
    used = DeclaredBye.objects.filter(week__league=league, player=player).count()
    if used >= league.byes_allowed:
        raise Conflict(_("%(player)s has used the %(allowed)s bye(s) this league allows.")
                       % {"player": player.name, "allowed": league.byes_allowed}, "league_byes_used")
    if _has_game(locked, number, player):
        raise Conflict(_("%(player)s already has a game in week %(number)s.")
                       % {"player": player.name, "number": number}, "league_week_played")
    bye = DeclaredBye.objects.create(week=week, player=player)
    record(actor, "league_bye_declared", locked, player, {"week": number, "player": player.pk})
    return bye


def _whose(actor: Actor, tournament: Tournament, player_id: int | None) -> Player:
    me = player_of(actor, tournament)
    if player_id is None:
        if me is None:
            if actor.is_staff:
                raise Invalid(_("Say which player takes the bye."), "player_required")
            raise Forbidden(_("Only the league's players can declare a bye."), "not_registered")
        return me
    if actor.is_staff or (me is not None and me.pk == player_id):
        return get_player(tournament, player_id)
    raise Forbidden(_("Only this player or an organiser can declare their bye."), "not_your_bye")


def _has_game(tournament: Tournament, number: int, player: Player) -> bool:
    games = Game.objects.filter(round__tournament=tournament, round__number=number)
    return games.filter(player_a=player).exists() or games.filter(player_b=player).exists()
