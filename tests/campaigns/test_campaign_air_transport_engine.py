"""Air transport of friendly troops in the moves phase (R23, R26, R10, G9), the R34 exception for
isolated airborne detachments, and the Flak of a failed transport's return route (R21, R23), on
the seed's example map: west's Thunderhawks are based in 2 with the Reserve."""
from dataclasses import replace

import pytest

from campaigns.choices import choices, order_label, order_of
from campaigns.engine import air_missions as air
from campaigns.engine.army import AIR, AIRBORNE
from campaigns.engine.map import EAST, WEST
from campaigns.engine.orders import allowances, apply_order, check_order
from campaigns.engine.replay import replay_all, turn_start
from campaigns.engine.state import ATTACK, ESCORT, INTERCEPTION, MOVE, REACTION, TRANSPORT
from campaigns.engine.turn import BattleResult
from missions.dice import EnteredRoller
from tests.campaigns.epic_campaign_states import det, order, place, run
from tests.campaigns.test_campaign_air_missions import air_state, mission, refusal


def transport_moves(to="9", route=("5", "8", "9"), state=None, **changes):
    """The Thunderhawks fly a transport to ``to``; the moves phase is open."""
    state = run(state or air_state(**changes), mission(WEST, "Thunderhawks", TRANSPORT, to, route))
    return replace(state, phase="moves")


def test_a_transport_carries_troops_of_its_base_anywhere_friendly_using_one_move():
    state = transport_moves()
    after, done = apply_order(state, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="9"))
    assert done.order.from_ == "2" and done.bonus is None
    assert after.detachment(WEST, "Reserve").location == "9"  # 2 → 9: no adjacency
    assert after.detachment(WEST, "Thunderhawks").location == "9"  # it lands there too
    assert allowances(after, WEST)[MOVE].used == 1  # [Gap]: one move for the whole transport


def test_a_landed_airborne_detachment_can_be_carried_too():
    state = place(transport_moves(), WEST, "Drop", "2")
    after = run(state, order(WEST, MOVE, ["Drop", "Thunderhawks", "Reserve"], to="9"))
    assert {after.detachment(WEST, n).location for n in ("Drop", "Thunderhawks", "Reserve")} == {"9"}


@pytest.mark.parametrize(("detachments", "to", "code", "params"), [
    (["Thunderhawks", "Reserve"], "6", "transport_target_mismatch",
     {"detachment": "Thunderhawks", "territory": "6", "expected": "9"}),
    (["Thunderhawks"], "9", "transport_troops_required", {"detachment": "Thunderhawks"}),
    (["Thunderhawks", "Titans"], "9", "detachment_not_in_territory",
     {"detachment": "Titans", "territory": "2"}),
    (["Thunderhawks", "Reserve", "Lightnings"], "9", "transport_single_carrier",
     {"detachment": "Lightnings"}),
])
def test_transport_move_refusals(detachments, to, code, params):
    state = transport_moves(more=(det("Lightnings", WEST, "2", 300, kind=AIR),))
    assert refusal(state, order(WEST, MOVE, detachments, to=to)) == (code, params)


def test_without_a_transport_mission_an_air_detachment_does_not_move():
    plain = air_state(phase="moves")
    assert refusal(plain, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="5")) == (
        "air_mission_required", {"detachment": "Thunderhawks"})


def test_an_enemy_target_is_an_attack_not_a_transport_move():
    state = transport_moves("B", ("5", "8", "B"))
    assert refusal(state, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="B")) == (
        "move_into_enemy", {"territory": "B"})  # G9


def test_one_transport_per_mission_then_no_reaction_with_it():
    state = transport_moves(more=(det("Rear", WEST, "2", 300),))
    state = run(state, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="9"))
    assert refusal(state, order(WEST, MOVE, ["Thunderhawks", "Infantry"], to="9")) == (
        "transport_already_used", {"detachment": "Thunderhawks"})
    state = replace(state, phase="attacks")
    state, attack = apply_order(state, order(EAST, ATTACK, ["Gunz"], "A", "7"))
    assert refusal(state, order(WEST, REACTION, ["Thunderhawks"], for_attack=attack.id)) == (
        "transport_already_used", {"detachment": "Thunderhawks"})


def test_the_base_keeps_its_major_guard():
    state = air_state(more=(det("Condors", WEST, "1", 300, kind=AIR),))
    state = run(state, mission(WEST, "Condors", TRANSPORT, "5", ["2", "5"]))
    state = replace(state, phase="moves")
    assert refusal(state, order(WEST, MOVE, ["Condors", "Guard 1"], to="5")) == (
        "major_unguarded", {"territory": "1"})  # R10


def test_the_supreme_commander_extra_move_does_not_carry_a_transport():
    state = transport_moves(strategic_values={WEST: 0, EAST: 3})  # 4 moves
    for name, to in (("Armour", "4"), ("Infantry", "9"), ("Scouts", "6"), ("Titans", "6")):
        state = run(state, order(WEST, MOVE, [name], to=to))
    assert refusal(state, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="9")) == (
        "move_allowance_exceeded", {"limit": 4})
    # A plain move in the Supreme Commander's line still gets its extra move (R26).
    assert check_order(state, order(WEST, MOVE, ["HQ"], to="5")).bonus == "supreme_commander"


def test_a_transport_move_is_replayed_and_undone_with_all_it_carries():
    state = transport_moves()
    after, done = apply_order(state, order(WEST, MOVE, ["Thunderhawks", "Reserve"], to="9"))
    start = turn_start(after)
    assert {start.detachment(WEST, n).location for n in ("Thunderhawks", "Reserve")} == {"2"}
    again, now, refused = replay_all(after, after.orders, frozenset())
    assert refused == {} and now[done.id] == done
    assert again.detachment(WEST, "Reserve").location == "9"


# R34: isolated airborne detachments --------------------------------------------------------

def isolated_state():
    state = air_state(isolated=frozenset({"2"}),
                      more=(det("Lightnings", WEST, "2", 300, kind=AIR),
                            det("Marauders", WEST, "5", 300, kind=AIR)))
    return place(state, WEST, "Drop", "2")


def test_only_airborne_detachments_leave_an_isolated_territory_by_a_transport():
    state = transport_moves(state=isolated_state())
    assert refusal(state, order(WEST, MOVE, ["Thunderhawks", "Drop", "Reserve"], to="9")) == (
        "detachment_isolated", {"detachment": "Reserve", "territory": "2"})
    assert refusal(state, order(WEST, MOVE, ["Reserve"], to="5"))[0] == "detachment_isolated"
    after = run(state, order(WEST, MOVE, ["Thunderhawks", "Drop"], to="9"))
    assert after.detachment(WEST, "Drop").location == "9"
    assert after.detachment(WEST, "Drop").kind == AIRBORNE


def test_an_isolated_transport_is_escorted_only_from_its_own_territory():
    state, transport = apply_order(isolated_state(),
                                   mission(WEST, "Thunderhawks", TRANSPORT, "9", ["5", "8", "9"]))
    assert refusal(state, mission(WEST, "Marauders", ESCORT, route=["8", "9"],
                                  escort_of=transport.id)) == (
        "escort_not_in_isolated_territory", {"escort_of": transport.id, "territory": "2"})
    assert check_order(state, mission(WEST, "Lightnings", ESCORT, escort_of=transport.id)).accepted
    # An isolated air detachment flies nothing else (R34).
    assert refusal(state, mission(WEST, "Lightnings", INTERCEPTION))[0] == "detachment_isolated"


# R23: the way back after a failed attack ----------------------------------------------------

def failed_turn(return_route=("B", "8", "5", "2")):
    state = place(air_state(), EAST, "Flakwagons", "B")
    state = run(state, mission(EAST, "Fighta", INTERCEPTION, "8", ["B", "8"]),
                mission(WEST, "Thunderhawks", TRANSPORT, "E", ["5", "8", "B", "E"], return_route))
    state = replace(state, phase="attacks")
    return run(state, order(WEST, ATTACK, ["Thunderhawks", "Reserve"], to="E"))


def test_a_failed_transport_rolls_the_flak_of_its_return_route():
    state = failed_turn()
    (transport,) = state.missions(WEST, TRANSPORT)
    assert air.failed_transports(state, {"E": BattleResult(EAST)}) == (transport,)
    assert air.failed_transports(state, {"E": BattleResult(None)}) == (transport,)  # a draw
    assert air.failed_transports(state, {"E": BattleResult(WEST)}) == ()
    assert air.failed_transports(state, {}) == ()
    assert air.failed_transports(state, {"E": BattleResult(
        EAST, destroyed=frozenset({"Thunderhawks"}))}) == ()
    rolls = air.roll_return_flak(state, [transport], EnteredRoller([6]))
    assert rolls == (air.FlakRoll(transport.id, "B", EAST, "Flakwagons", 6, True),)
    (patrol,) = state.missions(EAST, INTERCEPTION)
    assert air.return_interception(state, transport) == air.Interception(
        transport.id, WEST, TRANSPORT, (patrol.id,), ("8",), ())


def test_no_return_route_no_return_flak():
    state = failed_turn(return_route=())
    assert air.failed_transports(state, {"E": BattleResult(EAST)}) == ()


# The player's choices ------------------------------------------------------------------------

def test_the_choices_offer_transport_moves_with_their_own_label():
    state = place(transport_moves(), WEST, "Drop", "2")
    ids = {d.name: n for n, d in enumerate(state.detachments, start=1) if d.side == WEST}
    moves = choices(state, WEST, ids)[MOVE]
    carried = [c for c in moves if "Thunderhawks" in c.order.detachments]
    assert {c.order.detachments for c in carried} >= {
        ("Thunderhawks", "Reserve"), ("Thunderhawks", "Drop"), ("Thunderhawks", "Reserve", "Drop")}
    assert all(c.order.to == "9" and check_order(state, c.order).accepted for c in carried)
    names = {n: name for name, n in ids.items()}
    for choice in carried:
        assert order_of(choice.token, WEST, MOVE, names) == choice.order
    label = order_label(carried[0].order)
    assert "Thunderhawks" in label and "2 → 9" in label and "transport" in label.lower()
