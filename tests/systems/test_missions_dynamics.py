"""W40K Dynamics (seed 004_353b34e43c4d7e4e.txt): tokens, passes, advantage, morale, pre-game."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.dice import DiceMissing, EnteredRoller, Roller
from missions.pregame import DynamicsPregameResult, pregame
from systems.w40k4 import dynamics
from systems.w40k4.dynamics import UnitInitiative, Vehicle
from tests.missions.cod_catalogue import MISSIONS

seeds = st.integers(min_value=0, max_value=2**63 - 1)
points = st.integers(min_value=1, max_value=100_000)
PLAYERS = ("A", "B")


def test_seed_example_1500_points_is_one_sheet_of_30():
    # « pour une bataille de 1500pts, il faut un minimum de 6 pions de chaque type d'ordre, par
    # joueur. Soit une de nos planches de 30 pions » (Matériel de jeu).
    for rounding in dynamics.ROUNDINGS:
        count = dynamics.tokens(1500, rounding)
        assert (count.per_order, count.total, count.sheets) == (6, 30, 1)
        assert count.orders == dict.fromkeys(
            ["deplacement-tactique", "marche-forcee", "tir", "assaut", "frappe-en-profondeur"], 6)


@pytest.mark.parametrize(("pts", "ceil", "floor"), [
    (1, 1, 1), (249, 1, 1), (250, 1, 1), (251, 2, 1), (1750, 7, 7), (1850, 8, 7), (1999, 8, 7), (3001, 13, 12),
])
def test_started_or_complete_blocks_of_250(pts, ceil, floor):
    # DG1: "par tranche de 250pts" read as started blocks (default) or complete blocks.
    assert dynamics.tokens(pts).per_order == ceil
    assert dynamics.tokens(pts, "floor").per_order == floor


def test_sheets_hold_six_of_each_order():
    # DG3: one sheet = 6 of each type; 7 per order needs a second sheet.
    assert dynamics.tokens(1501).sheets == 2
    assert dynamics.tokens(3000).sheets == 2
    assert dynamics.tokens(3001).sheets == 3


@given(points, points, st.sampled_from(dynamics.ROUNDINGS))
def test_tokens_never_decrease_with_points(a, b, rounding):
    low, high = sorted((a, b))
    assert dynamics.tokens(low, rounding).per_order <= dynamics.tokens(high, rounding).per_order
    assert dynamics.tokens(low, rounding).total <= dynamics.tokens(high, rounding).total


@given(points)
def test_token_counts_are_consistent(pts):
    ceil, floor = dynamics.tokens(pts), dynamics.tokens(pts, "floor")
    assert floor.per_order <= ceil.per_order <= floor.per_order + 1
    assert ceil.per_order * 250 >= pts  # never too few with the default
    for count in (ceil, floor):
        assert count.total == 5 * count.per_order
        assert (count.sheets - 1) * 6 < count.per_order <= count.sheets * 6


def test_tokens_refuse_bad_input():
    with pytest.raises(ValueError):
        dynamics.tokens(0)
    with pytest.raises(ValueError):
        dynamics.tokens(100, "round")


@pytest.mark.parametrize(("models", "expected"), [
    ([4], 4), ([4, 4, 4, 1], 4), ([3, 3, 4], 3),
    ([4, 4, 3, 3], 3),  # no majority: mean of 4 and 3 = 3.5, rounded down (DG8)
    ([5, 5, 2, 2, 3], 3), ([6, 6, 5, 5, 4, 4], 5),
])
def test_majority_initiative(models, expected):
    # « on considère la valeur majoritaire (arrondie à l'inférieur si besoin) ».
    assert dynamics.unit_initiative(models) == expected


@given(st.lists(st.integers(1, 10), min_size=1, max_size=30))
def test_majority_stays_within_the_models_values(models):
    assert min(models) <= dynamics.unit_initiative(models) <= max(models)


@pytest.mark.parametrize(("driver", "types", "carried", "expected", "warnings"), [
    (4, ["tank"], None, 3, ()),  # Marine driver (« 4 pour un marine »), Char -1
    (3, ["tank"], None, 2, ()),  # Guardsman (« 3 pour un garde impérial »)
    (2, ["skimmer"], None, 3, ()),  # Necron (« 2 pour un nécron »), Antigrav +1
    (4, ["fast", "skimmer", "tank"], None, 5, ()),  # modifiers add up (DG6): 4 - 1 + 1 + 1
    (4, ["supersonic", "fast"], None, 7, ()),
    (3, ["super_heavy"], None, 1, ()),
    (4, ["tank", "transport"], 4, 4, ()),  # a transport never below its passengers (DG7)
    (4, ["tank", "transport"], 2, 3, ()),  # the floor only lifts
    (2, ["transport"], 4, 4, ()),  # a driver already below its passengers: max(driver + mods, carried)
    (4, ["tank"], 5, 3, ("carried_initiative_ignored",)),  # not a transport
])
def test_vehicle_initiative(driver, types, carried, expected, warnings):
    assert dynamics.vehicle_initiative(Vehicle(driver, frozenset(types), carried)) == (expected, warnings)


def test_results_outside_1_to_10_are_clamped_with_a_warning():
    low = dynamics.unit_pass(UnitInitiative("Baneblade", vehicle=Vehicle(2, frozenset({"super_heavy"}))))
    high = dynamics.unit_pass(UnitInitiative("Jet", vehicle=Vehicle(9, frozenset({"supersonic", "fast"}))))
    assert (low.pass_, low.warnings) == (1, ("initiative_clamped",))
    assert (high.pass_, high.warnings) == (10, ("initiative_clamped",))
    assert dynamics.unit_pass(UnitInitiative("Odd", initiative=0)).pass_ == 1


def test_unknown_vehicle_type_is_refused():
    with pytest.raises(ValueError):
        Vehicle(4, frozenset({"walker"}))


def test_pass_plan_reveals_up_and_resolves_down():
    # « de l'Init 1 jusqu'à 10 » to reveal; resolution from the highest Initiative down.
    plan = dynamics.passes([
        UnitInitiative("Marines", initiative=4), UnitInitiative("Guard", initiative=3),
        UnitInitiative("Rhino", vehicle=Vehicle(4, frozenset({"tank", "transport"}), 4)),
        UnitInitiative("Mixed", models_initiative=(5, 5, 4)), UnitInitiative("Unknown"),
    ])
    assert plan.reveal == (3, 4, 5) and plan.resolve == (5, 4, 3)
    assert plan.by_pass == {3: ("Guard",), 4: ("Marines", "Rhino"), 5: ("Mixed",)}
    assert plan.units[-1].pass_ is None and plan.units[-1].warnings == ("initiative_missing",)


def test_vehicle_comes_before_models_before_a_single_value():
    unit = UnitInitiative("X", initiative=9, models_initiative=(2, 2), vehicle=Vehicle(4, frozenset()))
    assert dynamics.unit_pass(unit).pass_ == 4
    assert dynamics.unit_pass(UnitInitiative("Y", initiative=9, models_initiative=(2, 2))).pass_ == 2


def test_advantage_modifiers():
    # « +1 si vous avez finit le placement des ordres avant votre adversaire »; « +2 … le rôle de
    # celui qui doit normalement commencer la bataille ».
    test = dynamics.advantage_test(EnteredRoller([3, 5]), PLAYERS, bonus_now="B", permanent="A")
    assert test.modifiers == {"A": 2, "B": 1}
    assert [r.total for r in test.rolls] == [3, 5] and test.winner == "B"
    both = dynamics.advantage_test(EnteredRoller([1, 5]), PLAYERS, bonus_now="A", permanent="A")
    assert both.modifiers == {"A": 3, "B": 0} and both.winner == "B"


def test_advantage_ties_are_rolled_again_and_every_die_is_kept():
    # DG4: a tie (4 + 2 against 6) is re-rolled by both players.
    test = dynamics.advantage_test(EnteredRoller([4, 6, 2, 1]), PLAYERS, permanent="A")
    assert [(r.actor, r.total) for r in test.rolls] == [("A", 4), ("B", 6), ("A", 2), ("B", 1)]
    assert test.winner == "A"
    with pytest.raises(DiceMissing):
        dynamics.advantage_test(EnteredRoller([4, 6]), PLAYERS, permanent="A")


def test_advantage_refuses_a_bonus_for_someone_else():
    with pytest.raises(ValueError):
        dynamics.advantage_test(Roller(1), PLAYERS, bonus_now="C")


@pytest.mark.parametrize(("models", "pending", "rule", "required", "minimum"), [
    (8, 2, "at_least", True, 2),  # exactly 25 %: « 25% ou plus »
    (8, 2, "more_than", False, 3),  # F.A.Q.: « plus de 25% »
    (10, 2, "at_least", False, 3), (10, 3, "at_least", True, 3),
    (10, 3, "more_than", True, 3), (1, 0, "at_least", False, 1), (1, 1, "more_than", True, 1),
])
def test_morale_threshold(models, pending, rule, required, minimum):
    check = dynamics.morale_check(models, pending, rule)
    assert (check.test_required, check.minimum_casualties) == (required, minimum)
    assert check.fraction == pending / models


@given(st.integers(1, 500), st.sampled_from(dynamics.MORALE_RULES))
def test_minimum_casualties_is_the_first_count_that_requires_the_test(models, rule):
    minimum = dynamics.morale_check(models, 0, rule).minimum_casualties
    assert 1 <= minimum <= models
    assert dynamics.morale_check(models, minimum, rule).test_required
    assert not dynamics.morale_check(models, minimum - 1, rule).test_required


@pytest.mark.parametrize(("models", "pending"), [(0, 0), (5, 6), (5, -1)])
def test_morale_refuses_impossible_counts(models, pending):
    with pytest.raises(ValueError):
        dynamics.morale_check(models, pending)


# DG11 and the contract: attacker for le-defi, attaque-eclair, assassinat; defender for
# assaut-general; nobody for roll-off missions.
EXPECTED_ADVANTAGE = {"le-defi": "attacker", "attaque-eclair": "attacker", "assassinat": "attacker",
                      "assaut-general": "defender"}


@given(seeds, st.sampled_from(sorted(MISSIONS)), st.sampled_from(("alpha", "gamma", "omega")))
def test_dynamics_pregame_drops_the_first_turn_and_keeps_every_other_roll(seed, mission, level):
    standard = pregame(Roller(seed), MISSIONS[mission], level, PLAYERS)
    result = pregame(Roller(seed), MISSIONS[mission], level, PLAYERS, turn_system="dynamics")
    assert isinstance(result, DynamicsPregameResult)
    # « il n'y a pas de premier ou de second joueur, aussi ce test est inutile et il est donc supprimé »
    assert "first_turn" not in {roll.purpose for roll in result.rolls}
    assert result.rolls == tuple(r for r in standard.rolls if r.purpose != "first_turn")
    assert result.goes_first is None and result.first_turn_chooser is None
    assert (result.attacker, result.declares_first, result.deploys_first, result.dawn_dusk) == (
        standard.attacker, standard.declares_first, standard.deploys_first, standard.dawn_dusk)
    role = EXPECTED_ADVANTAGE.get(mission)
    expected = {"attacker": result.attacker, "defender": result.defender}.get(role)
    assert result.permanent_advantage == expected
    if role:
        assert expected == standard.goes_first  # the player who would normally have started


def test_standard_pregame_is_unchanged():
    result = pregame(Roller(3), MISSIONS["le-defi"], "alpha", PLAYERS)
    assert not isinstance(result, DynamicsPregameResult)
    assert not hasattr(result, "permanent_advantage")
    with pytest.raises(ValueError):
        pregame(Roller(3), MISSIONS["le-defi"], "alpha", PLAYERS, turn_system="alternate")
