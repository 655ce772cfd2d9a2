"""The campaign state the order checks and the turn close read: who holds what, where each
detachment stands, what is isolated or fortified, the open phase and this turn's orders."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from campaigns.engine.army import AIR, AIRBORNE, GROUND, INFILTRATOR, KINDS, VEHICLE, Unit
from campaigns.engine.map import ORTHOGONAL, SIDES, home_control, territory

MOVE, FORTIFY, ATTACK, REACTION = "move", "fortify", "attack", "reaction"
INFILTRATION = "infiltration"
AIR_MISSION = "air_mission"  # R19–R24: one mission per air detachment, declared in the air phase
VEHICLES = "vehicles"  # R13: the move action that brings a landed detachment's vehicles down
ORDER_KINDS = (AIR_MISSION, INFILTRATION, MOVE, FORTIFY, VEHICLES, ATTACK, REACTION)
AIR_PHASE = "air"
INFILTRATION_PHASE, MOVES_PHASE, ATTACKS_PHASE = "infiltration", "moves", "attacks"
# Contract: orders are accepted only in the open phase; R18 puts the air missions (step 1) and
# infiltration (step 2) before moves (step 3), then attacks and reactions (step 4).
ORDER_PHASE: Mapping[str, str] = {
    AIR_MISSION: AIR_PHASE, INFILTRATION: INFILTRATION_PHASE,
    MOVE: MOVES_PHASE, FORTIFY: MOVES_PHASE, VEHICLES: MOVES_PHASE,
    ATTACK: ATTACKS_PHASE, REACTION: ATTACKS_PHASE,
}
# Each order phase and the kinds of order it takes.
PHASE_KINDS: Mapping[str, tuple[str, ...]] = {
    phase: tuple(kind for kind in ORDER_KINDS if ORDER_PHASE[kind] == phase)
    for phase in dict.fromkeys(ORDER_PHASE.values())}
# R20–R24: the four air missions.
INFILTRATION_MISSION, INTERCEPTION, TRANSPORT, ESCORT = (
    "infiltration", "interception", "transport", "escort")
MISSIONS = (INFILTRATION_MISSION, INTERCEPTION, TRANSPORT, ESCORT)
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
    # R13: the vehicles of a landed airborne detachment stay in orbit until it spends one move
    # action in a later turn.
    vehicles_in_orbit: bool = False

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
    def in_orbit(self) -> bool:
        """R13: an airborne detachment not landed yet (or back in orbit after a failed landing
        attack)."""
        return self.kind == AIRBORNE and self.location is None and not self.destroyed

    @property
    def force_points(self) -> int:
        """The points it brings to a battle: without its vehicles while they are in orbit (R13)."""
        if not self.vehicles_in_orbit:
            return self.points
        return max(self.points - sum(u.points or 0 for u in self.units if u.has(VEHICLE)), 0)

    @property
    def has_vehicles(self) -> bool:
        return any(u.has(VEHICLE) for u in self.units)

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
    # Air missions (R19–R24): the mission, the codes flown over from the base to the target
    # (target last) and back, the own mission an escort is linked to.
    mission: str | None = None
    route: tuple[str, ...] = ()
    return_route: tuple[str, ...] = ()
    escort_of: int | None = None

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"unknown side {self.side!r}")
        if self.kind not in ORDER_KINDS:
            raise ValueError(f"order kind must be one of {ORDER_KINDS}")
        object.__setattr__(self, "detachments", tuple(self.detachments))
        object.__setattr__(self, "route", tuple(self.route))
        object.__setattr__(self, "return_route", tuple(self.return_route))


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

    def missions(self, side: str | None = None, mission: str | None = None
                 ) -> tuple[AcceptedOrder, ...]:
        """This turn's accepted air missions (of ``side``, of one ``mission`` when given)."""
        return tuple(a for a in self.accepted(side, (AIR_MISSION,))
                     if mission is None or a.order.mission == mission)

    def landings(self, side: str | None = None) -> tuple[AcceptedOrder, ...]:
        """This turn's landings (R13): moves, attacks and reactions declared from orbit (an
        accepted order's ``from_`` is filled in for every detachment on the map)."""
        return tuple(a for a in self.accepted(side, (MOVE, ATTACK, REACTION))
                     if a.order.from_ is None)

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

    def moved_all(self, side: str, names: Iterable[str], to: str | None) -> CampaignState:
        """Every detachment of a move order (one, or an air transport and what it carries, R23)."""
        wanted = frozenset(names)
        dets = tuple(replace(d, location=to) if d.side == side and d.name in wanted else d
                     for d in self.detachments)
        return replace(self, detachments=dets)

    def moves_undone(self, moves: Iterable[AcceptedOrder]) -> CampaignState:
        """The detachments put back where they stood before ``moves`` (undone last first):
        moves are applied as they are accepted (campaigns/engine/orders.apply_order)."""
        state = self
        for accepted in reversed([a for a in moves if a.order.kind == MOVE]):
            order = accepted.order
            state = state.moved_all(order.side, order.detachments, order.from_)
        return state
