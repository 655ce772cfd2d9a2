"""Entry point: pair any round (round 1 by seeded shuffle, later rounds Swiss)."""

from __future__ import annotations

from collections.abc import Sequence

from events.pairing.first_round import pair_first_round
from events.pairing.problem import build_problem
from events.pairing.swiss import solve
from events.pairing.types import PairingResult, PairingSettings, PlayerState


def pair_round(
    players: Sequence[PlayerState], settings: PairingSettings, tables: int | None = None
) -> PairingResult:
    """Pair one round; ``tables`` defaults to one table per game."""
    if settings.round_number == 1:
        return pair_first_round(players, settings, tables)
    return solve(build_problem(players, settings), tables)
