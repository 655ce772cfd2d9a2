"""Dice thrown at the table (api-v1-systems "Dice thrown at the table"): an EnteredRoller fed the
seeded roller's faces gives exactly the seeded answer, whatever engine asked for the dice."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from missions.dice import (
    DiceExpression,
    DiceInvalid,
    DiceMissing,
    EnteredDiceError,
    EnteredRoller,
    Roller,
    roll_off,
)
from missions.pregame import TURN_SYSTEMS, pregame, random_game_length
from missions.selection import roll_mission
from systems.w40k4 import dynamics
from tests.missions.cod_catalogue import MISSIONS, SPECIAL, STANDARD

seeds = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = ("A", "B")
LEVELS = ("alpha", "gamma", "omega")

# Each procedure takes a roller and returns a comparable answer.
PROCEDURES = {
    "mission_reroll": lambda r: roll_mission(r, "reroll", STANDARD, SPECIAL),
    "mission_special": lambda r: roll_mission(r, "special", STANDARD, SPECIAL),
    "roll_off": lambda r: roll_off(r, "x", PLAYERS, {"A": 1}),
    "advantage": lambda r: dynamics.advantage_test(r, PLAYERS, bonus_now="B", permanent="A"),
    "game_length": lambda r: random_game_length(r),
    "d3_plus_3": lambda r: r.roll("D3+3", "traps"),
    "night": lambda r: r.roll("2D6x3", "night"),
}


def faces(roller: Roller) -> list[int]:
    return [face for roll in roller.rolls for face in roll.dice]


def replay(procedure, seed):
    seeded = Roller(seed)
    expected = procedure(seeded)
    return expected, faces(seeded)


@settings(max_examples=60)
@given(seeds, st.sampled_from(sorted(PROCEDURES)))
def test_entered_faces_give_the_seeded_answer(seed, name):
    expected, thrown = replay(PROCEDURES[name], seed)
    entered = EnteredRoller(thrown)
    assert PROCEDURES[name](entered) == expected
    assert entered.unused_dice == ()
    assert entered.seed is None


@settings(max_examples=60)
@given(seeds, st.sampled_from(sorted(MISSIONS)), st.sampled_from(LEVELS), st.sampled_from(TURN_SYSTEMS))
def test_entered_faces_give_the_seeded_pregame(seed, mission, level, turn_system):
    def run(roller):
        return pregame(roller, MISSIONS[mission], level, PLAYERS, turn_system=turn_system)

    expected, thrown = replay(run, seed)
    assert run(EnteredRoller(thrown)) == expected


@given(seeds, st.lists(st.integers(), min_size=1, max_size=5))
def test_extra_faces_are_ignored_and_reported(seed, extra):
    expected, thrown = replay(PROCEDURES["roll_off"], seed)
    entered = EnteredRoller(thrown + extra)
    assert PROCEDURES["roll_off"](entered) == expected
    assert entered.unused_dice == tuple(extra)


@given(seeds, st.sampled_from(sorted(PROCEDURES)))
def test_one_face_too_few_is_dice_missing(seed, name):
    _, thrown = replay(PROCEDURES[name], seed)
    with pytest.raises(DiceMissing) as caught:
        PROCEDURES[name](EnteredRoller(thrown[:-1]))
    assert caught.value.code == "dice_missing"
    assert caught.value.params["given"] == len(thrown) - 1
    assert caught.value.params["needed"] >= len(thrown)


@pytest.mark.parametrize(("expression", "bad"), [("D6", 0), ("D6", 7), ("D3", 4), ("D3", 6), ("D10", 11), ("D6", -1)])
def test_a_face_outside_the_die_is_dice_invalid(expression, bad):
    with pytest.raises(DiceInvalid) as caught:
        EnteredRoller([bad]).roll(expression, "x")
    assert caught.value.code == "dice_invalid"
    die = f"D{DiceExpression(sides=int(expression[1:])).sides}"
    assert caught.value.params == {"position": 1, "face": bad, "die": die}


def test_the_position_counts_from_one_across_rolls():
    roller = EnteredRoller([3, 4, 9])
    roller.roll("2D6", "x")
    with pytest.raises(DiceInvalid) as caught:
        roller.roll("D6", "y")
    assert caught.value.params["position"] == 3


def test_entered_d3_reads_the_table_value_and_every_face_of_the_die_is_accepted():
    assert [EnteredRoller([face]).roll("D3+3", "traps").total for face in (1, 2, 3)] == [4, 5, 6]
    assert [EnteredRoller([face]).roll("D6", "x").total for face in range(1, 7)] == list(range(1, 7))


def test_entered_errors_are_not_value_errors():
    # The dice/roll endpoint reads a ValueError as a bad expression: entered-dice errors must not
    # be swallowed that way.
    assert not issubclass(EnteredDiceError, ValueError)


def test_sequence_and_log_behave_like_the_seeded_roller():
    roller = EnteredRoller([2, 5], sequence=7)
    first = roller.roll("D6", "a", actor="A")
    assert (first.sequence, first.dice, first.actor) == (7, (2,), "A")
    assert roller.next_sequence == 8 and roller.rolls == (first,)
