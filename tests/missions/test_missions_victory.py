"""Victory points (rules §5.2, §7.6, §8.6, §8.7; api-v1 POST /api/v1/victory-points/)."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.victory import (
    SideState,
    UnitState,
    VpInputError,
    VpRules,
    conceded,
    is_operational,
    score,
    validate_unit,
)
from tests.missions.cod_catalogue import MISSIONS

BOTH = VpRules("both")
BLITZ = MISSIONS["attaque-eclair"].victory_points
ASSASSINATION = MISSIONS["assassinat"].victory_points


def infantry(points, start, left, name="squad", **kw):
    return UnitState(name, points, "infantry", start, left, **kw)


def vehicle(points, damage="none", name="tank", **kw):
    return UnitState(
        name, points, "vehicle", 1, 0 if damage == "destroyed" else 1, vehicle_damage=damage, **kw
    )


def character(points, wounds, left, name="hero", **kw):
    return UnitState(name, points, "character", 1, 1 if left else 0, wounds, left, **kw)


@pytest.mark.parametrize(
    ("unit", "expected_conceded", "expected_operational"),
    [
        # §5.2 / §7.6: below 25% of starting models concedes half; exactly 25% concedes nothing.
        (infantry(100, 16, 16), 0, True),
        (infantry(100, 16, 4), 0, True),
        (infantry(100, 16, 3), 50, False),
        (infantry(100, 16, 0), 100, False),
        (infantry(100, 10, 3), 0, True),
        (infantry(100, 10, 2), 50, False),
        (infantry(75, 10, 1), 37, False),  # half rounded down
        (infantry(100, 4, 1), 0, True),  # 1 of 4 is exactly 25%
        (infantry(100, 5, 1), 50, False),  # 1 of 5 is 20%
        (infantry(100, 1, 1), 0, True),
        # api-v1: a falling-back unit concedes its full points.
        (infantry(100, 10, 9, falling_back=True), 100, False),
        # api-v1: a character counts its starting wounds.
        (character(60, 3, 3), 0, True),
        (character(60, 3, 1), 0, True),  # 1 of 3 wounds is above 25%
        (character(60, 4, 1), 0, True),  # exactly 25%
        (character(60, 5, 1), 30, False),  # 20%
        (character(60, 3, 0), 60, False),
        (UnitState("hero", 60, "character", 1, 1), 0, True),  # no wounds given: counted by models
        (UnitState("hero", 60, "character", 1, 0), 60, False),
        # api-v1: vehicles concede half when damaged and full when destroyed.
        (vehicle(150), 0, True),
        (vehicle(150, "damaged"), 75, False),
        (vehicle(155, "damaged"), 77, False),
        (vehicle(150, "destroyed"), 150, False),
        # Exited units still concede their losses but are off the table, so not operational.
        (infantry(100, 10, 10, exited=True), 0, False),
        (vehicle(150, "damaged", exited=True), 75, False),
    ],
)
def test_unit_table(unit, expected_conceded, expected_operational):
    assert conceded(unit) == expected_conceded
    assert is_operational(unit) is expected_operational


def test_offensive_majeure_example():
    # §6.4 + §7.6: each side scores what the enemy concedes plus its own operational units.
    ann = SideState("Ann", None, (infantry(100, 10, 10, "a1"), infantry(50, 5, 0, "a2")))
    bob = SideState("Bob", None, (infantry(200, 10, 2, "b1"), vehicle(80, name="b2")))
    result = score((ann, bob), MISSIONS["offensive-majeure"].victory_points)
    assert [s.victory_points for s in result.sides] == [100 + 100, 50 + 80]
    assert (result.winner, result.margin) == ("Ann", 70)
    assert [(u.name, u.operational, u.conceded) for u in result.sides[1].units] == [
        ("b1", False, 100),
        ("b2", True, 0),
    ]


def test_attaque_eclair_example():
    # §8.6: the attacker adds the points of units that left the table; the defender doubles
    # what he scores for attacker units destroyed or damaged.
    attacker = SideState(
        "Ann",
        "attacker",
        (
            infantry(150, 10, 8, "runners", exited=True),
            vehicle(60, "damaged", name="limping"),
            infantry(40, 5, 5, "holding"),
        ),
    )
    defender = SideState(
        "Bob", "defender", (infantry(100, 10, 0, "dead"), infantry(90, 10, 10, "ok"))
    )
    result = score((attacker, defender), BLITZ)
    ann, bob = result.sides
    assert ann.victory_points == 100 + 40 + 150
    assert bob.victory_points == 2 * 30 + 90
    assert result.winner == "Ann"
    assert result.margin == 290 - 150


def test_assassinat_only_the_attacker_adds_survivors():
    # §8.7: the attacker's remaining scoring units are added to his VP; the defender's are not.
    attacker = SideState("Ann", "attacker", (infantry(100, 5, 5),))
    defender = SideState("Bob", "defender", (infantry(300, 10, 10), character(50, 3, 0)))
    result = score((attacker, defender), ASSASSINATION)
    assert [s.victory_points for s in result.sides] == [50 + 100, 0]


def test_no_own_points_when_rules_say_none():
    ann = SideState("Ann", None, (infantry(100, 10, 10),))
    bob = SideState("Bob", None, (infantry(80, 10, 1),))
    result = score((ann, bob), VpRules("none"))
    assert [s.victory_points for s in result.sides] == [40, 0]


def test_equal_totals_have_no_winner():
    side = (infantry(100, 10, 10),)
    result = score((SideState("Ann", None, side), SideState("Bob", None, side)), BOTH)
    assert (result.winner, result.margin) == (None, 0)


@pytest.mark.parametrize(
    ("unit", "code"),
    [
        (infantry(100, 10, 11), "unit_remaining_models_invalid"),
        (infantry(100, 10, -1), "unit_remaining_models_invalid"),
        (infantry(100, 0, 0), "unit_starting_models_invalid"),
        (infantry(-5, 10, 10), "unit_points_negative"),
        (UnitState("x", 10, "monster", 1, 1), "unit_type_unknown"),
        (UnitState("x", 10, "character", 1, 1, 3, None), "unit_wounds_incomplete"),
        (character(10, 3, 4), "unit_remaining_wounds_invalid"),
        (character(10, 0, 0), "unit_starting_wounds_invalid"),
        (infantry(10, 5, 5, vehicle_damage="damaged"), "vehicle_damage_not_vehicle"),
        (UnitState("x", 10, "vehicle", 1, 1, vehicle_damage="wrecked"), "vehicle_damage_unknown"),
        (infantry(10, 5, 0, exited=True), "unit_exited_destroyed"),
        (infantry(10, 5, 5, exited=True, falling_back=True), "unit_exited_destroyed"),
    ],
)
def test_impossible_units_are_rejected(unit, code):
    with pytest.raises(VpInputError) as err:
        validate_unit(unit)
    assert err.value.code == code
    assert err.value.params["unit"] == unit.name


@pytest.mark.parametrize(
    ("sides", "rules", "code"),
    [
        ((SideState("A", None, ()), SideState("A", None, ())), BOTH, "side_names_duplicate"),
        ((SideState("A", "attacker", ()), SideState("B", "attacker", ())), BOTH, "roles_invalid"),
        ((SideState("A", "attacker", ()), SideState("B", None, ())), BOTH, "roles_invalid"),
        ((SideState("A", "umpire", ()), SideState("B", "defender", ())), BOTH, "role_unknown"),
        ((SideState("A", None, ()), SideState("B", None, ())), BLITZ, "roles_required"),
        ((SideState("A", None, ()),), BOTH, "sides_count"),
    ],
)
def test_bad_sides(sides, rules, code):
    with pytest.raises(VpInputError) as err:
        score(sides, rules)
    assert err.value.code == code


def test_vp_rules_validate_their_mode():
    with pytest.raises(ValueError):
        VpRules("everyone")


# Property tests ------------------------------------------------------------------------------


@st.composite
def units(draw, name="u"):
    kind = draw(st.sampled_from(["infantry", "vehicle", "character"]))
    points = draw(st.integers(0, 500))
    if kind == "vehicle":
        damage = draw(st.sampled_from(["none", "damaged", "destroyed"]))
        return vehicle(
            points, damage, name=name, exited=draw(st.booleans()) and damage != "destroyed"
        )
    if kind == "character":
        wounds = draw(st.integers(1, 6))
        left = draw(st.integers(0, wounds))
        return character(points, wounds, left, name=name, exited=draw(st.booleans()) and left > 0)
    start = draw(st.integers(1, 30))
    left = draw(st.integers(0, start))
    falling = draw(st.booleans())
    exited = draw(st.booleans()) and left > 0 and not falling
    return infantry(points, start, left, name, falling_back=falling, exited=exited)


sides_units = st.lists(units(), max_size=6).map(tuple)
rule_sets = st.builds(
    VpRules, st.sampled_from(["both", "attacker", "none"]), st.booleans(), st.booleans()
)


@given(st.integers(0, 500), st.integers(1, 40), st.data())
def test_more_losses_never_concede_less(points, start, data):
    more = data.draw(st.integers(0, start))
    fewer = data.draw(st.integers(0, more))
    assert conceded(infantry(points, start, fewer)) >= conceded(infantry(points, start, more))


@given(st.integers(0, 500))
def test_vehicle_damage_never_concedes_less(points):
    values = [conceded(vehicle(points, d)) for d in ("none", "damaged", "destroyed")]
    assert values == sorted(values)


@given(st.integers(1, 40), st.integers(0, 40), st.integers(0, 500))
def test_threshold_is_strictly_below_a_quarter(start, left, points):
    left = min(left, start)
    unit = infantry(points, start, left)
    if left == 0:
        expected = points
    elif 100 * left < 25 * start:  # "below 25%", computed independently in percent
        expected = points // 2
    else:
        expected = 0
    assert conceded(unit) == expected
    assert is_operational(unit) is (left > 0 and 100 * left >= 25 * start)


@given(units())
def test_conceded_is_none_half_or_full(unit):
    assert conceded(unit) in {0, unit.points // 2, unit.points}


@given(sides_units, sides_units, rule_sets)
def test_totals_follow_the_sum_rule(a_units, b_units, rules):
    a = SideState("A", "attacker", a_units)
    b = SideState("B", "defender", b_units)
    result = score((a, b), rules)

    def expected(side, enemy):
        losses = sum(conceded(u) for u in enemy.units)
        if rules.defender_doubles and side.role == "defender":
            losses *= 2
        own = 0
        if rules.own_operational == "both" or (
            rules.own_operational == "attacker" and side.role == "attacker"
        ):
            own = sum(u.points for u in side.units if is_operational(u))
        exits = (
            sum(u.points for u in side.units if u.exited)
            if rules.attacker_scores_exits and side.role == "attacker"
            else 0
        )
        return losses + own + exits

    totals = [s.victory_points for s in result.sides]
    assert totals == [expected(a, b), expected(b, a)]
    assert result.margin == abs(totals[0] - totals[1])
    if totals[0] != totals[1]:
        assert result.winner == ("A" if totals[0] > totals[1] else "B")
    else:
        assert result.winner is None


@given(sides_units, sides_units, rule_sets)
def test_swapping_sides_swaps_results(a_units, b_units, rules):
    a = SideState("A", "attacker", a_units)
    b = SideState("B", "defender", b_units)
    forward = score((a, b), rules)
    backward = score((b, a), rules)
    assert backward.sides == forward.sides[::-1]
    assert (backward.winner, backward.margin) == (forward.winner, forward.margin)


@given(units())
def test_operational_means_on_table_and_intact(unit):
    assert is_operational(unit) == (not unit.exited and conceded(replace(unit, points=2)) == 0)
