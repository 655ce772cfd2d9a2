"""Value types shared by the pairing engine: player state, settings and results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Weight = Literal["ignore", "avoid", "avoid_strongly"]
ByePriority = Literal["strict", "soft"]

# Names of the entries of ``PairingResult.cost``, most important first; lower is better.
COST_TIERS: tuple[str, ...] = (
    "rematches",  # pairs of players who already met (0 unless no other pairing exists)
    "repeat_byes",  # 1 when the bye goes to a player who already had one
    "bye_position_strict",  # eligible players ranked below the bye receiver (strict mode)
    "score_gap",  # sum over pairs of (score_a - score_b) ** 2
    "avoid_strongly",  # same-club/same-faction pairs whose weight is "avoid_strongly"
    "avoid",  # same-club/same-faction pairs whose weight is "avoid"
    "bye_position_soft",  # as bye_position_strict, when the bye ranks below the weights (soft mode)
)

DEVIATIONS: tuple[str, ...] = (
    "float",
    "same_club",
    "same_faction",
    "repeated_table",
    "rematch",
    "repeat_bye",
    "bye_not_lowest",
)


@dataclass(frozen=True)
class PlayerState:
    """What the engine needs to know about one player before a round."""

    id: int
    score: int  # tournament points so far
    rank: int  # 0 = best, from the standings; unique
    club: str = ""  # "" = no club, never counts as "same club"
    faction: str = ""  # "" = unknown, never counts as "same faction"
    opponents: frozenset[int] = frozenset()
    tables: frozenset[int] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True, kw_only=True)
class PairingSettings:
    """Organiser settings for one round.

    ``bye_priority`` (an ambiguity in the brief, see the report):
    - "strict" (default): the bye goes to the lowest-ranked player without a bye whenever the
      others can still be paired without a rematch; this ranks above the score gap.
    - "soft": the bye position ranks below the score gap and the club/faction weights, as the
      bye were an opponent holding the lowest score in the field.
    """

    round_number: int
    club_weight: Weight = "avoid"
    faction_weight: Weight = "ignore"
    seed: int = 0
    bye_priority: ByePriority = "strict"


@dataclass(frozen=True)
class Pairing:
    """One game of the round, or a bye (one player, ``table`` None)."""

    table: int | None
    players: tuple[int, int] | tuple[int]  # better-ranked player first
    deviations: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairingResult:
    """A round's pairings with the value of the tiered objective (see ``COST_TIERS``)."""

    pairings: tuple[Pairing, ...]
    cost: tuple[int, ...]
    rematches: int
    # Diagnostics: the solver step that proved the optimum, "bracket" (fast path), "sparse",
    # "floats", "sparse_wide", "adjacent", "slack", "full" or "complete" (rematches allowed);
    # see pairing.swiss.
    method: str = ""
