"""Order checks (R9–R10, R26–R29, R34; G4, G6–G10, G28) on the seed's example map."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.engine.map import CODES, EAST, WEST, full_control, home_side, neighbours
from campaigns.engine.orders import (
    OrderRefused,
    allowances,
    apply_order,
    apply_sealed,
    check_order,
    interleave,
)
from campaigns.engine.state import ATTACK, FORTIFY, MOVE, REACTION, CampaignState
from tests.campaigns.epic_campaign_states import det, example_state, order, place, run


def refusal(state, one):
    verdict = check_order(state, one)
    assert not verdict.accepted, "the order was accepted"
    return verdict.refusal.code, dict(verdict.refusal.params)


def accepted(state, one):
    verdict = check_order(state, one)
    assert verdict.accepted, verdict.refusal
    return verdict


# Moves --------------------------------------------------------------------------------------

def test_a_move_to_an_adjacent_friendly_territory():
    state = example_state()
    assert accepted(state, order(WEST, MOVE, ["Armour"], "7", "8")).bonus is None
    after, done = apply_order(state, order(WEST, MOVE, ["Armour"], to="8"))
    assert after.detachment(WEST, "Armour").location == "8" and done.order.from_ == "7"


@pytest.mark.parametrize(("one", "code", "params"), [
    (order(WEST, MOVE, ["Armour"], "7", "9"), "not_adjacent", {"from": "7", "to": "9"}),
    (order(WEST, MOVE, ["Armour"], "7", "A"), "move_into_enemy", {"territory": "A"}),  # G9
    (order(WEST, MOVE, ["Guard 1"], "1", "2"), "major_unguarded", {"territory": "1"}),  # R10
    (order(WEST, MOVE, ["Armour", "Scouts"], "7", "8"), "single_detachment_required", {"kind": "move"}),
    (order(WEST, MOVE, ["Ghosts"], "7", "8"), "detachment_unknown", {"detachment": "Ghosts"}),
    (order(WEST, MOVE, ["Gunz"], "A", "B"), "detachment_unknown", {"detachment": "Gunz"}),
    # R13: Drop lands from orbit, into a friendly territory only (G9).
    (order(WEST, MOVE, ["Drop"], None, "A"), "move_into_enemy", {"territory": "A"}),
    (order(WEST, MOVE, ["Thunderhawks"], "2", "5"), "air_mission_required", {"detachment": "Thunderhawks"}),
    (order(WEST, MOVE, ["Armour"], "8", "5"), "detachment_not_in_territory",
     {"detachment": "Armour", "territory": "8"}),
    (order(WEST, MOVE, ["Armour"], "7", "Z"), "territory_unknown", {"territory": "Z"}),
    (order(WEST, MOVE, ["Armour"], "7"), "territory_required", {}),
    (order(WEST, ATTACK, ["Armour"], "7", "A"), "phase_closed", {"phase": "moves"}),
])
def test_move_refusals(one, code, params):
    assert refusal(example_state(), one) == (code, params)


def test_an_air_detachment_does_not_guard_a_major():
    # G28: Thunderhawks based in 1 do not keep Guard 1's major guarded.
    state = place(example_state(), WEST, "Thunderhawks", "1")
    assert refusal(state, order(WEST, MOVE, ["Guard 1"], "1", "2"))[0] == "major_unguarded"
    state = place(state, WEST, "Reserve", "1")
    accepted(state, order(WEST, MOVE, ["Guard 1"], "1", "2"))


def test_isolated_detachments_cannot_move():
    state = example_state(isolated=frozenset({"7"}))
    assert refusal(state, order(WEST, MOVE, ["Armour"], "7", "8")) == (
        "detachment_isolated", {"detachment": "Armour", "territory": "7"})


def test_moves_up_to_the_initiative_value_then_the_supreme_commanders_extra_move():
    # R16: VS 5 → 7 moves; R26: + 1 for a detachment in the Supreme Commander's line (HQ in 4).
    state = run(example_state(), *[order(WEST, MOVE, ["Armour"], a, b) for a, b in
                                   [("7", "8"), ("8", "7")] * 3 + [("7", "8")]])
    assert allowances(state, WEST)[MOVE].left == 0
    assert refusal(state, order(WEST, MOVE, ["Scouts"], "9", "6")) == (
        "move_allowance_exceeded", {"limit": 7})
    verdict = accepted(state, order(WEST, MOVE, ["Titans"], "5", "6"))
    assert (verdict.bonus, verdict.commander) == ("supreme_commander", "HQ")
    state = run(state, order(WEST, MOVE, ["Titans"], "5", "6"))
    assert refusal(state, order(WEST, MOVE, ["HQ"], "4", "5"))[0] == "move_allowance_exceeded"


def test_fortification_uses_a_move():
    state = run(example_state(), order(WEST, FORTIFY, to="7"))
    assert allowances(state, WEST)[MOVE].used == 1
    assert refusal(state, order(WEST, FORTIFY, to="7")) == ("already_fortified", {"territory": "7"})
    assert refusal(state, order(WEST, FORTIFY, to="A")) == ("territory_not_controlled", {"territory": "A"})
    fortified = example_state(fortified=frozenset({"8"}))
    assert refusal(fortified, order(WEST, FORTIFY, to="8"))[0] == "already_fortified"


# Attacks ------------------------------------------------------------------------------------

def test_an_attack_and_its_refusals():
    state = example_state("attacks")
    accepted(state, order(WEST, ATTACK, ["Armour"], "7", "A"))
    accepted(state, order(WEST, ATTACK, ["Armour"], to="A"))
    assert refusal(state, order(WEST, ATTACK, ["Armour"], "7", "8")) == ("target_friendly", {"territory": "8"})
    assert refusal(state, order(WEST, ATTACK, ["Armour"], "7", "B")) == (
        "not_adjacent", {"from": "7", "to": "B"})
    assert refusal(state, order(WEST, ATTACK, ["Armour", "Scouts"], "7", "A"))[0] == (
        "detachment_not_in_territory")
    assert refusal(state, order(WEST, MOVE, ["Armour"], "7", "8")) == ("phase_closed", {"phase": "attacks"})


def test_line_requirement():
    # R9: the defender's line 2 needs troops in its line 1; line 3 needs lines 1 and 2.
    state = example_state("attacks", control=full_control({"E": WEST}))
    state = place(place(state, EAST, "Speed", "F"), WEST, "Infantry", "E")
    assert refusal(state, order(WEST, ATTACK, ["Infantry"], "E", "D")) == (
        "line_requirement", {"territory": "D", "line": 1})
    assert refusal(state, order(WEST, ATTACK, ["Infantry"], "E", "H"))[1]["line"] == 1
    with_front = example_state("attacks", control=full_control({"E": WEST, "B": WEST}))
    with_front = place(place(place(with_front, EAST, "Speed", "F"), WEST, "Infantry", "E"),
                       WEST, "Scouts", "B")
    accepted(with_front, order(WEST, ATTACK, ["Infantry"], "E", "D"))
    accepted(with_front, order(WEST, ATTACK, ["Infantry"], "E", "H"))


def test_air_detachments_do_not_meet_the_line_requirement():
    state = example_state("attacks", control=full_control({"E": WEST, "B": WEST}))
    state = place(place(place(state, EAST, "Speed", "F"), WEST, "Infantry", "E"),
                  WEST, "Thunderhawks", "B")
    assert refusal(state, order(WEST, ATTACK, ["Infantry"], "E", "D"))[0] == "line_requirement"


def test_retaking_ones_own_territory_needs_adjacency_only():
    # G8: 5 is west's own line 2; east holds it and nothing of west's line 1 is east's.
    state = example_state("attacks", control=full_control({"5": EAST}))
    state = place(place(state, WEST, "Titans", "6"), EAST, "Speed", "5")
    accepted(state, order(WEST, ATTACK, ["Titans"], "6", "5"))
    # …while east attacking 4 (west line 2) from 5 needs east troops in west line 1.
    assert refusal(state, order(EAST, ATTACK, ["Speed"], "5", "4")) == (
        "line_requirement", {"territory": "4", "line": 1})


def test_an_attack_may_not_strip_a_major():
    state = example_state("attacks", control=full_control({"2": EAST}))
    state = place(state, EAST, "Speed", "2")
    assert refusal(state, order(WEST, ATTACK, ["Guard 1"], "1", "2")) == (
        "major_unguarded", {"territory": "1"})


def test_one_attack_per_territory_and_per_isolated_territory():
    state = place(example_state("attacks"), WEST, "Scouts", "7")
    state = run(state, order(WEST, ATTACK, ["Armour"], "7", "A"))
    assert refusal(state, order(WEST, ATTACK, ["Scouts"], "7", "A")) == (
        "multiple_attacks_unsupported", {"territory": "7"})  # G7
    isolated = replace(state, isolated=frozenset({"7"}))
    assert refusal(isolated, order(WEST, ATTACK, ["Scouts"], "7", "A")) == (
        "isolated_attack_limit", {"territory": "7"})  # R34


def test_a_detachment_attacks_or_reacts_once():
    state = run(example_state("attacks"), order(WEST, ATTACK, ["Armour"], "7", "A"))
    attack = run(state, order(EAST, ATTACK, ["Boyz"], "B", "8")).orders[-1]
    state = run(state, order(EAST, ATTACK, ["Boyz"], "B", "8"))
    assert refusal(state, order(WEST, REACTION, ["Armour"], "7", "8", attack.id)) == (
        "detachment_already_committed", {"detachment": "Armour"})


def wide_front_state() -> CampaignState:
    """West (VS 0: 4 attacks) faces east in 4–6 and A–C, with troops in 1–3 and 7–9 and its
    Supreme Commander in 8; no majors, so any territory may attack."""
    control = full_control({"4": EAST, "5": EAST, "6": EAST})
    dets = (det("W1", WEST, "1"), det("W2", WEST, "2"), det("W3", WEST, "3"),
            det("W7", WEST, "7"), det("HQ", WEST, "8", supreme_commander=True), det("W8", WEST, "8"),
            det("W9", WEST, "9"), det("E4", EAST, "4"), det("E5", EAST, "5"), det("E6", EAST, "6"),
            det("EA", EAST, "A"), det("EB", EAST, "B"), det("EC", EAST, "C"))
    return CampaignState(control=control, detachments=dets, strategic_values={WEST: 0, EAST: 0},
                         phase="attacks")


def test_attacks_up_to_the_initiative_value_then_one_hasty_attack():
    # R28: 4 attacks; the Supreme Commander in line 8's column adds one single-detachment attack.
    state = run(wide_front_state(), order(WEST, ATTACK, ["W1"], "1", "4"),
                order(WEST, ATTACK, ["W2"], "2", "5"), order(WEST, ATTACK, ["W3"], "3", "6"),
                order(WEST, ATTACK, ["W7"], "7", "A"))
    assert refusal(state, order(WEST, ATTACK, ["W8", "HQ"], "8", "B")) == (
        "attack_allowance_exceeded", {"limit": 4})
    assert accepted(state, order(WEST, ATTACK, ["W8"], "8", "B")).bonus == "supreme_commander"
    state = run(state, order(WEST, ATTACK, ["W8"], "8", "B"))
    assert refusal(state, order(WEST, ATTACK, ["W9"], "9", "C"))[0] == "attack_allowance_exceeded"


# Reactions ----------------------------------------------------------------------------------

def attacked_seven():
    state = run(example_state("attacks"), order(EAST, ATTACK, ["Gunz"], "A", "7"))
    return state, state.orders[-1].id


def test_reactions_from_an_adjacent_territory_or_the_same_line():
    state, attack = attacked_seven()
    accepted(state, order(WEST, REACTION, ["Infantry"], "8", "7", attack))
    accepted(state, order(WEST, REACTION, ["Scouts"], "9", None, attack))  # same line, not adjacent
    accepted(state, order(WEST, REACTION, ["HQ"], "4", "7", attack))
    assert refusal(state, order(WEST, REACTION, ["Titans"], "5", "7", attack)) == (
        "reaction_source_not_adjacent", {"from": "5", "to": "7"})


@pytest.mark.parametrize(("one", "code"), [
    (order(WEST, REACTION, ["Infantry"], "8", "7", 99), "reaction_attack_unknown"),
    (order(WEST, REACTION, ["Infantry"], "8", "7", None), "reaction_attack_unknown"),
    (order(WEST, REACTION, ["Infantry"], "8", "9", 1), "reaction_target_mismatch"),
    (order(WEST, REACTION, ["Infantry", "Scouts"], "8", "7", 1), "single_detachment_required"),
    (order(EAST, REACTION, ["Boyz"], "B", "7", 1), "reaction_attack_unknown"),
])
def test_reaction_refusals(one, code):
    state, _ = attacked_seven()
    assert refusal(state, one)[0] == code


def test_a_territory_under_attack_cannot_send_reactions():
    state, first = attacked_seven()
    state = run(state, order(EAST, ATTACK, ["Boyz"], "B", "8"))
    assert refusal(state, order(WEST, REACTION, ["Infantry"], "8", "7", first)) == (
        "reaction_source_under_attack", {"territory": "8"})


def test_isolated_detachments_cannot_react():
    state, attack = attacked_seven()
    state = replace(state, isolated=frozenset({"8"}))
    assert refusal(state, order(WEST, REACTION, ["Infantry"], "8", "7", attack))[0] == "detachment_isolated"


def test_a_reaction_may_not_strip_a_major():
    # East holds 7 and attacks 4; Guard 1 is next to 4 but is major 1's only guard (R10).
    state = example_state("attacks", control=full_control({"7": EAST}))
    state = place(place(state, WEST, "Armour", "8"), EAST, "Gunz", "7")
    state = run(state, order(EAST, ATTACK, ["Gunz"], "7", "4"))
    assert refusal(state, order(WEST, REACTION, ["Guard 1"], "1", "4", state.orders[-1].id)) == (
        "major_unguarded", {"territory": "1"})


def test_reactions_up_to_the_initiative_value():
    # East at VS 0 has 4 reactions (R16, R29).
    state = example_state("attacks", strategic_values={WEST: 5, EAST: 0})
    state = replace(state, detachments=(
        *state.detachments, det("Extra D", EAST, "D"), det("Extra E", EAST, "E")))
    state = place(state, EAST, "Nobz", "F")
    state = run(state, order(WEST, ATTACK, ["Armour"], "7", "A"),
                order(WEST, ATTACK, ["Infantry"], "8", "B"), order(WEST, ATTACK, ["Scouts"], "9", "C"))
    on_a, on_b, on_c = (a.id for a in state.orders)
    state = run(state, order(EAST, REACTION, ["Boss"], "D", "A", on_a),
                order(EAST, REACTION, ["Speed"], "E", "B", on_b),
                order(EAST, REACTION, ["Nobz"], "F", "C", on_c),
                order(EAST, REACTION, ["Extra D"], "D", "A", on_a))
    assert allowances(state, EAST)[REACTION].left == 0
    assert refusal(state, order(EAST, REACTION, ["Extra E"], "E", "B", on_b)) == (
        "reaction_allowance_exceeded", {"limit": 4})


def test_apply_refuses_with_the_code():
    with pytest.raises(OrderRefused) as refused:
        apply_order(example_state(), order(WEST, MOVE, ["Armour"], "7", "A"))
    assert refused.value.refusal.code == "move_into_enemy"


# Properties over any sequence of orders ------------------------------------------------------

# An intent is resolved against the state it is applied to, so most intents make orders that
# are close to legal (the detachment's own territory, a neighbour, an open enemy attack).
INTENT = st.tuples(st.sampled_from((WEST, EAST)), st.integers(0, 30), st.integers(0, 30),
                   st.integers(0, 30), st.booleans(), st.integers(0, 9))


def resolve(state: CampaignState, kinds, intent):
    side, who, where, which, single, oddity = intent
    kind = kinds[which % len(kinds)]
    mine = [d for d in state.detachments if d.side == side]
    chosen = mine[who % len(mine)]
    origin = chosen.location
    if oddity == 0:  # now and then a wild target anywhere on the map
        to = CODES[where % len(CODES)]
    else:
        around = sorted(neighbours(origin)) if origin else list(CODES)
        to = around[where % len(around)]
    if kind == FORTIFY:
        return order(side, FORTIFY, (), None, to)
    if kind == REACTION:
        attacks = state.accepted(EAST if side == WEST else WEST, (ATTACK,))
        target = attacks[where % len(attacks)] if attacks else None
        return order(side, REACTION, [chosen.name], origin, None, target.id if target else None)
    names = [chosen.name]
    if kind == ATTACK and not single and origin:
        names = [d.name for d in state.at(origin, side)]
    return order(side, kind, names, origin, to)


def guarded_majors(state: CampaignState) -> bool:
    for code in state.majors:
        side = home_side(code)
        if state.control[code] != side:
            continue
        committed = state.committed(side)
        if not any(d.holds_ground and d.name not in committed for d in state.at(code, side)):
            return False
    return True


def within_allowances(state: CampaignState) -> bool:
    for side in (WEST, EAST):
        for kind, allowance in allowances(state, side).items():
            if allowance.used > allowance.limit:
                return False
            bonus = [a.commander for a in state.accepted(side, (kind,)) if a.bonus]
            commanders = {d.name for d in state.detachments if d.side == side and d.supreme_commander}
            if len(bonus) != len(set(bonus)) or not set(bonus) <= commanders:
                return False
    return True


def isolation_respected(state: CampaignState) -> bool:
    """R34: nothing moved or reacted out of an isolated territory, one attack per isolated one."""
    for accepted_order in state.orders:
        one = accepted_order.order
        if one.kind in (MOVE, REACTION) and one.from_ in state.isolated:
            return False
    froms = [a.order.from_ for a in state.accepted(kinds=(ATTACK,))]
    return all(froms.count(code) <= 1 for code in state.isolated)


STARTS = st.sampled_from([
    example_state(),
    example_state(isolated=frozenset({"7", "B"})),
    example_state(control=full_control({"7": EAST, "A": WEST, "4": EAST})),
])


@settings(max_examples=200, deadline=None)
@given(STARTS, st.lists(INTENT, max_size=30), st.lists(INTENT, max_size=30),
       st.sampled_from((0, 0, 1, 5, 10)), st.sampled_from((0, 0, 1, 5, 10)))
def test_accepted_orders_never_break_allowances_majors_or_commitments(start, moves, attacks, sv_w, sv_e):
    state = replace(start, strategic_values={WEST: sv_w, EAST: sv_e})
    for phase, kinds, intents in (("moves", (MOVE, MOVE, FORTIFY), moves),
                                  ("attacks", (ATTACK, REACTION), attacks)):
        state = replace(state, phase=phase)
        for intent in intents:
            one = resolve(state, kinds, intent)
            if not check_order(state, one).accepted:
                continue
            before = state
            state, _ = apply_order(state, one)
            if one.kind == MOVE:  # a move only ever goes to a friendly, adjacent territory
                name = one.detachments[0]
                moved = state.detachment(one.side, name).location
                assert state.control[moved] == one.side
                origin = before.detachment(one.side, name).location
                assert origin is None or moved in neighbours(origin)  # R13: landings from orbit
            assert guarded_majors(state)
            assert within_allowances(state)
            assert isolation_respected(state)
        for side in (WEST, EAST):
            acting = [n for a in state.accepted(side, (ATTACK, REACTION)) for n in a.order.detachments]
            assert len(acting) == len(set(acting))  # G10


# Sealed declarations (G11) ------------------------------------------------------------------

def test_sealed_orders_are_interleaved_from_the_chosen_side():
    west = [order(WEST, MOVE, ["Armour"], "7", "8"), order(WEST, MOVE, ["Scouts"], "9", "6"),
            order(WEST, MOVE, ["Infantry"], "8", "7")]
    east = [order(EAST, MOVE, ["Gunz"], "A", "D")]
    assert interleave(EAST, {WEST: west, EAST: east}) == (east[0], west[0], west[1], west[2])
    assert interleave(WEST, {WEST: west[:1], EAST: east}) == (west[0], east[0])


def test_sealed_orders_that_became_illegal_are_refused_and_the_rest_applied():
    west = [order(WEST, MOVE, ["Armour"], "7", "8"), order(WEST, MOVE, ["Armour"], "7", "4"),
            order(WEST, MOVE, ["Scouts"], "9", "6")]
    state, outcomes = apply_sealed(example_state(), WEST, {WEST: west, EAST: []})
    kinds = [type(result).__name__ for _, result in outcomes]
    assert kinds == ["AcceptedOrder", "Refusal", "AcceptedOrder"]
    assert outcomes[1][1].code == "detachment_not_in_territory"
    assert state.detachment(WEST, "Scouts").location == "6"
