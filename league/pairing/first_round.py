"""Round 1: a seeded shuffle paired in order, repaired only where clubs must be kept apart."""

from __future__ import annotations

from collections.abc import Sequence

from league.pairing.hashing import item_key, mix64, stable_key
from league.pairing.problem import build_problem
from league.pairing.swiss import solve
from league.pairing.types import PairingResult, PairingSettings, PlayerState


def pair_first_round(
    players: Sequence[PlayerState], settings: PairingSettings, tables: int | None = None
) -> PairingResult:
    """Pair neighbours of a seeded shuffle.

    The shuffle's neighbour pairs get the best tie-break value, so they stand whenever the
    higher tiers (bye rule, club/faction weights) allow; the rest is the same exact solve as
    later rounds, so any conflict is repaired optimally rather than greedily.
    """
    problem = build_problem(players, settings)
    pool = list(problem.players)
    if problem.has_bye and problem.strict:
        pool.remove(problem.players[problem.bye_target()])
    base = stable_key(settings.seed, "shuffle")
    shuffled = sorted(pool, key=lambda p: (item_key(base, mix64(p.id)), p.id))
    preferred = [(a.id, b.id) for a, b in zip(shuffled[::2], shuffled[1::2], strict=False)]
    return solve(build_problem(players, settings, preferred), tables)
