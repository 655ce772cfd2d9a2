"""G11: who declares next in the alternating mode, what a side may know of the enemy's sealed
orders, and the replay of a turn's orders in the sealed mode's interleaved order."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from campaigns.engine.declaration import PhaseDeclarations, next_declarer, seen_by
from campaigns.engine.map import EAST, SIDES, WEST, enemy
from campaigns.engine.orders import apply_order
from campaigns.engine.replay import replay, replay_all
from campaigns.engine.state import ATTACK, MOVE, REACTION
from tests.campaigns.epic_campaign_states import example_state, order

counts = st.fixed_dictionaries({WEST: st.integers(0, 20), EAST: st.integers(0, 20)})


def test_the_chosen_side_declares_first_then_they_alternate():
    assert next_declarer(EAST, {WEST: 0, EAST: 0}) == EAST
    assert next_declarer(EAST, {WEST: 0, EAST: 1}) == WEST
    assert next_declarer(EAST, {WEST: 1, EAST: 1}) == EAST


def test_a_ready_side_lets_the_other_go_on_alone_and_nobody_is_due_once_both_are():
    assert next_declarer(WEST, {WEST: 3, EAST: 0}, {EAST}) == WEST
    assert next_declarer(WEST, {WEST: 0, EAST: 0}, {WEST}) == EAST
    assert next_declarer(WEST, {WEST: 0, EAST: 0}, {WEST, EAST}) is None
    assert next_declarer(None, {WEST: 0, EAST: 0}) is None  # before the initiative


@given(first=st.sampled_from(SIDES), declared=counts)
def test_in_alternation_no_side_is_ever_more_than_one_order_ahead(first, declared):
    due = next_declarer(first, declared)
    second = enemy(first)
    if declared[first] <= declared[second]:
        assert due == first
    else:
        assert due == second
    # Declaring as told keeps the counts within one of each other, the first side ahead.
    after = {**declared, due: declared[due] + 1}
    if abs(declared[first] - declared[second]) <= 1 and declared[first] >= declared[second]:
        assert 0 <= after[first] - after[second] <= 1


def test_phase_declarations_read_back_what_they_wrote_and_ignore_junk():
    found = PhaseDeclarations(EAST, frozenset({WEST}), True)
    assert PhaseDeclarations.from_data(found.data()) == found
    assert PhaseDeclarations.from_data({"first": "north", "ready": "west", "revealed": 0}) == \
        PhaseDeclarations()


def test_a_side_does_not_see_the_enemys_sealed_move_nor_its_sealed_attack():
    state = example_state("moves")
    state, moved = apply_order(state, order(WEST, MOVE, ["Scouts"], "9", "8"))
    assert state.detachment(WEST, "Scouts").location == "8"
    east_view = seen_by(state, EAST, {moved.id})
    assert east_view.detachment(WEST, "Scouts").location == "9" and east_view.orders == ()
    assert seen_by(state, WEST, {moved.id}) == state  # its own
    assert seen_by(state, None, {moved.id}) == state  # staff
    assert seen_by(state, EAST, set()) == state  # revealed
    attacks = example_state("attacks")
    attacks, attack = apply_order(attacks, order(WEST, ATTACK, ["Armour"], "7", "A"))
    assert seen_by(attacks, EAST, {attack.id}).attacked() == frozenset()
    assert seen_by(attacks, WEST, {attack.id}).attacked() == {"A"}


def test_interleaving_the_attacks_before_the_reactions_refuses_a_reaction_from_a_territory_attacked_later():
    """East reacted from C (same line as A) while C was not yet attacked; revealed, the attacks
    come first and C is under attack when the reaction is checked (G10, R29)."""
    state = example_state("attacks")
    state, w1 = apply_order(state, order(WEST, ATTACK, ["Armour"], "7", "A"))
    state, e1 = apply_order(state, order(EAST, REACTION, ["Kults"], "C", None, w1.id))
    state, w2 = apply_order(state, order(WEST, ATTACK, ["Scouts"], "9", "C"))
    as_declared = replay(state, [w1, e1, w2], frozenset())
    assert as_declared[2] is None
    after, now, refused = replay_all(state, [w1, w2, e1], frozenset())
    assert set(now) == {w1.id, w2.id}
    assert refused[e1.id].code == "reaction_source_under_attack"
    assert after.attacked() == {"A", "C"} and after.accepted(EAST, (REACTION,)) == ()
    # An order an organiser forced through is never refused by a replay.
    _after, now, refused = replay_all(state, [w1, w2, e1], frozenset({e1.id}))
    assert refused == {} and e1.id in now
