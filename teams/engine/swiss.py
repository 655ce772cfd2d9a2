"""Team Swiss pairing: teams in standings order, top down, never a rematch while one can be
avoided; with an odd number of teams the bye goes to the lowest-ranked team that has not had
one (every team has had one: the lowest-ranked); the next one up when the others could only be
paired with a rematch. A second bye is never given while a team has had none.

Backtracking over a small field (team events rarely pass 64 teams): rematch-free first, then
with one rematch, two…; a budget of tries per level keeps a large field from searching for ever."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TeamState:
    team: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True)
class Pairing:
    matches: tuple[tuple[int, int], ...]  # top tables first
    bye: int | None
    rematches: int


BUDGET = 20_000


def _pair(order: Sequence[TeamState], rematches: int, budget: list[int]) -> list[tuple[int, int]] | None:
    """Top down, each team with the first one below it that keeps the rest pairable, with at
    most ``rematches`` rematches; None when there is no such pairing (or the budget ran out)."""
    if not order:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        cost = other.team in first.opponents
        if cost > rematches:
            continue
        tail = _pair([*rest[:i], *rest[i + 1:]], rematches - cost, budget)
        if tail is not None:
            return [(first.team, other.team), *tail]
    return None


def _bye_candidates(order: Sequence[TeamState]) -> list[TeamState]:
    """Bottom up, the teams without a bye (all of them once every team has had one)."""
    bottom_up = list(reversed(order))
    return [t for t in bottom_up if not t.had_bye] or bottom_up


def pair(order: Sequence[TeamState]) -> Pairing:
    """``order``: the teams in standings order (best first). As few rematches as can be: none,
    else one, two… (past the search budget, whatever the top-down pass gives)."""
    candidates = _bye_candidates(order) if len(order) % 2 else [None]
    for allowed in range(len(order) // 2 + 1):
        budget = [BUDGET]
        for bye in candidates:
            field = [t for t in order if t is not bye]
            matches = _pair(field, allowed, budget)
            if matches is not None:
                return _pairing(order, matches, bye)
    bye = candidates[0]
    return _pairing(order, _pair([t for t in order if t is not bye], len(order), [BUDGET * 10]), bye)


def _pairing(order: Sequence[TeamState], matches: list[tuple[int, int]], bye: TeamState | None) -> Pairing:
    states = {t.team: t for t in order}
    rematches = sum(b in states[a].opponents for a, b in matches)
    return Pairing(tuple(matches), bye.team if bye else None, rematches)
