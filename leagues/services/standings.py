"""The league table: the tournament's confirmed games and declared byes, read in three queries,
handed to the pure engine (leagues/engine/weeks.py)."""
from __future__ import annotations

from collections import defaultdict

from events.models import Game, Tournament
from leagues.engine import weeks as engine
from leagues.models import DeclaredBye, League
from leagues.services.setup import require_league


def rules_of(league: League) -> engine.Rules:
    return engine.Rules(engine.Points(league.win_points, league.draw_points, league.loss_points),
                        league.games_counted_per_week, league.drop_worst_weeks)


def entrants(tournament: Tournament) -> list[engine.Entrant]:
    """Each registered player's weeks: confirmed games in report order (the game's creation: a
    league game is made as it is reported; a paired round's games in table order), pairing
    byes as their event's ``bye_points`` result, declared byes."""
    games: dict[tuple[int, int], list[engine.Played]] = defaultdict(list)
    confirmed = (Game.objects.filter(round__tournament=tournament, status=Game.Status.CONFIRMED)
                 .values_list("pk", "round__number", "player_a_id", "player_b_id", "winner_id")
                 .order_by("pk"))
    bye_result = "draw" if tournament.bye_points == Tournament.ByePoints.DRAW else "win"
    for pk, week, a, b, winner in confirmed:
        if b is None:
            games[(a, week)].append(engine.Played(pk, bye_result, bye=True))
            continue
        for me in (a, b):
            result = "draw" if winner is None else ("win" if winner == me else "loss")
            games[(me, week)].append(engine.Played(pk, result))
    declared = set(DeclaredBye.objects.filter(week__league__tournament=tournament)
                   .values_list("player_id", "week__number"))
    weeks_of: dict[int, set[int]] = defaultdict(set)
    for pid, week in [*games, *declared]:
        weeks_of[pid].add(week)
    return [
        engine.Entrant(pid, name, tuple(
            engine.PlayerWeek(n, tuple(games.get((pid, n), ())), (pid, n) in declared)
            for n in sorted(weeks_of[pid])))
        for pid, name in tournament.players.order_by("pk").values_list("pk", "name")]


def league_table(tournament: Tournament) -> list[engine.Row]:
    league = require_league(tournament)
    numbers = list(league.weeks.order_by("number").values_list("number", flat=True))
    return engine.table(entrants(tournament), numbers, rules_of(league))


def table_data(rows: list[engine.Row]) -> list[dict]:
    return [
        {"rank": row.rank, "player": {"id": row.player, "name": row.name}, "points": row.points,
         "weeks": [{"week": w.week, "points": w.points, "games_played": w.games_played,
                    "games_counted": w.games_counted, "bye": w.bye, "dropped": w.dropped}
                   for w in row.weeks]}
        for row in rows
    ]
