"""Round 1: a seeded shuffle paired in order, repaired only where clubs must be kept apart."""

from __future__ import annotations

from collections.abc import Sequence

from events.pairing.hashing import item_key, mix64, stable_key
from events.pairing.problem import build_problem
from events.pairing.swiss import solve
from events.pairing.types import PairingResult, PairingSettings, PlayerState


def pair_first_round(
    players: Sequence[PlayerState], settings: PairingSettings, tables: int | None = None
) -> PairingResult:
    """Pair neighbours of a seeded shuffle.

    The shuffle's neighbour pairs get the best tie-break value and every other pair a worse
    one, so with no club/faction conflict the result is exactly the shuffle's pairs. Conflicts
    are repaired by the same exact solve as later rounds (same tiers, same proof), not greedily.
    In strict mode the bye (lowest-ranked player) is set aside before shuffling.
    """
    problem = build_problem(players, settings)
    pool = list(problem.players)
    if problem.has_bye and problem.strict:
        pool.remove(problem.players[problem.bye_target()])
    base = stable_key(settings.seed, "shuffle")
    shuffled = sorted(pool, key=lambda p: (item_key(base, mix64(p.id)), p.id))
    preferred = [(a.id, b.id) for a, b in zip(shuffled[::2], shuffled[1::2], strict=False)]
    return solve(build_problem(players, settings, preferred), tables)
