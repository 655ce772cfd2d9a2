"""Turn a proven-optimal matching into tabled pairings with their deviations."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from events.pairing.problem import Problem
from events.pairing.tables import assign_tables
from events.pairing.types import Pairing, PairingResult
from events.pairing.vectors import rematches


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
    players = problem.players
    ids = [(players[u].id, players[v].id) for u, v in games]
    numbers = assign_tables(ids, players, len(games) if tables is None else tables)
    flags = _flags(problem, games)
    pairings = sorted(
        (
            _game(problem, u, v, table, game_flags)
            for (u, v), table, game_flags in zip(games, numbers, flags, strict=True)
        ),
        key=lambda p: p.table or 0,
    )
    pairings.extend(_bye(problem, u) for u in byes)
    rematch_count = sum(1 for game_flags in flags if "rematch" in game_flags)
    return PairingResult(tuple(pairings), cost, rematch_count, method)


def _flags(problem: Problem, games: list[tuple[int, int]]) -> list[tuple[str, ...]]:
    """Per game, its deviations other than ``repeated_table``, in ``DEVIATIONS`` order."""
    if not games:
        return []
    us, vs = np.asarray(games, dtype=np.int64).T
    arrays, settings = problem.arrays, problem.settings
    players = problem.players
    if arrays.exact:
        floats = arrays.score[us] != arrays.score[vs]
    else:
        floats = np.fromiter((players[u].score != players[v].score for u, v in games), dtype=bool)
    columns = [("float", floats)]
    for name, weight, codes in (
        ("same_club", settings.club_weight, arrays.club),
        ("same_faction", settings.faction_weight, arrays.faction),
    ):
        if weight != "ignore":
            columns.append((name, (codes[us] == codes[vs]) & (codes[us] != 0)))
    columns.append(("rematch", rematches(problem, us, vs)))
    names = [name for name, _ in columns]
    rows = zip(*(values.tolist() for _, values in columns), strict=True)
    return [tuple(name for name, on in zip(names, row, strict=True) if on) for row in rows]


def _game(problem: Problem, u: int, v: int, table: int, flags: tuple[str, ...]) -> Pairing:
    # Vertices are sorted by rank, so u < v puts the better-ranked player first.
    a, b = problem.players[u], problem.players[v]
    if table in a.tables or table in b.tables:
        # ``repeated_table`` goes before ``rematch``, the only flag that may follow it.
        cut = len(flags) - (1 if flags and flags[-1] == "rematch" else 0)
        flags = (*flags[:cut], "repeated_table", *flags[cut:])
    return Pairing(table, (a.id, b.id), flags)


def _bye(problem: Problem, u: int) -> Pairing:
    player = problem.players[u]
    if player.had_bye:
        deviations: tuple[str, ...] = ("repeat_bye",)
    elif u != problem.bye_target():
        deviations = ("bye_not_lowest",)
    else:
        deviations = ()
    return Pairing(None, (player.id,), deviations)
