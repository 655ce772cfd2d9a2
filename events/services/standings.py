"""Standings and pairing state from the database, through the pure engines."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from events import event_cache
from events.models import Game, Player, Round, Tournament
from events.pairing import PlayerState
from events.scoring import bands_of
from events.standings import GameResult, ScoringSettings, StandingRow, compute_standings
from venue.services import awards


@dataclass(frozen=True)
class PlayedGame:
    """The columns of a game the standings and the pairing need, without model instances."""

    round: int
    table: int | None
    players: tuple[int, ...]
    status: str
    winner: int | None
    victory_points: dict[int, int]


def played_games(tournament: Tournament) -> list[PlayedGame]:
    """Games of published and completed rounds (drafts are not played), in one query."""
    rows = Game.objects.filter(round__tournament=tournament).exclude(
        round__status=Round.Status.DRAFT
    ).values_list("round__number", "table", "player_a_id", "player_b_id", "status", "winner_id",
                  "victory_points")
    return [
        PlayedGame(number, table, (a,) if b is None else (a, b), status, winner,
                   {int(k): int(v) for k, v in (vp or {}).items()})
        for number, table, a, b, status, winner, vp in rows
    ]


def scoring_settings(tournament: Tournament) -> ScoringSettings:
    return ScoringSettings(
        win=tournament.win_points, draw=tournament.draw_points, loss=tournament.loss_points,
        bye_points=tournament.bye_points, tiebreaks=tuple(tournament.tiebreaks), seed=tournament.seed,
        vp_bands=bands_of(tournament.scoring or {}),
    )


def registration_numbers(player_ids: Iterable[int]) -> dict[int, int]:
    """Database id -> place in registration order (1, 2, ...) among ``player_ids``.

    The pure engines break ties with seeded hashes of the ids they are given. Handing them
    these numbers instead of database ids makes a replay (same seed, same registrations in the
    same order) give the same standings and pairings in any database, as api-v1 promises."""
    return {pk: number for number, pk in enumerate(sorted(player_ids), start=1)}


def confirmed_results(games: Iterable[PlayedGame],
                      numbers: Mapping[int, int] | None = None) -> list[GameResult]:
    """Confirmed games as engine results, ids mapped through ``numbers`` when given."""
    def n(pk: int) -> int:
        return pk if numbers is None else numbers[pk]

    return [
        GameResult(g.round, tuple(n(p) for p in g.players),  # type: ignore[arg-type]
                   None if g.winner is None else n(g.winner),
                   {n(pk): vp for pk, vp in g.victory_points.items()})
        for g in games if g.status == Game.Status.CONFIRMED
    ]


def compute(tournament: Tournament, games: Sequence[PlayedGame] | None = None,
            player_ids: Sequence[int] | None = None,
            extra: Mapping[int, int] | None = None) -> tuple[StandingRow, ...]:
    """Standings of every player of the tournament (``player_ids`` must hold them all);
    ``extra`` adds awards and penalties per player (none: the pairing ranks on games only)."""
    if player_ids is None:
        player_ids = list(tournament.players.values_list("pk", flat=True))
    games = played_games(tournament) if games is None else games
    numbers = registration_numbers(player_ids)
    pks = {number: pk for pk, number in numbers.items()}
    extra_points = {numbers[pk]: points for pk, points in (extra or {}).items() if pk in numbers}
    rows = compute_standings(list(pks), confirmed_results(games, numbers),
                             scoring_settings(tournament), extra_points)
    return tuple(replace(row, player=pks[row.player]) for row in rows)


def standings(tournament: Tournament, *, ranked_with_extras: bool = True,
              extras: awards.Extras | None = None) -> list[tuple[StandingRow, Player]]:
    """Rows best first, each with its player (one query for players, one for games, one for the
    awards and penalties unless ``extras`` is given). With ``ranked_with_extras`` the components
    that count are added to the tournament points."""
    players = {p.pk: p for p in tournament.players.all()}
    extras = awards.load(tournament) if extras is None else extras
    rows = compute(tournament, player_ids=list(players),
                   extra=extras.extra(ranked=ranked_with_extras))
    return [(row, players[row.player]) for row in rows]


@dataclass(frozen=True)
class Entrant:
    """A player as the standings show them: no model instance, so it can be cached."""

    pk: int
    name: str
    club: str
    faction: str
    dropped: bool


@dataclass(frozen=True)
class Ranking:
    """The standings best first with their players, and the awards and penalties they read."""

    rows: tuple[tuple[StandingRow, Entrant], ...]
    extras: awards.Extras
    ranked_with_extras: bool


def ranking(tournament: Tournament, *, ranked_with_extras: bool = True,
            cached: event_cache.EventCache | None = None) -> Ranking:
    """``standings`` as the public pages show them, from the event's cache when it has them
    (built in three queries otherwise: players, games, awards and penalties)."""
    cached = cached or event_cache.for_event(tournament.pk)
    mode = "with" if ranked_with_extras else "without"
    return cached.get_or_build(f"ranking:{mode}",
                               lambda: _ranking(tournament, ranked_with_extras))


def _ranking(tournament: Tournament, ranked_with_extras: bool) -> Ranking:
    players = {pk: Entrant(pk, *fields) for pk, *fields in tournament.players.values_list(
        "pk", "name", "club", "faction", "dropped")}
    extras = awards.load(tournament)
    rows = compute(tournament, player_ids=list(players),
                   extra=extras.extra(ranked=ranked_with_extras))
    return Ranking(tuple((row, players[row.player]) for row in rows), extras, ranked_with_extras)


def pairing_states(tournament: Tournament,
                   players: Sequence[Player]) -> tuple[list[PlayerState], dict[int, int]]:
    """The engine's input for ``players``, keyed by registration number (see
    ``registration_numbers``), and the map from those numbers back to database ids."""
    games = played_games(tournament)
    all_ids = list(tournament.players.values_list("pk", flat=True))
    rows = compute(tournament, games, all_ids)
    numbers = registration_numbers(all_ids)
    wanted = {p.pk: p for p in players}
    opponents: dict[int, set[int]] = defaultdict(set)
    tables: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    for game in games:
        if len(game.players) == 1:
            byes.add(game.players[0])
            continue
        a, b = game.players
        opponents[a].add(numbers[b])
        opponents[b].add(numbers[a])
        if game.table is not None:
            tables[a].add(game.table)
            tables[b].add(game.table)
    ranked = [row for row in rows if row.player in wanted]
    states = [
        PlayerState(
            id=numbers[row.player], score=row.points, rank=rank,
            club=wanted[row.player].club.strip().casefold(),
            faction=wanted[row.player].faction.strip().casefold(),
            opponents=frozenset(opponents[row.player]), tables=frozenset(tables[row.player]),
            had_bye=row.player in byes,
        )
        for rank, row in enumerate(ranked)
    ]
    return states, {number: pk for pk, number in numbers.items()}
