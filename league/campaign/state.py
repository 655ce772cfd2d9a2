"""The campaign state the order checks and the turn close read: who holds what, where each
detachment stands, what is isolated or fortified, the open phase and this turn's orders."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from league.campaign.army import AIR, GROUND, INFILTRATOR, KINDS, Unit
from league.campaign.map import ORTHOGONAL, SIDES, home_control, territory

MOVE, FORTIFY, ATTACK, REACTION = "move", "fortify", "attack", "reaction"
INFILTRATION = "infiltration"
ORDER_KINDS = (INFILTRATION, MOVE, FORTIFY, ATTACK, REACTION)
INFILTRATION_PHASE, MOVES_PHASE, ATTACKS_PHASE = "infiltration", "moves", "attacks"
# Contract: orders are accepted only in the open phase; R18 puts infiltration (step 2) before
# moves (step 3), then attacks and reactions (step 4).
ORDER_PHASE: Mapping[str, str] = {
    INFILTRATION: INFILTRATION_PHASE,
    MOVE: MOVES_PHASE, FORTIFY: MOVES_PHASE, ATTACK: ATTACKS_PHASE, REACTION: ATTACKS_PHASE,
}
SUPREME_COMMANDER_BONUS = "supreme_commander"


@dataclass(frozen=True)
class Detachment:
    """A detachment as the map sees it. ``location`` is None off the map (airborne still in
    orbit, R13) or once destroyed."""

    name: str
    side: str
    points: int
    kind: str = GROUND
    supreme_commander: bool = False
    location: str | None = None
    destroyed: bool = False
    units: tuple[Unit, ...] = ()

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"unknown side {self.side!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        if self.location is not None:
            territory(self.location)
        object.__setattr__(self, "units", tuple(self.units))

    @property
    def infiltrators(self) -> tuple[Unit, ...]:
        """R25: the units that may infiltrate (« unités infiltrateurs »)."""
        return tuple(u for u in self.units if u.has(INFILTRATOR))

    @property
    def on_map(self) -> bool:
        return self.location is not None and not self.destroyed

    @property
    def holds_ground(self) -> bool:
        """Counts as troops in a territory: guards a major (R10), meets the line rule (R9).
        G28: air detachments do neither; a landed airborne detachment acts as ground (R13)."""
        return self.on_map and self.kind != AIR


@dataclass(frozen=True)
class Order:
    """One declared order, as in the contract: ``from_`` may be left out (a fortify order, or a
    detachment's own territory), ``for_attack`` is the id of the attack a reaction answers."""

    side: str
    kind: str
    detachments: tuple[str, ...] = ()
    from_: str | None = None
    to: str | None = None
    for_attack: int | None = None

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"unknown side {self.side!r}")
        if self.kind not in ORDER_KINDS:
            raise ValueError(f"order kind must be one of {ORDER_KINDS}")
        object.__setattr__(self, "detachments", tuple(self.detachments))


@dataclass(frozen=True)
class AcceptedOrder:
    """An order the engine accepted, with the bonus it used (and whose: the Supreme Commander)."""

    id: int
    order: Order
    bonus: str | None = None
    commander: str | None = None


@dataclass(frozen=True)
class CampaignState:
    """One sector at one moment of a turn. ``control`` covers all 18 territories; ``majors``
    holds both sides' majors; ``isolated`` was computed at the previous close (R33);
    ``orders`` are this turn's accepted orders, in the order they were accepted."""

    control: Mapping[str, str] = field(default_factory=home_control)
    majors: frozenset[str] = frozenset()
    detachments: tuple[Detachment, ...] = ()
    strategic_values: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    isolated: frozenset[str] = frozenset()
    fortified: frozenset[str] = frozenset()
    phase: str | None = None
    orders: tuple[AcceptedOrder, ...] = ()
    adjacency: str = ORTHOGONAL

    def __post_init__(self) -> None:
        object.__setattr__(self, "majors", frozenset(self.majors))
        object.__setattr__(self, "isolated", frozenset(self.isolated))
        object.__setattr__(self, "fortified", frozenset(self.fortified))
        object.__setattr__(self, "detachments", tuple(self.detachments))
        object.__setattr__(self, "orders", tuple(self.orders))
        seen = set()
        for det in self.detachments:
            if (det.side, det.name) in seen:
                raise ValueError(f"two {det.side} detachments are called {det.name!r}")
            seen.add((det.side, det.name))

    def detachment(self, side: str, name: str) -> Detachment | None:
        for det in self.detachments:
            if det.side == side and det.name == name:
                return det
        return None

    def at(self, code: str, side: str | None = None) -> tuple[Detachment, ...]:
        """The detachments on the map in ``code`` (of ``side`` when given)."""
        return tuple(d for d in self.detachments
                     if d.on_map and d.location == code and (side is None or d.side == side))

    def accepted(self, side: str | None = None, kinds: Iterable[str] = ORDER_KINDS
                 ) -> tuple[AcceptedOrder, ...]:
        wanted = frozenset(kinds)
        return tuple(a for a in self.orders
                     if a.order.kind in wanted and (side is None or a.order.side == side))

    def committed(self, side: str) -> frozenset[str]:
        """G10: the detachments of ``side`` that already attacked or reacted this turn."""
        return frozenset(name for a in self.accepted(side, (ATTACK, REACTION))
                         for name in a.order.detachments)

    def attacked(self) -> frozenset[str]:
        """The territories under attack so far this turn."""
        return frozenset(a.order.to for a in self.accepted(kinds=(ATTACK,)) if a.order.to)

    def moved(self, side: str, name: str, to: str | None, *, destroyed: bool = False
              ) -> CampaignState:
        dets = tuple(replace(d, location=to, destroyed=destroyed or d.destroyed)
                     if d.side == side and d.name == name else d for d in self.detachments)
        return replace(self, detachments=dets)
