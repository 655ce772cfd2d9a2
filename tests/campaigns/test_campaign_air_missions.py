"""Air missions (R19–R24, R28, R29, R34, G27, G28) and airborne landings (R13, R14, R30) on the
seed's example map: west's Thunderhawks are based in 2, Drop waits in orbit."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.choices import choices, order_of, shortest_route
from campaigns.engine import air_missions as air
from campaigns.engine.army import AIR, AIRBORNE, FLAK, VEHICLE, Unit, unit_dict, unit_from_dict
from campaigns.engine.battles import battles
from campaigns.engine.map import CODES, EAST, WEST, adjacent
from campaigns.engine.orders import allowances, apply_order, check_order
from campaigns.engine.replay import replay_all
from campaigns.engine.state import (
    AIR_MISSION,
    ATTACK,
    ESCORT,
    INFILTRATION_MISSION,
    INTERCEPTION,
    MOVE,
    REACTION,
    TRANSPORT,
    VEHICLES,
    Order,
)
from campaigns.engine.turn import BattleResult, close_turn
from campaigns.forms import parse_units, units_text
from missions.dice import EnteredRoller
from tests.campaigns.epic_campaign_states import det, example_state, order, place, run


def mission(side, name, kind, to=None, route=(), return_route=(), escort_of=None, from_=None):
    return Order(side, AIR_MISSION, (name,), from_, to, mission=kind, route=tuple(route),
                 return_route=tuple(return_route), escort_of=escort_of)


def air_state(more=(), **changes):
    """Example map plus an east air wing based in E and an east Flak battery in A."""
    state = example_state(phase="air")
    extra = (*more, det("Fighta", EAST, "E", 400, kind=AIR,
                 units=(Unit("Fighta 1", interception_value=4), Unit("Fighta 2", interception_value=2),
                        Unit("Bomma"))),
             det("Flakwagons", EAST, "A", 300, units=(Unit("Flakwagon", tags={FLAK}),)))
    return replace(state, detachments=(*state.detachments, *extra), **changes)


def refusal(state, one):
    verdict = check_order(state, one)
    assert not verdict.accepted, "the order was accepted"
    return verdict.refusal.code, dict(verdict.refusal.params)


# Declaring a mission -------------------------------------------------------------------------

def test_an_infiltration_mission_with_its_route_is_accepted_and_filled_in():
    state = air_state()
    after, done = apply_order(state, mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A",
                                             ["5", "8", "B", "A"], ["B", "8", "5", "2"]))
    assert done.order.from_ == "2" and done.order.to == "A" and done.bonus is None
    assert after.missions(WEST) == (done,)
    # R19–R24: a mission spends no move, attack or reaction.
    assert all(a.used == 0 for a in allowances(after, WEST).values())


def test_an_interception_patrols_its_base_when_no_target_is_given():
    after, done = apply_order(air_state(), mission(EAST, "Fighta", INTERCEPTION))
    assert done.order.to == "E" and done.order.route == ()


@pytest.mark.parametrize(("one", "code", "params"), [
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A", ["5", "8", "A"]), "route_not_adjacent",
     {"route": "out", "from": "8", "to": "A"}),
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A", ["5", "8", "B"]), "route_end_mismatch",
     {"route": "out", "territory": "B", "expected": "A"}),
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A"), "route_required", {"to": "A"}),
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A", ["5", "8", "B", "A"], ["B", "8", "2"]),
     "route_not_adjacent", {"route": "return", "from": "8", "to": "2"}),
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A", ["5", "Q"]), "territory_unknown",
     {"territory": "Q"}),
    (mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "8", ["5", "8"]), "target_friendly",
     {"territory": "8"}),  # R20: « 1 territoire ennemi »
    (mission(WEST, "Thunderhawks", ESCORT, "5", ["5"]), "target_friendly", {"territory": "5"}),
    (mission(WEST, "Thunderhawks", "bombing", "A"), "mission_unknown", {"mission": "bombing"}),
    (mission(WEST, "Armour", TRANSPORT, "A", ["A"]), "air_detachment_required", {"detachment": "Armour"}),
    (mission(WEST, "Thunderhawks", TRANSPORT, "A", ["A"], from_="7"), "detachment_not_in_territory",
     {"detachment": "Thunderhawks", "territory": "7"}),
    (mission(WEST, "Thunderhawks", ESCORT, escort_of=99), "escort_target_unknown", {"escort_of": 99}),
    (mission(WEST, "Thunderhawks", TRANSPORT), "territory_required", {}),
])
def test_mission_refusals(one, code, params):
    assert refusal(air_state(), one) == (code, params)


def test_one_mission_per_air_detachment_per_turn():
    state = run(air_state(), mission(WEST, "Thunderhawks", TRANSPORT, "5", ["5"]))
    assert refusal(state, mission(WEST, "Thunderhawks", INTERCEPTION)) == (
        "mission_already_used", {"detachment": "Thunderhawks"})


def test_missions_only_in_the_air_phase_and_from_a_friendly_base():
    assert refusal(air_state(phase="moves"), mission(WEST, "Thunderhawks", INTERCEPTION))[0] == "phase_closed"
    lost_base = air_state(control={**air_state().control, "2": EAST})
    assert refusal(lost_base, mission(WEST, "Thunderhawks", INTERCEPTION)) == (
        "base_not_friendly", {"detachment": "Thunderhawks", "territory": "2"})  # G28


def test_an_escort_follows_its_mission_and_only_infiltration_or_transport():
    state = air_state((det("Lightnings", WEST, "2", 300, kind=AIR),
                       det("Marauders", WEST, "5", 300, kind=AIR)))
    state, transport = apply_order(state, mission(WEST, "Thunderhawks", TRANSPORT, "B", ["5", "8", "B"]))
    state, escort = apply_order(state, mission(WEST, "Lightnings", ESCORT, escort_of=transport.id))
    assert (escort.order.to, escort.order.route) == ("B", ("5", "8", "B"))  # same base: same route
    # From another base an escort gives its own route; to another target it is refused.
    assert refusal(state, mission(WEST, "Marauders", ESCORT, "A", ["8", "B", "A"], escort_of=transport.id)) == (
        "escort_target_mismatch", {"territory": "A", "expected": "B"})
    assert refusal(state, mission(WEST, "Marauders", ESCORT, escort_of=transport.id)) == (
        "route_required", {"to": "B"})
    assert check_order(state, mission(WEST, "Marauders", ESCORT, route=["8", "B"],
                                      escort_of=transport.id)).accepted
    assert refusal(state, mission(WEST, "Marauders", ESCORT, escort_of=escort.id)) == (
        "escort_target_invalid", {"escort_of": escort.id, "mission": ESCORT})


def test_isolated_air_units_only_fly_a_transport_to_a_friendly_territory():
    state = air_state(isolated=frozenset({"2"}))
    assert refusal(state, mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A", ["5", "8", "B", "A"])) == (
        "detachment_isolated", {"detachment": "Thunderhawks", "territory": "2"})  # R34
    assert check_order(state, mission(WEST, "Thunderhawks", TRANSPORT, "5", ["5"])).accepted


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CODES), min_size=1, max_size=6), st.sampled_from(CODES))
def test_an_accepted_route_steps_from_the_base_to_the_target(route, to):
    state = air_state()
    one = mission(WEST, "Thunderhawks", TRANSPORT, to, route)
    if not check_order(state, one).accepted:
        return
    steps = ["2", *route]
    assert all(adjacent(a, b) for a, b in zip(steps, steps[1:], strict=False))
    assert route[-1] == to


# Transport missions in the attacks phase (R28, R29) ----------------------------------------

def transport_turn(to="B", route=("5", "8", "B")):
    state = run(air_state(), mission(WEST, "Thunderhawks", TRANSPORT, to, route))
    return replace(state, phase="attacks")


def test_a_transport_attacks_its_target_with_no_adjacency_or_line_rule_using_one_attack():
    state = transport_turn("E", ("5", "8", "B", "E"))  # E is in east's line 2: no line rule
    after, done = apply_order(state, order(WEST, ATTACK, ["Thunderhawks", "Reserve"], to="E"))
    assert done.order.from_ == "2" and allowances(after, WEST)[ATTACK].used == 1
    (battle,) = [b for b in battles(after) if b.territory == "E"]
    assert set(battle.attackers) == {"Thunderhawks", "Reserve"}  # R23: carried troops


def test_air_detachments_still_need_their_transport_mission_to_attack():
    state = transport_turn()
    assert refusal(state, order(WEST, ATTACK, ["Thunderhawks"], to="A")) == (
        "transport_target_mismatch", {"detachment": "Thunderhawks", "territory": "A", "expected": "B"})
    plain = replace(air_state(), phase="attacks")
    assert refusal(plain, order(WEST, ATTACK, ["Thunderhawks"], to="B")) == (
        "air_mission_required", {"detachment": "Thunderhawks"})
    assert refusal(state, order(WEST, ATTACK, ["Thunderhawks", "Armour"], to="B")) == (
        "detachment_not_in_territory", {"detachment": "Armour", "territory": "2"})


def test_a_transport_reacts_anywhere_using_one_reaction():
    state = transport_turn()
    state, attack = apply_order(state, order(EAST, ATTACK, ["Gunz"], "A", "7"))
    state = replace(state, orders=state.orders)
    after, done = apply_order(state, order(WEST, REACTION, ["Thunderhawks"], for_attack=attack.id))
    assert done.order.to == "7" and allowances(after, WEST)[REACTION].used == 1
    plain = replace(air_state(), phase="attacks")
    plain, attack = apply_order(plain, order(EAST, ATTACK, ["Gunz"], "A", "7"))
    assert refusal(plain, order(WEST, REACTION, ["Thunderhawks"], for_attack=attack.id)) == (
        "air_mission_required", {"detachment": "Thunderhawks"})


# Gates (R21, R22, R24) ------------------------------------------------------------------------

def test_flak_rolls_in_the_infiltrated_territory_only_for_an_infiltration():
    state = air_state()
    state = place(state, EAST, "Flakwagons", "B")
    state, infil = apply_order(state, mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A",
                                              ["5", "8", "B", "A"]))
    assert air.flak_exposure(state, infil) == ()  # Flak in B is flown over, not infiltrated
    state = place(state, EAST, "Flakwagons", "A")
    assert [(code, d.name) for code, d in air.flak_exposure(state, infil)] == [("A", "Flakwagons")]
    rolls = air.roll_flak(state, [infil], EnteredRoller([6]))
    assert rolls == (air.FlakRoll(infil.id, "A", EAST, "Flakwagons", 6, True),)


def test_flak_rolls_all_along_a_transport_route_but_never_at_escorts():
    state = place(air_state(), EAST, "Flakwagons", "B")
    state = replace(state, detachments=(*state.detachments, det("Lightnings", WEST, "2", 300, kind=AIR)))
    state, transport = apply_order(state, mission(WEST, "Thunderhawks", TRANSPORT, "E", ["5", "8", "B", "E"]))
    state, escort = apply_order(state, mission(WEST, "Lightnings", ESCORT, escort_of=transport.id))
    assert [d.name for _, d in air.flak_exposure(state, transport)] == ["Flakwagons"]
    assert air.flak_exposure(state, escort) == ()
    rolls = air.roll_flak(state, [transport, escort], EnteredRoller([3]))
    assert [(r.detachment, r.die, r.fires) for r in rolls] == [("Flakwagons", 3, False)]


def test_interceptions_list_missions_crossing_a_patrolled_territory_and_their_escorts():
    state = replace(air_state(), detachments=(*air_state().detachments,
                                              det("Lightnings", WEST, "2", 300, kind=AIR)))
    state, patrol = apply_order(state, mission(EAST, "Fighta", INTERCEPTION, "B", ["B"]))
    state, transport = apply_order(state, mission(WEST, "Thunderhawks", TRANSPORT, "E", ["5", "8", "B", "E"]))
    state, escort = apply_order(state, mission(WEST, "Lightnings", ESCORT, escort_of=transport.id))
    found = air.interceptions(state)
    assert air.Interception(transport.id, WEST, TRANSPORT, (patrol.id,), ("B",), (escort.id,)) in found
    assert {i.order_id for i in found} == {transport.id, escort.id}
    # The way back counts too (« au retour aussi! »).
    other = run(air_state(), mission(EAST, "Fighta", INTERCEPTION, "8", ["B", "8"]))
    other, infil = apply_order(other, mission(WEST, "Thunderhawks", INFILTRATION_MISSION, "A",
                                              ["1", "4", "7", "A"], ["B", "8", "5", "2"]))
    assert [i.territories for i in air.interceptions(other)] == [("8",)]


# Landings (R13, R14, R30) -------------------------------------------------------------------

DROP_UNITS = (Unit("Troopers"), Unit("Rhinos", points=200, tags={VEHICLE}))


def drop_state(phase="moves", units=DROP_UNITS):
    state = air_state()
    dets = tuple(replace(d, units=units) if d.name == "Drop" else d for d in state.detachments)
    return replace(state, detachments=dets, phase=phase)


def test_a_landing_move_goes_into_any_friendly_territory_using_one_move():
    state = drop_state()
    after, done = apply_order(state, order(WEST, MOVE, ["Drop"], to="5"))
    drop = after.detachment(WEST, "Drop")
    assert drop.location == "5" and drop.vehicles_in_orbit and done.order.from_ is None
    assert after.landings(WEST) == (done,) and allowances(after, WEST)[MOVE].used == 1
    assert drop.force_points == 400  # R13: the vehicles stay in orbit
    assert refusal(state, order(WEST, MOVE, ["Drop"], "2", "5")) == (
        "detachment_not_in_territory", {"detachment": "Drop", "territory": "2"})


def test_vehicles_join_after_one_move_action_in_a_later_turn():
    state, _ = apply_order(drop_state(), order(WEST, MOVE, ["Drop"], to="5"))
    assert refusal(state, order(WEST, VEHICLES, ["Drop"])) == ("vehicles_next_turn", {"detachment": "Drop"})
    next_turn = replace(state, orders=())
    after, done = apply_order(next_turn, order(WEST, VEHICLES, ["Drop"]))
    assert not after.detachment(WEST, "Drop").vehicles_in_orbit and done.order.from_ == "5"
    assert allowances(after, WEST)[MOVE].used == 1
    assert after.detachment(WEST, "Drop").force_points == 600
    assert refusal(after, order(WEST, VEHICLES, ["Drop"])) == ("no_vehicles_in_orbit", {"detachment": "Drop"})


def test_a_landing_attack_hits_any_enemy_territory_and_stays_in_orbit_until_it_wins():
    state = drop_state("attacks")
    after, done = apply_order(state, order(WEST, ATTACK, ["Drop"], to="H"))  # line 2: no line rule
    assert after.detachment(WEST, "Drop").location is None and done.order.from_ is None
    (battle,) = battles(after)
    assert battle.attackers == ("Drop",) and battle.attacker_points == 400  # vehicles in orbit
    assert refusal(state, order(WEST, ATTACK, ["Drop"], to="5")) == ("target_friendly", {"territory": "5"})
    assert refusal(state, order(WEST, ATTACK, ["Drop", "Armour"], to="A")) == (
        "landing_mixed", {"detachment": "Armour"})


def test_a_landing_reaction_answers_any_attack():
    state, attack = apply_order(drop_state("attacks"), order(EAST, ATTACK, ["Gunz"], "A", "7"))
    after, done = apply_order(state, order(WEST, REACTION, ["Drop"], for_attack=attack.id))
    assert after.detachment(WEST, "Drop").location is None and done.order.to == "7"
    (battle,) = battles(after)
    assert battle.defender_reserves == ("Drop",)  # R29/R30: reactors are reserves
    assert after.landings(WEST) == (done,) and allowances(after, WEST)[REACTION].used == 1


def test_a_replay_from_the_turn_start_accepts_the_vehicles_order_again():
    state, _ = apply_order(drop_state(), order(WEST, MOVE, ["Drop"], to="5"))
    state, done = apply_order(replace(state, orders=()), order(WEST, VEHICLES, ["Drop"]))
    after, now, refused = replay_all(state, [done], frozenset())
    assert refused == {} and not after.detachment(WEST, "Drop").vehicles_in_orbit


def test_a_landing_is_intercepted_by_a_patrol_over_its_territory():
    state = run(air_state(), mission(EAST, "Fighta", INTERCEPTION, "8", ["B", "8"]))
    state = replace(state, phase="moves", detachments=drop_state().detachments)
    state, landing = apply_order(state, order(WEST, MOVE, ["Drop"], to="8"))
    (patrol,) = air.landing_interceptors(state, landing)
    rolled = air.roll_landing(state, landing, patrol, EnteredRoller([3, 2, 1]))
    # « si le résultat est inferieur à la valeur d'interception »: 3 < 4 acts, 2 < 2 does not.
    assert [(d.unit, d.die, d.value, d.acts) for d in rolled.dice] == [
        ("Fighta 1", 3, 4, True), ("Fighta 2", 2, 2, False), ("Bomma", 1, None, False)]
    assert rolled.acting == 1 and rolled.territory == "8"
    _, elsewhere = apply_order(replace(state, orders=state.orders[:1]),
                               order(WEST, MOVE, ["Drop"], to="5"))
    assert air.landing_interceptors(state, elsewhere) == ()


def test_other_kinds_of_detachment_do_not_land():
    state = replace(drop_state(), detachments=(*drop_state().detachments,
                                               det("Lost", WEST, None, 100)))
    assert refusal(state, order(WEST, MOVE, ["Lost"], to="5")) == ("detachment_not_on_map", {"detachment": "Lost"})
    assert state.detachment(WEST, "Drop").kind == AIRBORNE


# The turn close (R23, R32) and the player's choices (only legal ones) -------------------------

def test_a_landing_attack_that_wins_comes_down_where_it_stays():
    state, _ = apply_order(drop_state("attacks"), order(WEST, ATTACK, ["Drop"], to="H"))
    won = close_turn(state, {"H": BattleResult(WEST, stay=frozenset({"Drop"}),
                                               retreat_to={"Nobz": "E"})}, {},
                     other_sectors_dice={WEST: 3, EAST: 3})
    assert won.state.detachment(WEST, "Drop").location == "H" and won.state.control["H"] == WEST
    lost = close_turn(state, {"H": BattleResult(EAST)}, {}, other_sectors_dice={WEST: 3, EAST: 3})
    assert lost.state.detachment(WEST, "Drop").in_orbit  # back to orbit, ready to land again


def test_shortest_routes_step_from_the_base_to_the_target():
    assert shortest_route("2", "A") == ("1", "4", "7", "A")  # the first in map order among equals
    assert shortest_route("2", "2") == ()
    assert shortest_route("9", "C") == ("C",)


def test_the_choices_offer_legal_missions_landings_and_transports_only():
    state = air_state()
    ids = {d.name: n for n, d in enumerate(state.detachments, start=1) if d.side == WEST}
    offered = choices(state, WEST, ids)[AIR_MISSION]
    assert offered and all(check_order(state, c.order).accepted for c in offered)
    kinds = {(c.order.mission, c.order.to) for c in offered}
    assert (INFILTRATION_MISSION, "A") in kinds and (INFILTRATION_MISSION, "8") not in kinds
    assert (INTERCEPTION, "2") in kinds and (TRANSPORT, "2") not in kinds
    names = {n: name for name, n in ids.items()}
    for choice in offered:  # a token stands for the order it was built from
        assert order_of(choice.token, WEST, AIR_MISSION, names) == choice.order
    state = run(state, mission(WEST, "Thunderhawks", TRANSPORT, "B", ["5", "8", "B"]))
    state = replace(state, phase="attacks", detachments=drop_state().detachments)
    attacks = choices(state, WEST, ids)[ATTACK]
    assert all(check_order(state, c.order).accepted for c in attacks)
    flown = {(c.order.detachments, c.order.to) for c in attacks if c.order.from_ is None
             or "Thunderhawks" in c.order.detachments}
    assert (("Thunderhawks",), "B") in flown and (("Thunderhawks", "Reserve"), "B") in flown
    assert (("Drop",), "H") in flown and not any(to == "7" for _, to in flown)
    moves = choices(replace(state, phase="moves"), WEST, ids)
    assert {c.order.to for c in moves[MOVE] if c.order.from_ is None} == {
        code for code in CODES if state.control[code] == WEST}


def test_interception_values_in_the_typed_army_and_the_stored_units():
    units = parse_units("Fighta (interception 4), Hydra (flak, interception=3)\nScouts (infiltrator)")
    assert [(u.name, u.interception_value, set(u.tags)) for u in units] == [
        ("Fighta", 4, set()), ("Hydra", 3, {FLAK}), ("Scouts", None, {"infiltrator"})]
    stored = [unit_dict(u) for u in units]
    assert stored[0]["interception_value"] == 4 and "interception_value" not in stored[2]
    assert [unit_from_dict(d) for d in stored] == list(units)
    assert parse_units(units_text(stored)) == units  # the form shows what it reads
