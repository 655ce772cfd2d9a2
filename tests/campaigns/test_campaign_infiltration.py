"""Ground infiltration (R25 with R12, R20, R34, G22): the order check and the resolution, on
the seed's example map (west Armour in 7 faces east Gunz in A; Scouts in 9 face Kults in C)."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engine.air import CAPTURED, FULL_SHEET, NOTHING, WAR_ENGINES
from campaigns.engine.army import INFILTRATOR, WAR_ENGINE, Unit, unit_dict, unit_from_dict
from campaigns.engine.infiltration import ENGINES, FULL, Reveal, resolve, reveals, stronger
from campaigns.engine.map import EAST, WEST
from campaigns.engine.orders import apply_order, check_order
from campaigns.engine.state import INFILTRATION, MOVE
from missions.dice import EnteredRoller
from tests.campaigns.epic_campaign_states import det, example_state, order, run

SCOUT = Unit("Scout Squad", "infantry", 50, frozenset({INFILTRATOR}))
TACTICAL = Unit("Tactical Squad", "infantry", 100)
TITAN = Unit("Warlord", "titan", 800, frozenset({WAR_ENGINE}))
GARGANT = Unit("Great Gargant", "gargant", 900, frozenset({WAR_ENGINE}))


def with_units(state, side, name, *units):
    dets = tuple(replace(d, units=units) if (d.side, d.name) == (side, name) else d
                 for d in state.detachments)
    return replace(state, detachments=dets)


def infiltration_state(**changes):
    state = with_units(example_state("infiltration"), WEST, "Armour", SCOUT, TACTICAL)
    return replace(state, **changes)


def refusal(state, one):
    verdict = check_order(state, one)
    assert not verdict.accepted, "the order was accepted"
    return verdict.refusal.code, dict(verdict.refusal.params)


# The order (R25, R20, R34) ------------------------------------------------------------------

def test_an_infiltrator_detachment_infiltrates_an_adjacent_enemy_territory():
    state = infiltration_state()
    verdict = check_order(state, order(WEST, INFILTRATION, ["Armour"], "7", "A"))
    assert verdict.accepted and verdict.bonus is None
    after, done = apply_order(state, order(WEST, INFILTRATION, ["Armour"], to="A"))
    assert done.order.from_ == "7"
    assert after.detachment(WEST, "Armour").location == "7"  # it does not move


@pytest.mark.parametrize(("one", "code", "params"), [
    (order(WEST, INFILTRATION, ["Infantry"], "8", "B"), "not_infiltrator", {"detachment": "Infantry"}),
    (order(WEST, INFILTRATION, ["Armour"], "7", "D"), "infiltration_not_adjacent", {"from": "7", "to": "D"}),
    (order(WEST, INFILTRATION, ["Armour"], "7", "8"), "target_friendly", {"territory": "8"}),
    (order(WEST, INFILTRATION, ["Armour"], "8", "B"), "detachment_not_in_territory",
     {"detachment": "Armour", "territory": "8"}),
    (order(WEST, INFILTRATION, ["Armour", "Infantry"], "7", "A"), "single_detachment_required",
     {"kind": INFILTRATION}),
    (order(WEST, INFILTRATION, ["Thunderhawks"], "2", "A"), "air_mission_required",
     {"detachment": "Thunderhawks"}),
    (order(WEST, INFILTRATION, ["Armour"], "7"), "territory_required", {}),
    (order(WEST, MOVE, ["Armour"], "7", "8"), "phase_closed", {"phase": "infiltration"}),
])
def test_infiltration_refusals(one, code, params):
    assert refusal(infiltration_state(), one) == (code, params)


def test_infiltration_is_refused_outside_its_phase():
    state = infiltration_state(phase="moves")
    assert refusal(state, order(WEST, INFILTRATION, ["Armour"], "7", "A")) == (
        "phase_closed", {"phase": "moves"})


def test_one_infiltration_per_detachment_per_turn():
    state = run(infiltration_state(), order(WEST, INFILTRATION, ["Armour"], "7", "A"))
    assert refusal(state, order(WEST, INFILTRATION, ["Armour"], "7", "A")) == (
        "mission_already_used", {"detachment": "Armour"})
    # Another infiltrator detachment still may.
    state = with_units(state, WEST, "Scouts", SCOUT)
    assert check_order(state, order(WEST, INFILTRATION, ["Scouts"], "9", "C")).accepted


def test_isolated_detachments_cannot_infiltrate():
    state = infiltration_state(isolated=frozenset({"7"}))
    assert refusal(state, order(WEST, INFILTRATION, ["Armour"], "7", "A")) == (
        "detachment_isolated", {"detachment": "Armour", "territory": "7"})


def test_infiltration_spends_no_move_or_attack():
    state = run(infiltration_state(), order(WEST, INFILTRATION, ["Armour"], "7", "A"))
    assert state.committed(WEST) == frozenset()
    assert state.accepted(WEST, (MOVE,)) == ()


# Resolution (R25, G22) ------------------------------------------------------------------------

def declared(state=None, *orders):
    state = state or infiltration_state()
    for one in orders or (order(WEST, INFILTRATION, ["Armour"], "7", "A"),):
        state, _ = apply_order(state, one)
    return state


@pytest.mark.parametrize(("face", "outcome", "expected"), [
    (6, FULL_SHEET, (Reveal(EAST, "Gunz", WEST, FULL, "infiltration"),)),
    (5, WAR_ENGINES, (Reveal(EAST, "Gunz", WEST, ENGINES, "infiltration"),)),
    (4, NOTHING, ()), (3, NOTHING, ()), (2, NOTHING, ()),
    (1, CAPTURED, (Reveal(WEST, "Armour", EAST, FULL, "capture"),)),
])
def test_each_face_of_the_die(face, outcome, expected):
    state = declared()
    roller = EnteredRoller([face])
    after, (result,) = resolve(state, state.accepted(kinds=(INFILTRATION,)), roller)
    assert [(d.target, d.die, d.outcome) for d in result.dice] == [("Gunz", face, outcome)]
    assert reveals(result) == expected
    assert [r.purpose for r in roller.rolls] == ["epic.infiltration"]
    armour = after.detachment(WEST, "Armour")
    if face == 1:  # G22: the infiltrators leave the detachment for good
        assert result.captured == (SCOUT,) and armour.units == (TACTICAL,)
        assert refusal(replace(after, orders=()), order(WEST, INFILTRATION, ["Armour"], "7", "A")) == (
            "not_infiltrator", {"detachment": "Armour"})
    else:
        assert result.captured == () and armour.units == (SCOUT, TACTICAL)


def test_one_die_per_enemy_detachment_in_the_target():
    state = declared(replace(infiltration_state(), detachments=(
        *infiltration_state().detachments, det("Gargant", EAST, "A", 900, units=(GARGANT,)))))
    _after, (result,) = resolve(state, state.accepted(kinds=(INFILTRATION,)), EnteredRoller([5, 1]))
    assert [(d.target, d.outcome) for d in result.dice] == [("Gunz", WAR_ENGINES), ("Gargant", CAPTURED)]
    assert set(reveals(result)) == {Reveal(EAST, "Gunz", WEST, ENGINES, "infiltration"),
                                    Reveal(WEST, "Armour", EAST, FULL, "capture")}


def test_an_empty_target_rolls_nothing():
    state = infiltration_state()
    state = replace(state, detachments=tuple(d for d in state.detachments if d.name != "Gunz"))
    state = declared(state)
    roller = EnteredRoller([])
    _after, (result,) = resolve(state, state.accepted(kinds=(INFILTRATION,)), roller)
    assert result.dice == () and roller.rolls == ()


def test_a_full_sheet_outranks_the_war_engines():
    assert stronger(ENGINES, FULL) == FULL == stronger(FULL, ENGINES)
    assert stronger(ENGINES, ENGINES) == ENGINES


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=2, max_size=2))
def test_orders_resolve_in_acceptance_order_and_capture_only_infiltrators(faces):
    state = with_units(infiltration_state(), WEST, "Scouts", SCOUT, TITAN)
    state = declared(state, order(WEST, INFILTRATION, ["Armour"], "7", "A"),
                     order(WEST, INFILTRATION, ["Scouts"], "9", "C"))
    after, results = resolve(state, state.accepted(kinds=(INFILTRATION,)), EnteredRoller(faces))
    assert [r.detachment for r in results] == ["Armour", "Scouts"]
    assert [r.dice[0].die for r in results] == faces
    for result in results:
        units = after.detachment(WEST, result.detachment).units
        assert all(u.has(INFILTRATOR) for u in result.captured)
        assert any(u.has(INFILTRATOR) for u in units) != bool(result.captured)
        assert bool(result.captured) == (result.dice[0].die == 1)
        assert TITAN in units or result.detachment == "Armour"  # other units stay


def test_units_round_trip_through_their_stored_shape():
    assert unit_from_dict(unit_dict(TITAN)) == TITAN
    assert unit_dict(SCOUT) == {"name": "Scout Squad", "type": "infantry", "points": 50,
                                "tags": ["infiltrator"]}
    with pytest.raises(ValueError):
        Unit("Odd", tags=frozenset({"psyker"}))
