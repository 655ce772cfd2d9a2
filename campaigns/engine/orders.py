"""Checking and applying one order (infiltration, moves, fortification, attacks, reactions:
R9–R10, R16, R23, R25–R29, R34 with G4, G6–G10, G28). A move names one detachment, or an air
detachment on a transport mission and the detachments of its base it carries (R23).

``check_order`` answers accepted (with the bonus used) or one refusal code with its params, the
first rule the order breaks in a fixed order: phase, territories, detachments, then the rules of
the order's kind, allowances last. ``apply_order`` checks and returns the next state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from campaigns.engine import air_missions
from campaigns.engine.army import AIR, AIRBORNE
from campaigns.engine.map import (
    UnknownTerritory,
    adjacent,
    enemy,
    home_side,
    line_codes,
    line_of,
    same_line,
    territory,
)
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    FORTIFY,
    INFILTRATION,
    MOVE,
    ORDER_PHASE,
    REACTION,
    SUPREME_COMMANDER_BONUS,
    VEHICLES,
    AcceptedOrder,
    CampaignState,
    Detachment,
    Order,
)
from campaigns.engine.tools import initiative_value

ALLOWANCE_CODES: Mapping[str, str] = {
    MOVE: "move_allowance_exceeded", ATTACK: "attack_allowance_exceeded",
    REACTION: "reaction_allowance_exceeded",
}


@dataclass(frozen=True)
class Refusal:
    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """Accepted (``refusal`` None, ``bonus`` "supreme_commander" or None) or refused."""

    refusal: Refusal | None = None
    bonus: str | None = None
    commander: str | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None


class OrderRefused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code}: {dict(refusal.params)}")
        self.refusal = refusal


class _Refuse(Exception):
    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.refusal = Refusal(code, params)


@dataclass(frozen=True)
class Allowance:
    """One kind of action for one side this turn: the initiative value, the regular actions
    used, and the Supreme Commanders whose extra action is still unused."""

    limit: int
    used: int
    commanders_left: tuple[str, ...] = ()

    @property
    def left(self) -> int:
        return max(self.limit - self.used, 0)


def allowances(state: CampaignState, side: str) -> Mapping[str, Allowance]:
    """R16 + G6: moves, attacks and reactions each up to the initiative value; R27: a fortify
    order uses a move; R26/R28: one extra move and one hasty attack per Supreme Commander."""
    limit = initiative_value(state.strategic_values[side])
    out = {}
    for kind, counted in ((MOVE, (MOVE, FORTIFY, VEHICLES)), (ATTACK, (ATTACK,)),
                          (REACTION, (REACTION,))):
        used = sum(1 for a in state.accepted(side, counted) if a.bonus is None)
        spent = {a.commander for a in state.accepted(side, (kind,)) if a.commander}
        left = tuple(d.name for d in _commanders(state, side) if d.name not in spent)
        out[kind] = Allowance(limit, used, left if kind != REACTION else ())
    return out


def _commanders(state: CampaignState, side: str) -> tuple[Detachment, ...]:
    return tuple(sorted((d for d in state.detachments
                         if d.side == side and d.supreme_commander and d.on_map),
                        key=lambda d: d.name))


def _allowance(state: CampaignState, side: str, kind: str, col: int | None,
               bonus_allowed: bool) -> tuple[str | None, str | None]:
    """The bonus (and its Supreme Commander) this order needs, or a refusal.

    The regular allowance is spent first: the Supreme Commander's action is « supplémentaire ».
    It serves only a detachment in the commander's own line of resistance (R26 « par un
    détachement se trouvant sur cette ligne »; the hasty attack is read the same way).
    """
    allowance = allowances(state, side)[kind]
    if allowance.left > 0:
        return None, None
    if bonus_allowed and col is not None:
        for name in allowance.commanders_left:
            commander = state.detachment(side, name)
            if commander is not None and territory(commander.location).col == col:
                return SUPREME_COMMANDER_BONUS, name
    raise _Refuse(ALLOWANCE_CODES[kind], limit=allowance.limit)


def check_order(state: CampaignState, order: Order) -> Verdict:
    try:
        bonus, commander = _check(state, order)
    except _Refuse as refused:
        return Verdict(refused.refusal)
    return Verdict(None, bonus, commander)


def _check(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    if state.phase != ORDER_PHASE[order.kind]:
        raise _Refuse("phase_closed", phase=state.phase or "")
    for code in (order.from_, order.to):
        if code is not None:
            try:
                territory(code)
            except UnknownTerritory:
                raise _Refuse("territory_unknown", territory=str(code)) from None
    if order.kind == AIR_MISSION:
        try:
            air_missions.mission_order(state, order)
        except air_missions.AirRefused as refused:
            raise _Refuse(refused.code, **refused.params) from None
        return None, None  # R19–R24: a mission uses no move, attack or reaction
    if order.kind == VEHICLES:
        return _vehicles(state, order)
    if order.kind == INFILTRATION:
        return _infiltration(state, order)
    if order.kind == FORTIFY:
        return _fortify(state, order)
    if order.kind == MOVE:
        return _move(state, order)
    if order.kind == ATTACK:
        return _attack(state, order)
    return _reaction(state, order)


def _listed(state: CampaignState, order: Order) -> list[Detachment]:
    """The order's detachments, each named once and standing on the map."""
    if len(set(order.detachments)) != len(order.detachments):
        raise _Refuse("detachment_listed_twice")
    dets = []
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is None:
            raise _Refuse("detachment_unknown", detachment=name)
        if not det.on_map:
            raise _Refuse("detachment_not_on_map", detachment=name)
        dets.append(det)
    return dets


def _own(state: CampaignState, order: Order) -> tuple[tuple[Detachment, ...], str]:
    """The ordered detachments and the territory they act from (all in one territory)."""
    if not order.detachments:
        raise _Refuse("detachments_required")
    dets = _listed(state, order)
    for det in dets:
        if det.kind == AIR:
            # R19–R24: air detachments act through air missions, declared in the air phase.
            raise _Refuse("air_mission_required", detachment=det.name)
    origin = order.from_ if order.from_ is not None else dets[0].location
    for det in dets:
        if det.location != origin:
            raise _Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    return tuple(dets), origin


def _single(order: Order) -> None:
    # R26 « Chaque mouvement peut affecter un détachement »; R29 « Chaque réaction affecte un
    # détachement ».
    if len(order.detachments) != 1:
        raise _Refuse("single_detachment_required", kind=order.kind)


def _target(order: Order) -> str:
    if order.to is None:
        raise _Refuse("territory_required")
    return order.to


def _check_major_guard(state: CampaignState, side: str, code: str, leaving: set[str]) -> None:
    """R10 « Chaque territoire majeur doit toujours avoir un détachement pour le protéger »: a
    side's own major that it holds keeps one ground detachment (G28) that is neither leaving nor
    already committed to a battle elsewhere."""
    if code not in state.majors or home_side(code) != side or state.control[code] != side:
        return
    committed = state.committed(side)
    if not any(d.holds_ground and d.name not in leaving and d.name not in committed
               for d in state.at(code, side)):
        raise _Refuse("major_unguarded", territory=code)


def _in_orbit(state: CampaignState, order: Order) -> bool:
    """R13: the order lands airborne detachments still in orbit (all of them, or refused)."""
    if not air_missions.is_landing(state, order):
        return False
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is None:
            raise _Refuse("detachment_unknown", detachment=name)
        if not det.in_orbit:
            raise _Refuse("landing_mixed", detachment=name)
    if len(set(order.detachments)) != len(order.detachments):
        raise _Refuse("detachment_listed_twice")
    if order.from_ is not None:
        raise _Refuse("detachment_not_in_territory", detachment=order.detachments[0],
                      territory=order.from_)
    return True


def _land_move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13: an airborne detachment lands in the moves phase in any friendly territory, using one
    move (no adjacency: it comes from orbit)."""
    to = _target(order)
    if state.control[to] != order.side:  # G9: an enemy territory is entered by an attack
        raise _Refuse("move_into_enemy", territory=to)
    return _allowance(state, order.side, MOVE, None, bonus_allowed=False)


def _vehicles(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13: « Le détachement doit dépenser une action de mouvement au tour suivant le
    débarquement » for its vehicles to join it: one move, in a turn after the landing."""
    _single(order)
    (det,), origin = _own(state, order)
    if not det.vehicles_in_orbit:
        raise _Refuse("no_vehicles_in_orbit", detachment=det.name)
    if any(det.name in a.order.detachments for a in state.landings(order.side)):
        raise _Refuse("vehicles_next_turn", detachment=det.name)
    if origin in state.isolated:  # R34: no move actions for isolated detachments
        raise _Refuse("detachment_isolated", detachment=det.name, territory=origin)
    return _allowance(state, order.side, MOVE, territory(origin).col, bonus_allowed=True)


def _move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    if _flies_transport(state, order):
        return _transport_move(state, order)
    _single(order)
    if _in_orbit(state, order):
        return _land_move(state, order)
    (det,), origin = _own(state, order)
    to = _target(order)
    if origin in state.isolated:  # R34: « ne peuvent plus être utilisés dans les phases de mouvement »
        raise _Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if not adjacent(origin, to, state.adjacency):  # R26 « vers un territoire adjacent », G4
        raise _Refuse("not_adjacent", **{"from": origin, "to": to})
    if state.control[to] != order.side:  # G9: entering enemy territory is an attack
        raise _Refuse("move_into_enemy", territory=to)
    _check_major_guard(state, order.side, origin, {det.name})
    return _allowance(state, order.side, MOVE, territory(origin).col, bonus_allowed=True)


def _transport_used(state: CampaignState, side: str, name: str) -> bool:
    """The air detachment already carried troops this turn (one move per transport)."""
    return any(name in a.order.detachments for a in state.accepted(side, (MOVE,)))


def _transport_move(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R23 « peuvent transporter des troupes amies »: in the moves phase, an air detachment on
    a transport mission carries ground (or landed airborne) detachments of its base to the
    mission's target when it is friendly, whatever the distance; they all land there.

    [Gap] The seed does not say what such a transport costs. Read as R28 counts one attack per
    transport: the whole transport (the air detachment and what it carries) uses ONE move, not
    one per detachment; the Supreme Commander's extra move is for « un détachement se trouvant
    sur cette ligne » (R26) and does not apply. One air detachment carries at least one
    detachment and only once a turn (its one mission); it does not change base alone (G28 says
    where air detachments are based, not how they move). R10 still holds for the base (the
    carried detachments leave it); G9 still refuses an enemy target (that is an attack, R28).
    R34: out of an isolated territory only airborne detachments may be carried (« les unités
    aéroportées qui sont isolées peuvent déclarer un mouvement s'il les mène jusqu'à un
    territoire allié »)."""
    dets = _listed(state, order)
    fliers = [d for d in dets if d.kind == AIR]
    carrier = fliers[0]
    if len(fliers) > 1:
        raise _Refuse("transport_single_carrier", detachment=fliers[1].name)
    mission = air_missions.transport_of(state, order.side, carrier.name)
    if mission is None:
        raise _Refuse("air_mission_required", detachment=carrier.name)
    if _transport_used(state, order.side, carrier.name):
        raise _Refuse("transport_already_used", detachment=carrier.name)
    to = _target(order)
    if mission.order.to != to:
        raise _Refuse("transport_target_mismatch", detachment=carrier.name, territory=to,
                      expected=mission.order.to)
    origin = order.from_ if order.from_ is not None else carrier.location
    for det in dets:
        if det.location != origin:
            raise _Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    carried = [d for d in dets if d is not carrier]
    if not carried:
        raise _Refuse("transport_troops_required", detachment=carrier.name)
    if state.control[to] != order.side:  # G9: entering enemy territory is an attack
        raise _Refuse("move_into_enemy", territory=to)
    if origin in state.isolated:
        for det in carried:
            if det.kind != AIRBORNE:  # R34: the exception is for airborne units only
                raise _Refuse("detachment_isolated", detachment=det.name, territory=origin)
    _check_major_guard(state, order.side, origin, {d.name for d in carried})
    return _allowance(state, order.side, MOVE, None, bonus_allowed=False)


def _infiltration(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R25: a ground detachment with at least one infiltrator unit, from a territory adjacent
    to the enemy territory it infiltrates; R20 read for ground detachments too: one infiltration
    per detachment per turn. It uses no move, attack or reaction and commits nobody (G10)."""
    _single(order)
    (det,), origin = _own(state, order)
    to = _target(order)
    if origin in state.isolated:  # as for moves: R34 leaves isolated detachments only one attack
        raise _Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if not det.infiltrators:
        raise _Refuse("not_infiltrator", detachment=det.name)
    if state.control[to] == order.side:
        raise _Refuse("target_friendly", territory=to)
    if not adjacent(origin, to, state.adjacency):  # R25 « à partir d'un territoire adjacent »
        raise _Refuse("infiltration_not_adjacent", **{"from": origin, "to": to})
    if any(det.name in a.order.detachments for a in state.accepted(order.side, (INFILTRATION,))):
        raise _Refuse("mission_already_used", detachment=det.name)
    return None, None


def _fortify(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R27: « Ceci utilise un mouvement par territoire »; the territory is fortified at the close
    if still held. The Supreme Commander's extra move is for a detachment, so not for this."""
    to = _target(order)
    if state.control[to] != order.side:
        raise _Refuse("territory_not_controlled", territory=to)
    requested = {a.order.to for a in state.accepted(order.side, (FORTIFY,))}
    if to in state.fortified or to in requested:
        raise _Refuse("already_fortified", territory=to)
    return _allowance(state, order.side, MOVE, None, bonus_allowed=False)


def _line_requirement(state: CampaignState, side: str, to: str) -> None:
    """R9: attacking the defender's line 2 needs troops in one of its line-1 territories, line 3
    needs troops in its line 1 and in its line 2. G8: only inside the defender's home sector
    (re-taking one's own territory needs adjacency only). G28: air detachments do not count."""
    defender = home_side(to)
    if defender == side:
        return
    for line in range(1, line_of(to)):
        codes = set(line_codes(defender, line))
        if not any(d.side == side and d.holds_ground and d.location in codes
                   for d in state.detachments):
            raise _Refuse("line_requirement", territory=to, line=line)


def _uncommitted(state: CampaignState, side: str, names) -> None:
    committed = state.committed(side)
    for name in names:  # G10: a detachment attacks or reacts at most once per turn
        if name in committed:
            raise _Refuse("detachment_already_committed", detachment=name)


def _land_attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R13/R28: airborne detachments may land by attacking any enemy territory, one attack, no
    adjacency or line rule; they fight from reserves (R30)."""
    to = _target(order)
    _uncommitted(state, order.side, order.detachments)
    if state.control[to] == order.side:
        raise _Refuse("target_friendly", territory=to)
    return _allowance(state, order.side, ATTACK, None, bonus_allowed=False)


def _transport_attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R28: an air detachment on a transport/ground-attack mission « peut attaquer n'importe
    quel territoire » (its mission's target) using one attack, carrying friendly troops of its
    base (R23); no adjacency or line rule."""
    dets = _listed(state, order)
    to = _target(order)
    for det in dets:
        if det.kind == AIR:
            mission = air_missions.transport_of(state, order.side, det.name)
            if mission is None:
                raise _Refuse("air_mission_required", detachment=det.name)
            if _transport_used(state, order.side, det.name):
                raise _Refuse("transport_already_used", detachment=det.name)
            if mission.order.to != to:
                raise _Refuse("transport_target_mismatch", detachment=det.name, territory=to,
                              expected=mission.order.to)
    origin = order.from_ if order.from_ is not None else next(
        d.location for d in dets if d.kind == AIR)
    for det in dets:
        if det.location != origin:
            raise _Refuse("detachment_not_in_territory", detachment=det.name, territory=origin)
    _uncommitted(state, order.side, order.detachments)
    if state.control[to] == order.side:
        raise _Refuse("target_friendly", territory=to)
    _check_major_guard(state, order.side, origin, {d.name for d in dets})
    return _allowance(state, order.side, ATTACK, None, bonus_allowed=False)


def _flies_transport(state: CampaignState, order: Order) -> bool:
    for name in order.detachments:
        det = state.detachment(order.side, name)
        if det is not None and det.kind == AIR and det.on_map:
            return True
    return False


def _attack(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R28: all or some detachments of one territory attack one adjacent enemy territory."""
    if _in_orbit(state, order):
        return _land_attack(state, order)
    if _flies_transport(state, order):
        return _transport_attack(state, order)
    dets, origin = _own(state, order)
    to = _target(order)
    committed = state.committed(order.side)
    for det in dets:  # G10: a detachment attacks or reacts at most once per turn
        if det.name in committed:
            raise _Refuse("detachment_already_committed", detachment=det.name)
    if state.control[to] == order.side:
        raise _Refuse("target_friendly", territory=to)
    if not adjacent(origin, to, state.adjacency):
        raise _Refuse("not_adjacent", **{"from": origin, "to": to})
    _line_requirement(state, order.side, to)
    _check_major_guard(state, order.side, origin, {d.name for d in dets})
    earlier = any(a.order.from_ == origin for a in state.accepted(order.side, (ATTACK,)))
    if earlier and origin in state.isolated:
        # R34: « peuvent seulement déclarer une attaque pour chaque territoire isolé ».
        raise _Refuse("isolated_attack_limit", territory=origin)
    if earlier:
        # G7: attacks from one territory against several need the missing multiple-attack rules.
        raise _Refuse("multiple_attacks_unsupported", territory=origin)
    # R28: the hasty attack of a Supreme Commander is made « en utilisant un seul détachement ».
    return _allowance(state, order.side, ATTACK, territory(origin).col,
                      bonus_allowed=len(dets) == 1)


def _reaction(state: CampaignState, order: Order) -> tuple[str | None, str | None]:
    """R29: one detachment from a territory not under attack, adjacent to the attacked one or
    in the same line of resistance, joins the defence."""
    _single(order)
    attack = next((a for a in state.accepted(enemy(order.side), (ATTACK,))
                   if a.id == order.for_attack), None)
    if attack is None:
        raise _Refuse("reaction_attack_unknown", for_attack=order.for_attack)
    target = attack.order.to
    if order.to is not None and order.to != target:
        raise _Refuse("reaction_target_mismatch", territory=order.to, attacked=target)
    if _in_orbit(state, order) or _transport_reaction(state, order):
        # R13: an airborne detachment may land by reacting to any attack; R29: an air
        # detachment on a transport mission « peut réagir à une attaque sur n'importe quel
        # territoire ». One reaction each, no adjacency or line rule.
        _uncommitted(state, order.side, order.detachments)
        return _allowance(state, order.side, REACTION, None, bonus_allowed=False)
    (det,), origin = _own(state, order)
    if origin in state.isolated:  # R34: « … dans les phases de mouvement et de réaction »
        raise _Refuse("detachment_isolated", detachment=det.name, territory=origin)
    if det.name in state.committed(order.side):  # G10
        raise _Refuse("detachment_already_committed", detachment=det.name)
    if origin in state.attacked():  # G10: « non attaqué » when the reaction is declared
        raise _Refuse("reaction_source_under_attack", territory=origin)
    if not (adjacent(origin, target, state.adjacency) or same_line(origin, target)):
        raise _Refuse("reaction_source_not_adjacent", **{"from": origin, "to": target})
    _check_major_guard(state, order.side, origin, {det.name})
    return _allowance(state, order.side, REACTION, None, bonus_allowed=False)


def _transport_reaction(state: CampaignState, order: Order) -> bool:
    det = state.detachment(order.side, order.detachments[0])
    if det is None or det.kind != AIR or not det.on_map:
        return False
    if air_missions.transport_of(state, order.side, det.name) is None:
        raise _Refuse("air_mission_required", detachment=det.name)
    if _transport_used(state, order.side, det.name):  # its one mission carried troops (R23)
        raise _Refuse("transport_already_used", detachment=det.name)
    return True


def next_order_id(state: CampaignState) -> int:
    return max((a.id for a in state.orders), default=0) + 1


def apply_order(state: CampaignState, order: Order, order_id: int | None = None
                ) -> tuple[CampaignState, AcceptedOrder]:
    """Check ``order`` and return the state with it accepted (a move moves its detachment at
    once: later orders see it in its new territory). Raises OrderRefused."""
    verdict = check_order(state, order)
    if verdict.refusal is not None:
        raise OrderRefused(verdict.refusal)
    normalised = order
    landing = air_missions.is_landing(state, order)
    if order.kind == AIR_MISSION:
        normalised = air_missions.mission_order(state, order)
    elif order.kind != FORTIFY and order.from_ is None and not landing:
        first = state.detachment(order.side, order.detachments[0])
        normalised = replace(order, from_=first.location if first else None)
    if order.kind == REACTION and order.to is None:
        attack = next(a for a in state.orders if a.id == order.for_attack)
        normalised = replace(normalised, to=attack.order.to)
    accepted = AcceptedOrder(order_id if order_id is not None else next_order_id(state),
                             normalised, verdict.bonus, verdict.commander)
    next_state = replace(state, orders=(*state.orders, accepted))
    if order.kind == MOVE:  # an air transport moves with what it carries (R23)
        next_state = next_state.moved_all(order.side, order.detachments, order.to)
    if landing:
        next_state = _landed(next_state, normalised)
    if order.kind == VEHICLES:
        next_state = _with_vehicles(next_state, order.side, order.detachments, False)
    return next_state, accepted


def _with_vehicles(state: CampaignState, side: str, names, in_orbit: bool) -> CampaignState:
    dets = tuple(replace(d, vehicles_in_orbit=in_orbit and d.has_vehicles)
                 if d.side == side and d.name in names else d for d in state.detachments)
    return replace(state, detachments=dets)


def _landed(state: CampaignState, order: Order) -> CampaignState:
    """R13: landed by a move, the detachment stands in its territory at once. Landing by an
    attack or a reaction it fights the battle from reserves (R30) and comes down in the
    territory if its side wins and it stays (R23 « il peut atterrir sur le territoire
    nouvellement conquis »; R32), or where it retreats; otherwise it goes back to orbit. Its
    vehicles stay in orbit until it spends a move action in a later turn."""
    return _with_vehicles(state, order.side, order.detachments, True)


def interleave(first: str, orders: Mapping[str, Sequence[Order]]) -> tuple[Order, ...]:
    """Sealed declarations (G11) in the seed's alternation: the side the phase-initiative winner
    chose goes first, then one order each (A1, B1, A2, B2…); the longer list ends alone."""
    second = enemy(first)
    mine, theirs = list(orders.get(first, ())), list(orders.get(second, ()))
    out: list[Order] = []
    for index in range(max(len(mine), len(theirs))):
        out += mine[index:index + 1] + theirs[index:index + 1]
    return tuple(out)


def apply_sealed(state: CampaignState, first: str, orders: Mapping[str, Sequence[Order]]
                 ) -> tuple[CampaignState, tuple[tuple[Order, AcceptedOrder | Refusal], ...]]:
    """Apply both sides' sealed orders interleaved; an order that became illegal is refused with
    its code and the others still go through."""
    outcomes: list[tuple[Order, AcceptedOrder | Refusal]] = []
    for one in interleave(first, orders):
        try:
            state, accepted = apply_order(state, one)
        except OrderRefused as refused:
            outcomes.append((one, refused.refusal))
        else:
            outcomes.append((one, accepted))
    return state, tuple(outcomes)
