"""Turn a proven-optimal matching into tabled pairings with their deviations."""

from __future__ import annotations

from collections.abc import Sequence

from league.pairing.problem import Problem
from league.pairing.tables import assign_tables
from league.pairing.types import Pairing, PairingResult


def build_result(
    problem: Problem,
    pairs: Sequence[tuple[int, int]],
    cost: tuple[int, ...],
    method: str,
    tables: int | None,
) -> PairingResult:
    """Games sorted by table, the bye (if any) last."""
    games = [(u, v) for u, v in pairs if v != problem.n]
    byes = [u for u, v in pairs if v == problem.n]
    ids = [(problem.players[u].id, problem.players[v].id) for u, v in games]
    numbers = assign_tables(ids, problem.players, len(games) if tables is None else tables)
    pairings = sorted(
        (_game(problem, u, v, table) for (u, v), table in zip(games, numbers, strict=True)),
        key=lambda p: p.table or 0,
    )
    pairings.extend(_bye(problem, u) for u in byes)
    rematches = sum(1 for u, v in games if v in problem.opponents[u])
    return PairingResult(tuple(pairings), cost, rematches, method)


def _game(problem: Problem, u: int, v: int, table: int) -> Pairing:
    # Vertices are sorted by rank, so u < v puts the better-ranked player first.
    a, b = problem.players[u], problem.players[v]
    settings = problem.settings
    deviations = []
    if a.score != b.score:
        deviations.append("float")
    if settings.club_weight != "ignore" and a.club and a.club == b.club:
        deviations.append("same_club")
    if settings.faction_weight != "ignore" and a.faction and a.faction == b.faction:
        deviations.append("same_faction")
    if table in a.tables or table in b.tables:
        deviations.append("repeated_table")
    if v in problem.opponents[u]:
        deviations.append("rematch")
    return Pairing(table, (a.id, b.id), tuple(deviations))


def _bye(problem: Problem, u: int) -> Pairing:
    player = problem.players[u]
    if player.had_bye:
        deviations: tuple[str, ...] = ("repeat_bye",)
    elif u != problem.bye_target():
        deviations = ("bye_not_lowest",)
    else:
        deviations = ()
    return Pairing(None, (player.id,), deviations)
