"""Pure pairing engine: Swiss rounds by exact tiered matching, then tables."""

from league.pairing.first_round import pair_first_round
from league.pairing.rounds import pair_round
from league.pairing.tables import assign_tables
from league.pairing.types import (
    COST_TIERS,
    DEVIATIONS,
    Pairing,
    PairingResult,
    PairingSettings,
    PlayerState,
)

__all__ = [
    "COST_TIERS",
    "DEVIATIONS",
    "Pairing",
    "PairingResult",
    "PairingSettings",
    "PlayerState",
    "assign_tables",
    "pair_first_round",
    "pair_round",
]
