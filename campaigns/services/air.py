"""The air phase's gates and the airborne landings of a campaign turn (R13, R14, R19–R24, G23,
G27): the dice the seed itself gives, on the campaign's stream or thrown at the table, kept on
the turn (``CampaignTurn.air``) and shown to each side as R12 allows.

- Flak (R21): once a mission is out (accepted, or revealed in the sealed mode), 1D6 for each
  enemy detachment with Flak that may fire at it; 6 = it fires all its Flak at one air
  detachment. Rolled when staff resolve the air gates (``POST …/turns/{n}/air/``), or else
  before the infiltrations are resolved (R21: « avant de déterminer le résultat ») and before
  a later phase opens.
- Interceptions (R22, R24): which enemy interception missions a mission crosses and which
  escorts may counter-intercept; worked out from the accepted missions, no dice (the air combat
  is an Epic 40,000 fight, G27).
- Landings (R14): the first landing of an airborne detachment in a territory an enemy
  interception mission patrols: 1D6 per unit of the intercepting detachment, a unit acts on a
  die below its interception value. Rolled by the same staff call, or before the next phase
  opens or the battles are generated. The landing ships' armour (6+) and the losses are for the
  players.

- The way back (R23): at the turn's close, before the battles are applied, a transport whose
  attack was not won and that gave a return route rolls the Flak of that route (server dice);
  its entry carries ``"leg": "return"`` (outbound entries have no ``leg``: ``out``).

Entries on the turn, in the order rolled: ``{"kind": "mission", "leg"?, "order", "side",
"mission", "from", "to", "route", "return_route", "escort_of", "flak": [...], "interceptors":
[ids], "territories", "escorts": [ids], "source"}`` and ``{"kind": "landing", "order", "side",
"detachment", "territory", "interceptor_order", "interceptor_side", "interceptor", "dice":
[{"unit", "die", "value", "acts"}], "acting", "source"}``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from campaigns.engine import air_missions as engine
from campaigns.engine.army import AIRBORNE
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    INTERCEPTION,
    MOVE,
    REACTION,
    VEHICLES,
    AcceptedOrder,
    CampaignState,
)
from campaigns.engine.turn import BattleResult
from campaigns.models import Campaign, CampaignDetachment, CampaignOrder, CampaignTurn
from campaigns.services import order_numbers
from campaigns.services.campaign import refusal, staff_turn, state_of
from campaigns.services.dice import ENTERED, SERVER, throw
from events.audit import Actor, record
from events.errors import Conflict

MISSION, LANDING = "mission", "landing"
BOTH = "both"  # a reader who is neither side nor staff: what both players know (the turn pack)


# After an order (called by campaign_turns.declare_order) ------------------------------------

def after_order(campaign: Campaign, turn: CampaignTurn, saved: CampaignOrder) -> None:
    """R13: a landing marks its detachment landed (the turn of its first landing) with its
    vehicles in orbit; a ``vehicles`` order brings them down. R23: an air transport's move
    takes everything it carries (declare_order moves the first detachment named)."""
    names = list(saved.detachments)
    rows = CampaignDetachment.objects.filter(side__campaign=campaign, side__side=saved.side,
                                             name__in=names)
    if saved.kind == MOVE and saved.from_code and len(names) > 1:
        rows.update(location=saved.to_code)
        return
    if saved.kind == VEHICLES:
        rows.update(vehicles_in_orbit=False)
        return
    if saved.kind not in (MOVE, ATTACK, REACTION) or saved.from_code:
        return
    for row in rows:
        if row.kind != AIRBORNE:
            continue
        row.vehicles_in_orbit = any("vehicle" in (u.get("tags") or ()) for u in row.units or ())
        if row.landed_turn is None:
            row.landed_turn = turn.number
        row.save(update_fields=["vehicles_in_orbit", "landed_turn"])


# What is still to roll ----------------------------------------------------------------------

def _out_ids(turn: CampaignTurn) -> frozenset[int]:
    """The orders the enemy may know of: accepted (not sealed, not refused)."""
    return frozenset(turn.orders.filter(status=CampaignOrder.ACCEPTED).values_list("pk", flat=True))


def _entries(turn: CampaignTurn, kind: str) -> list[dict[str, Any]]:
    return [e for e in turn.air or [] if e.get("kind") == kind]


def pending_missions(state: CampaignState, turn: CampaignTurn) -> list[AcceptedOrder]:
    done = {e["order"] for e in _entries(turn, MISSION) if e.get("leg", engine.OUT) == engine.OUT}
    out = _out_ids(turn)
    return [a for a in state.missions() if a.id in out and a.id not in done]


def _first_landings(campaign: Campaign, state: CampaignState, turn: CampaignTurn
                    ) -> list[AcceptedOrder]:
    """R14: « lors de leur premier débarquement »: this turn's landings of detachments whose
    first landing is this turn."""
    first = set(CampaignDetachment.objects.filter(
        side__campaign=campaign, landed_turn=turn.number).values_list("side__side", "name"))
    out = _out_ids(turn)
    return [a for a in state.landings() if a.id in out
            and (a.order.side, a.order.detachments[0]) in first]


def pending_landings(campaign: Campaign, state: CampaignState, turn: CampaignTurn
                     ) -> list[tuple[AcceptedOrder, AcceptedOrder]]:
    """(landing, interceptor) pairs still to roll; R22: an interception mission intercepts once."""
    used = {e["interceptor_order"] for e in _entries(turn, LANDING)}
    done = {e["order"] for e in _entries(turn, LANDING)}
    pairs = []
    for landing in _first_landings(campaign, state, turn):
        if landing.id in done:
            continue
        for hunter in engine.landing_interceptors(state, landing):
            if hunter.id not in used:
                pairs.append((landing, hunter))
                used.add(hunter.id)
    return pairs


def anything_pending(campaign: Campaign, turn: CampaignTurn,
                     state: CampaignState | None = None) -> bool:
    """Whether gates are due; ``state`` is the turn's state when the caller has it."""
    state = state if state is not None else state_of(campaign, turn)
    return bool(pending_missions(state, turn) or pending_landings(campaign, state, turn))


# Rolling ------------------------------------------------------------------------------------

def _mission_entry(state: CampaignState, mission: AcceptedOrder, flak: Sequence[engine.FlakRoll],
                   found: dict[int, engine.Interception], source: str) -> dict[str, Any]:
    order = mission.order
    hit = found.get(mission.id)
    return {
        "kind": MISSION, "order": mission.id, "side": order.side, "mission": order.mission,
        "detachment": order.detachments[0], "from": order.from_, "to": order.to,
        "route": list(order.route), "return_route": list(order.return_route),
        "escort_of": order.escort_of,
        "flak": [{"territory": r.territory, "side": r.side, "detachment": r.detachment,
                  "die": r.die, "fires": r.fires} for r in flak if r.order_id == mission.id],
        "interceptors": list(hit.interceptors) if hit else [],
        "territories": list(hit.territories) if hit else [],
        "escorts": list(hit.escorts) if hit else [],
        "source": source,
    }


def _landing_entry(rolled: engine.LandingInterception, interceptor_side: str, source: str
                   ) -> dict[str, Any]:
    return {"kind": LANDING, "order": rolled.order_id, "side": rolled.side,
            "detachment": rolled.detachment, "territory": rolled.territory,
            "interceptor_order": rolled.interceptor_order, "interceptor_side": interceptor_side,
            "interceptor": rolled.interceptor,
            "dice": [{"unit": d.unit, "die": d.die, "value": d.value, "acts": d.acts}
                     for d in rolled.dice],
            "acting": rolled.acting, "source": source}


def run_pending(actor: Actor, campaign: Campaign, turn: CampaignTurn,
                dice: Sequence[int] | None) -> dict[str, Any]:
    """Roll what is due (caller holds the campaign's row lock): the Flak of each mission out
    (once the air phase is open), then the interception dice of each first landing under an
    enemy patrol. Entered faces are used in that order."""
    state = state_of(campaign, turn)
    missions = pending_missions(state, turn)
    landings = pending_landings(campaign, state, turn)
    if not missions and not landings:
        return {"missions": [], "landings": [], "dice_log": []}

    def roll(roller):
        flak = engine.roll_flak(state, missions, roller)
        rolled = [engine.roll_landing(state, landing, hunter, roller)
                  for landing, hunter in landings]
        return flak, rolled

    thrown = throw(campaign, actor, roll, dice)
    flak, rolled = thrown.value
    source = SERVER if dice is None else ENTERED
    found = {i.order_id: i for i in engine.interceptions(state)}
    new_missions = [_mission_entry(state, m, flak, found, source) for m in missions]
    new_landings = [_landing_entry(r, hunter.order.side, source)
                    for r, (_landing, hunter) in zip(rolled, landings, strict=True)]
    turn.air = [*(turn.air or []), *new_missions, *new_landings]
    turn.save(update_fields=["air"])
    log = thrown.record()
    record(actor, "campaign_air", campaign.tournament, turn,
           {"campaign": campaign.slug, "turn": turn.number, "missions": new_missions,
            "landings": new_landings, **log})
    return {"missions": new_missions, "landings": new_landings, **log}


# The way back of a failed transport (R23), at the turn's close --------------------------------

def _return_entry(mission: AcceptedOrder, flak: Sequence[engine.FlakRoll],
                  found: engine.Interception) -> dict[str, Any]:
    """As a mission entry, with ``"leg": "return"``: the Flak of the return route and the
    interceptions over it (the ids under the keys events/event_refs.py maps)."""
    order = mission.order
    return {
        "kind": MISSION, "leg": engine.BACK, "order": mission.id, "side": order.side,
        "mission": order.mission, "detachment": order.detachments[0], "from": order.from_,
        "to": order.to, "route": list(order.route), "return_route": list(order.return_route),
        "escort_of": order.escort_of,
        "flak": [{"territory": r.territory, "side": r.side, "detachment": r.detachment,
                  "die": r.die, "fires": r.fires} for r in flak if r.order_id == mission.id],
        "interceptors": list(found.interceptors), "territories": list(found.territories),
        "escorts": list(found.escorts), "source": SERVER,
    }


def return_flak(actor: Actor, campaign: Campaign, turn: CampaignTurn, state: CampaignState,
                results: Mapping[str, BattleResult]) -> list[dict[str, Any]]:
    """R23 « Si une attaque est un échec, le détachement doit aussi préciser son chemin de
    retour (il est alors de nouveau vulnérable aux interceptions et aux unités flak) »: called
    by the turn's close before the battles are applied (caller holds the lock). Each transport
    whose attack the attacker did not win, with a return route, rolls 1D6 (R21, server dice,
    logged) for each enemy Flak detachment on that route; the interceptions over it are listed.
    Only the missions both sides know (accepted), once each."""
    done = {e["order"] for e in _entries(turn, MISSION) if e.get("leg") == engine.BACK}
    out_ids = _out_ids(turn)
    failed = [m for m in engine.failed_transports(state, results)
              if m.id in out_ids and m.id not in done]
    if not failed:
        return []
    thrown = throw(campaign, actor, lambda roller: engine.roll_return_flak(state, failed, roller),
                   None)
    entries = [_return_entry(m, thrown.value, engine.return_interception(state, m))
               for m in failed]
    turn.air = [*(turn.air or []), *entries]
    turn.save(update_fields=["air"])
    log = thrown.record()
    record(actor, "campaign_air", campaign.tournament, turn,
           {"campaign": campaign.slug, "turn": turn.number, "missions": entries, "landings": [],
            **log})
    return entries


@transaction.atomic
def resolve_air(actor: Actor, campaign: Campaign, number: int,
                dice: Sequence[int] | None = None) -> dict[str, Any]:
    """Staff: roll the air gates due now (409 ``air_phase_not_open`` before the air phase)."""
    row, turn = staff_turn(actor, campaign, number)
    if not turn.phase:
        raise refusal("air_phase_not_open", {"phase": turn.phase}, Conflict)
    done = run_pending(actor, row, turn, dice)
    ids = order_numbers.public_ids(turn.orders.all())  # orders named as players read them
    answer = {"flak": flak_rolls([_public(e, ids) for e in done["missions"]]),
              "landings": [_public(e, ids) for e in done["landings"]],
              "interceptions": [_public(i, ids) for i in interceptions_view(row, turn)],
              "dice_log": done["dice_log"]}
    if "unused_dice" in done:
        answer["unused_dice"] = done["unused_dice"]
    return answer


def flak_rolls(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Flak dice of mission entries, one line per die, with the mission they aim at and the
    leg (``out``, or ``return`` after a failed transport, R23)."""
    return [{"order": e["order"], "mission": e["mission"], "leg": e.get("leg", engine.OUT), **f}
            for e in entries for f in e["flak"]]


def before_next_step(actor: Actor, campaign: Campaign, turn: CampaignTurn,
                     entered: Sequence[int] | None = None) -> None:
    """Before the infiltrations are resolved, a later phase opens or the battles are generated:
    gates still due are rolled on the server's dice. Only an infiltration resolved with table
    dice (``entered``) asks for the air gates to be thrown at the table first (409
    ``air_unresolved``): sealed orders come out when a phase opens, so nobody could have rolled
    their gates before then."""
    if not turn.phase or not anything_pending(campaign, turn):
        return
    if entered is not None:
        raise Conflict(_("Resolve this turn's air missions and landings first (Flak, "
                         "interception dice), with the dice thrown at the table."),
                       "air_unresolved")
    run_pending(actor, campaign, turn, None)


# What each side reads (R12, R19) --------------------------------------------------------------

def _mission_seen(row: CampaignOrder, viewer: str | None) -> dict[str, Any]:
    """R19: « donnez lui simplement sa mission »: the enemy is told the mission and its route,
    never the detachment."""
    seen = {"id": order_numbers.public_id(row), "side": row.side, "mission": row.mission, "from": row.from_code or None,
            "to": row.to_code or None, "route": list(row.route or []),
            "return_route": list(row.return_route or []), "escort_of": (order_numbers.public_id(row.escort_of)
                                                          if row.escort_of_id else None),
            "status": row.status}
    if viewer is None or viewer == row.side:
        seen["detachment"] = row.detachments[0] if row.detachments else None
    return seen


def _mission_rows(turn: CampaignTurn) -> list[CampaignOrder]:
    return list(turn.orders.filter(kind=AIR_MISSION).exclude(status=CampaignOrder.REFUSED)
                .select_related("escort_of").order_by("pk"))


def missions_view(turn: CampaignTurn, viewer: str | None,
                  rows: list[CampaignOrder] | None = None) -> list[dict[str, Any]]:
    rows = _mission_rows(turn) if rows is None else rows
    return [_mission_seen(r, viewer) for r in rows
            if viewer is None or r.side == viewer or r.status == CampaignOrder.ACCEPTED]


def interceptions_view(campaign: Campaign, turn: CampaignTurn,
                       rows: list[CampaignOrder] | None = None) -> list[dict[str, Any]]:
    """R22/R24 from the missions both sides know (accepted ones; orders' ids, no names)."""
    rows = _mission_rows(turn) if rows is None else rows
    out_ids = {r.pk for r in rows if r.status == CampaignOrder.ACCEPTED}
    if not any(r.mission == INTERCEPTION for r in rows if r.pk in out_ids):
        return []
    state = state_of(campaign, turn)
    known = [a for a in state.orders if a.id in out_ids or a.order.kind != AIR_MISSION]
    state = replace(state, orders=tuple(known))
    return [{"order": i.order_id, "side": i.side, "mission": i.mission,
             "interceptors": list(i.interceptors), "territories": list(i.territories),
             "escorts": list(i.escorts)} for i in engine.interceptions(state)]


def _entry_seen(entry: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer is None:
        return entry
    if entry["kind"] == MISSION:
        seen = {k: v for k, v in entry.items() if k != "detachment"}
        if viewer == entry["side"]:
            seen["detachment"] = entry["detachment"]
        # R12: a Flak detachment's name stays its owner's.
        seen["flak"] = [{**f, "detachment": f["detachment"] if f["side"] == viewer else None}
                        for f in entry["flak"]]
        return seen
    # The landing detachment is named to its side, the interceptor and its units to theirs.
    mine = viewer == entry["interceptor_side"]
    return {**entry,
            "detachment": entry["detachment"] if viewer == entry["side"] else None,
            "interceptor": entry["interceptor"] if mine else None,
            "dice": [{**d, "unit": d["unit"] if mine else None} for d in entry["dice"]]}


ORDER_ID_KEYS = ("order", "interceptor_order", "escort_of")


def _public(entry: dict[str, Any], ids: dict[int, int]) -> dict[str, Any]:
    """An entry naming orders by the ids players read (campaigns/services/order_numbers.py)."""
    out = {k: order_numbers.linked_id(v, ids) if k in ORDER_ID_KEYS else v
           for k, v in entry.items()}
    for key in ("escorts", "interceptors"):  # lists of orders' ids
        if isinstance(out.get(key), list):
            out[key] = [order_numbers.linked_id(v, ids) if isinstance(v, int) else v
                        for v in out[key]]
    return out


def air_view(campaign: Campaign, turn: CampaignTurn, viewer: str | None) -> dict[str, Any]:
    """The turn's air missions, Flak rolls, interceptions and landing interceptions as
    ``viewer`` may see them (None: staff, everything), orders named by their public ids."""
    rows = _mission_rows(turn)
    ids = order_numbers.public_ids(turn.orders.all())
    entries = [_public(_entry_seen(e, viewer), ids) for e in turn.air or []]
    back = [e for e in entries if e["kind"] == MISSION and e.get("leg") == engine.BACK]
    return {"missions": missions_view(turn, viewer, rows),
            "flak": flak_rolls([e for e in entries if e["kind"] == MISSION]),
            "rolled": [e["order"] for e in entries
                       if e["kind"] == MISSION and e.get("leg", engine.OUT) == engine.OUT],
            "interceptions": [_public(i, ids) for i in interceptions_view(campaign, turn, rows)],
            "landings": [e for e in entries if e["kind"] == LANDING],
            "returns": [{k: e[k] for k in ("order", "side", "mission", "return_route",
                                           "interceptors", "territories", "escorts")}
                        for e in back]}
