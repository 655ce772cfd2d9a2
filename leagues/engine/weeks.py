"""A player's weeks in a league and the league table (api-v1-seasons-teams §2).

A week's points are those of the player's first ``games_counted`` confirmed games of that week,
in the order they were reported; later games are kept and shown, not counted. A declared bye
scores nothing. The ``drop_worst`` lowest weeks are dropped: among equal weeks, byes first,
then the earliest."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0

    def of(self, result: str) -> int:
        return {"win": self.win, "draw": self.draw, "loss": self.loss}[result]


@dataclass(frozen=True)
class Rules:
    points: Points = Points()
    games_counted: int = 2
    drop_worst: int = 0


@dataclass(frozen=True)
class Played:
    """One confirmed game of a player: ``order`` is the report order (smaller: reported
    first); ``bye`` marks a pairing bye (weekly Swiss), scored as its ``result``."""

    order: int
    result: str
    bye: bool = False


@dataclass(frozen=True)
class PlayerWeek:
    week: int
    games: tuple[Played, ...] = ()
    declared_bye: bool = False


@dataclass(frozen=True)
class WeekScore:
    week: int
    points: int
    games_played: int
    games_counted: int
    bye: bool
    dropped: bool = False


@dataclass(frozen=True)
class Entrant:
    player: int
    name: str
    weeks: tuple[PlayerWeek, ...] = ()


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    name: str
    points: int
    weeks: tuple[WeekScore, ...]


def week_score(week: PlayerWeek, rules: Rules) -> WeekScore:
    played = len(week.games)
    if week.declared_bye:
        return WeekScore(week.week, 0, played, 0, True)
    counted = sorted(week.games, key=lambda g: g.order)[:rules.games_counted]
    return WeekScore(week.week, sum(rules.points.of(g.result) for g in counted), played,
                     len(counted), any(g.bye for g in week.games))


def dropped_weeks(scores: Sequence[WeekScore], drop: int) -> frozenset[int]:
    """The numbers of the ``drop`` lowest weeks: byes first among equals, then the earliest."""
    worst = sorted(scores, key=lambda s: (s.points, not s.bye, s.week))
    return frozenset(s.week for s in worst[:max(0, drop)])


def player_weeks(entrant: Entrant, week_numbers: Iterable[int], rules: Rules) -> tuple[WeekScore, ...]:
    """Every week of the league for one player (a week without games scores 0), dropped marked."""
    given = {w.week: w for w in entrant.weeks}
    scores = [week_score(given.get(n, PlayerWeek(n)), rules) for n in sorted(week_numbers)]
    dropped = dropped_weeks(scores, rules.drop_worst)
    return tuple(WeekScore(s.week, s.points, s.games_played, s.games_counted, s.bye,
                           s.week in dropped) for s in scores)


def table(entrants: Iterable[Entrant], week_numbers: Sequence[int], rules: Rules) -> list[Row]:
    """The league table: most points first; equal points share a rank (then by name)."""
    rows = []
    for entrant in entrants:
        weeks = player_weeks(entrant, week_numbers, rules)
        rows.append((sum(w.points for w in weeks if not w.dropped), entrant, weeks))
    rows.sort(key=lambda r: (-r[0], r[1].name.casefold(), r[1].player))
    ranked: list[Row] = []
    for index, (points, entrant, weeks) in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].points == points else index + 1
        ranked.append(Row(rank, entrant.player, entrant.name, points, weeks))
    return ranked
