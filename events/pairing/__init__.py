"""Pure pairing engine: Swiss rounds by exact tiered matching, then tables."""

from events.pairing.first_round import pair_first_round
from events.pairing.rounds import pair_round
from events.pairing.tables import assign_tables
from events.pairing.types import (
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
