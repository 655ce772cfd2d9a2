"""What the ``league`` format answers when events pairs a round or takes a player's report
(events/formats.py's hooks; the list view's ``?week=`` is answered by leagues/api.py)."""
from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict
from events.models import Player, Tournament
from leagues.models import DeclaredBye, League, Week


def pairing_players(tournament: Tournament, number: int, players: list[Player]) -> list[Player]:
    """Weekly Swiss: week n is round n, without the players who declared a bye for it. Open
    play pairs nothing: its players report the games they played."""
    league = League.objects.filter(tournament=tournament).first()
    if league is None:
        return players
    if league.mode == League.Mode.OPEN_PLAY:
        raise Conflict(_("In an open-play league the players report the games they played: "
                         "there are no rounds to pair."), "league_open_play")
    away = set(DeclaredBye.objects.filter(week__league=league, week__number=number)
               .values_list("player_id", flat=True))
    return [p for p in players if p.pk not in away]


def had_byes(tournament: Tournament, number: int) -> set[int]:
    """Weekly Swiss: a bye declared for an earlier week counts as a bye had, so the pairing's
    bye goes to players who have had none while any has not (a declared bye scores 0 too)."""
    return set(DeclaredBye.objects.filter(week__league__tournament=tournament,
                                          week__number__lt=number)
               .values_list("player_id", flat=True))


def check_report(game) -> None:
    """A player's report of a game of week n (a paired weekly Swiss game, or an open-play game
    reported again): 409 ``league_week_closed`` unless week n is open now."""
    week = Week.objects.filter(league__tournament_id=game.round.tournament_id,
                               number=game.round.number).first()
    if week is not None and not week.is_open(timezone.now()):
        raise Conflict(_("Week %(number)s is not open: ask an organiser to enter this game.")
                       % {"number": week.number}, "league_week_closed")


def page(tournament) -> tuple[str, str]:
    """The event page links to the league page (this week, my games, the weekly table)."""
    return str(_("The league: this week, my games and the weekly table")), reverse(
        "league", args=[tournament.slug])


def round_name(tournament: Tournament, number: int) -> str:
    """Week n is round n: the players' e-mails say "Week 3", as the league page does."""
    return gettext("Week %(number)s") % {"number": number}


HOOKS = {"pairing_players": pairing_players, "check_report": check_report, "page": page,
         "had_byes": had_byes, "round_name": round_name}
