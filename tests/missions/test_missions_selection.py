"""Mission selection by D6 (rules §2.5, api-v1 missions/roll)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from missions.dice import DiceError, Roll, Roller
from missions.selection import roll_mission
from tests.missions.cod_catalogue import SPECIAL, STANDARD

seeds = st.integers(min_value=0, max_value=2**63 - 1)
modes = st.sampled_from(["reroll", "special"])


@given(seeds, modes)
def test_same_seed_same_mission(seed, mode):
    assert roll_mission(Roller(seed), mode, STANDARD, SPECIAL) == roll_mission(
        Roller(seed), mode, STANDARD, SPECIAL
    )


@pytest.mark.parametrize("mode", ["reroll", "special"])
def test_every_standard_mission_comes_up_over_many_seeds(mode):
    slugs = {roll_mission(Roller(seed), mode, STANDARD, SPECIAL).slug for seed in range(300)}
    assert set(STANDARD) <= slugs


def test_every_special_mission_comes_up_with_special():
    slugs = {roll_mission(Roller(seed), "special", STANDARD, SPECIAL).slug for seed in range(600)}
    assert set(SPECIAL) <= slugs


@settings(max_examples=300)
@given(seeds)
def test_reroll_rerolls_every_six_and_ends_on_the_table(seed):
    result = roll_mission(Roller(seed), "reroll", STANDARD)
    assert result.kind == "standard"
    assert all(face == 6 for face in result.rolls[:-1])
    assert result.rolls[-1] != 6
    # §2.5: results 1-5 name the standard missions in order.
    assert result.slug == STANDARD[result.rolls[-1] - 1]


def test_reroll_does_reroll_sixes_for_some_seed():
    assert any(len(roll_mission(Roller(s), "reroll", STANDARD).rolls) > 1 for s in range(100))


@settings(max_examples=300)
@given(seeds)
def test_special_mode(seed):
    result = roll_mission(Roller(seed), "special", STANDARD, SPECIAL)
    if result.rolls[0] == 6:
        assert result.kind == "special"
        assert len(result.rolls) == 2
        assert result.slug == SPECIAL[result.rolls[1] - 1]
    else:
        assert result.kind == "standard"
        assert result.rolls == (result.rolls[0],)
        assert result.slug == STANDARD[result.rolls[0] - 1]


@given(seeds, modes)
def test_log_matches_rolls_and_roller(seed, mode):
    roller = Roller(seed)
    result = roll_mission(roller, mode, STANDARD, SPECIAL)
    assert tuple(r.total for r in result.log) == result.rolls
    assert result.log == roller.rolls
    assert all(1 <= face <= 6 for face in result.rolls)


@pytest.mark.parametrize(
    ("mode", "standard", "special"),
    [
        ("agree", STANDARD, SPECIAL),
        ("reroll", STANDARD[:4], SPECIAL),
        ("special", STANDARD, SPECIAL[:5]),
    ],
)
def test_bad_arguments(mode, standard, special):
    with pytest.raises(ValueError):
        roll_mission(Roller(1), mode, standard, special)


class _AlwaysSix(Roller):
    def roll(self, expression, purpose, actor=None):
        return Roll(0, purpose, "1D6", (6,), 6, actor)


def test_endless_sixes_stop_with_an_error():
    with pytest.raises(DiceError):
        roll_mission(_AlwaysSix(1), "reroll", STANDARD)
