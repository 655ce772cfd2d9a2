"""How a phase's orders are declared (G11): sealed envelopes for play over weeks, or the seed's
live alternation for club nights (« les joueurs déclarent ensuite leurs mouvements en
alternant »).

Sealed: each side sends its orders without seeing the other's; when the phase's orders are
revealed, both lists are interleaved from the side the initiative winner chose (A1, B1, A2…,
campaigns/engine/orders.interleave) and checked again in that order. Until then a side sees the
enemy's sealed orders nowhere: not on the map (a sealed move's detachment still stands where it
was), not among the attacks it may react to.

Alternating: one order at a time, in turn from the chosen side; a side that has finished says
so and the other goes on alone. A reaction answers an attack at once (« Dès qu'une attaque est
déclarée, le joueur défenseur doit déclarer une réaction »), out of turn."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from campaigns.engine.map import SIDES, enemy
from campaigns.engine.state import CampaignState

SEALED, ALTERNATING = "sealed", "alternating"
DECLARATION_MODES = (SEALED, ALTERNATING)


@dataclass(frozen=True)
class PhaseDeclarations:
    """One phase's declaring: who goes first, who has finished, whether the sealed orders are
    out. ``first`` is None until the phase's initiative is rolled."""

    first: str | None = None
    ready: frozenset[str] = frozenset()
    revealed: bool = False
    deadline: str | None = None  # ISO 8601, set by the organisers; told, not enforced

    def __post_init__(self) -> None:
        object.__setattr__(self, "ready", frozenset(self.ready))
        if self.first is not None and self.first not in SIDES:
            raise ValueError(f"unknown side {self.first!r}")

    @classmethod
    def from_data(cls, data: Mapping[str, object] | None) -> PhaseDeclarations:
        data = data or {}
        first = data.get("first")
        ready = data.get("ready") or ()
        deadline = data.get("deadline")
        return cls(first if isinstance(first, str) and first in SIDES else None,
                   frozenset(s for s in ready if s in SIDES) if isinstance(ready, list) else frozenset(),
                   bool(data.get("revealed")), deadline if isinstance(deadline, str) else None)

    def data(self) -> dict[str, object]:
        return {"first": self.first, "ready": [s for s in SIDES if s in self.ready],
                "revealed": self.revealed, "deadline": self.deadline}


def next_declarer(first: str | None, declared: Mapping[str, int],
                  ready: Iterable[str] = ()) -> str | None:
    """Alternating mode: whose turn it is to declare. ``declared`` counts each side's orders of
    the phase (reactions left out: they answer at once); a side that is ready declares no more.
    None when both are ready (or before the initiative says who starts)."""
    done = frozenset(ready)
    if first is None or done >= frozenset(SIDES):
        return None
    second = enemy(first)
    if first in done:
        return second
    if second in done:
        return first
    return first if declared.get(first, 0) <= declared.get(second, 0) else second


def seen_by(state: CampaignState, viewer: str | None, sealed: Iterable[int]) -> CampaignState:
    """The state as ``viewer`` may know it: the enemy's sealed orders left out, and each
    detachment a sealed move took elsewhere put back where it stood (last move first). Staff
    (``viewer`` None) see everything."""
    hidden = frozenset(sealed)
    if viewer is None or not hidden:
        return state
    foe = enemy(viewer)
    secret = [a for a in state.orders if a.id in hidden and a.order.side == foe]
    if not secret:
        return state
    state = state.moves_undone(secret)
    left_out = {a.id for a in secret}
    return replace(state, orders=tuple(a for a in state.orders if a.id not in left_out))
