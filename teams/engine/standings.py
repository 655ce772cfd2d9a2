"""Team standings: match points, then game points, then the head-to-head result.

Head-to-head: among the teams still level on match and game points, the match points each won in
the matches they played against each other. Teams level on all three share a rank (listed by id)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True)
class Played:
    """A finished team match (``second`` None: a bye); figures are what standings count."""

    first: int
    second: int | None
    game_points: tuple[int, int]
    match_points: tuple[int, int]


@dataclass(frozen=True)
class Line:
    rank: int
    team: int
    match_points: int
    game_points: int
    played: int
    byes: int
    opponents: tuple[int, ...]


def _head_to_head(group: Sequence[int], matches: Iterable[Played]) -> dict[int, int]:
    members = set(group)
    score = dict.fromkeys(group, 0)
    for m in matches:
        if m.second is not None and m.first in members and m.second in members:
            score[m.first] += m.match_points[0]
            score[m.second] += m.match_points[1]
    return score


def standings(teams: Iterable[int], matches: Sequence[Played]) -> list[Line]:
    mp: dict[int, int] = {}
    gp: dict[int, int] = {}
    played: dict[int, int] = {}
    byes: dict[int, int] = {}
    opponents: dict[int, list[int]] = {}
    for team in teams:
        mp[team] = gp[team] = played[team] = byes[team] = 0
        opponents[team] = []
    for m in matches:
        sides = [(m.first, m.second, 0)] + ([(m.second, m.first, 1)] if m.second is not None else [])
        for team, other, i in sides:
            mp[team] += m.match_points[i]
            gp[team] += m.game_points[i]
            if other is None:
                byes[team] += 1
            else:
                played[team] += 1
                opponents[team].append(other)

    def level(team: int) -> tuple[int, int]:
        return (-mp[team], -gp[team])

    lines: list[Line] = []
    for _, group in groupby(sorted(mp, key=lambda t: (level(t), t)), key=level):
        group = list(group)
        h2h = _head_to_head(group, matches)
        ordered = sorted(group, key=lambda t: (-h2h[t], t))
        rank = len(lines) + 1
        for position, team in enumerate(ordered):
            if position and h2h[team] != h2h[ordered[position - 1]]:
                rank = len(lines) + 1
            lines.append(Line(rank, team, mp[team], gp[team], played[team], byes[team],
                              tuple(opponents[team])))
    return lines
