"""Objective outcomes to a winner (rules §6.1–§6.5, §8.2–§8.7)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from missions.objectives import OUTCOME_FIELDS, OutcomeError, decide
from missions.victory import SideScore, VpResult

SIDES = ("Ann", "Bob")
ROLES = {"Ann": "attacker", "Bob": "defender"}


def vp(winner):
    """A VP result won by ``winner`` (None: equal totals)."""
    points = {"Ann": (10, 5), "Bob": (5, 10), None: (10, 10)}[winner]
    scores = (SideScore("Ann", points[0], ()), SideScore("Bob", points[1], ()))
    return VpResult(scores, winner, abs(points[0] - points[1]))


def run(kind, outcome, **kw):
    kw.setdefault("roles", ROLES)
    return decide(kind, outcome, sides=SIDES, **kw)


@pytest.mark.parametrize(
    ("kind", "outcome", "winner", "reason"),
    [
        # §6.1 Accrochage: most flags wins; equal flags [Gap] a draw.
        ("flags", {"flags": {"Ann": 3, "Bob": 2}}, "Ann", "most_flags"),
        ("flags", {"flags": {"Ann": 0, "Bob": 1}}, "Bob", "most_flags"),
        ("flags", {"flags": {"Ann": 2, "Bob": 2}}, None, "equal_flags"),
        # §6.2 Position Stratégique: the occupier wins; nobody occupying it is a draw.
        ("capture_building", {"holder": "Bob"}, "Bob", "building_held"),
        ("capture_building", {"holder": None}, None, "building_unheld"),
        # §6.3 Domination: most ruins occupied.
        ("hold", {"ruins": {"Ann": 1, "Bob": 4}}, "Bob", "most_ruins"),
        ("hold", {"ruins": {"Ann": 0, "Bob": 0}}, None, "equal_ruins"),
        # §6.5 Assaut Urbain: occupying the enemy's ruin wins; both or neither is a draw.
        (
            "enemy_positions",
            {"occupies_enemy_ruin": {"Ann": True, "Bob": False}},
            "Ann",
            "enemy_position_taken",
        ),
        (
            "enemy_positions",
            {"occupies_enemy_ruin": {"Ann": True, "Bob": True}},
            None,
            "both_positions_taken",
        ),
        (
            "enemy_positions",
            {"occupies_enemy_ruin": {"Ann": False, "Bob": False}},
            None,
            "no_position_taken",
        ),
        # §8.2 Le Défi: at least half of his units off the table.
        ("breakout", {"units_exited": 5, "units_starting": 10}, "Ann", "breakout_succeeded"),
        ("breakout", {"units_exited": 4, "units_starting": 10}, "Bob", "breakout_failed"),
        ("breakout", {"units_exited": 3, "units_starting": 5}, "Ann", "breakout_succeeded"),
        ("breakout", {"units_exited": 2, "units_starting": 5}, "Bob", "breakout_failed"),
        # §8.3 Dévastation Totale: HQ ruin destroyed, or the defender wins.
        ("destroy_hq_ruin", {"hq_ruin_destroyed": True}, "Ann", "hq_ruin_destroyed"),
        ("destroy_hq_ruin", {"hq_ruin_destroyed": False}, "Bob", "not_hq_ruin_destroyed"),
        # §8.4 Renforts.
        ("reinforce", {"building_captured": True}, "Ann", "building_captured"),
        ("reinforce", {"building_captured": False}, "Bob", "not_building_captured"),
        # §8.5 Assaut Général.
        ("plant_all_flags", {"all_flags_planted": True}, "Ann", "all_flags_planted"),
        ("plant_all_flags", {"all_flags_planted": False}, "Bob", "not_all_flags_planted"),
    ],
)
def test_objective_table(kind, outcome, winner, reason):
    decision = run(kind, outcome)
    assert (decision.winner, decision.reason) == (winner, reason)


@pytest.mark.parametrize("kind", ["annihilation", "blitz"])
@pytest.mark.parametrize(
    ("winner", "reason"), [("Ann", "most_vp"), ("Bob", "most_vp"), (None, "equal_vp")]
)
def test_vp_objectives(kind, winner, reason):
    # §6.4 and §8.6: the player with the most victory points wins.
    decision = run(kind, {}, vp=vp(winner))
    assert (decision.winner, decision.reason) == (winner, reason)


@pytest.mark.parametrize(("vp_winner", "expected"), [("Ann", "Ann"), ("Bob", "Bob"), (None, None)])
def test_assassination_with_target_dead_goes_to_vp(vp_winner, expected):
    # §8.7: the HQ destroyed -> most VP wins.
    decision = run("assassination", {"target_hq_destroyed": True}, vp=vp(vp_winner))
    assert decision.winner == expected


@pytest.mark.parametrize("vp_winner", ["Ann", "Bob", None])
def test_assassination_with_target_alive_goes_to_defender(vp_winner):
    # §8.7: the HQ survives -> the defender wins whatever the VP.
    decision = run("assassination", {"target_hq_destroyed": False}, vp=vp(vp_winner))
    assert (decision.winner, decision.reason) == ("Bob", "target_hq_survived")


def test_roles_decide_who_the_attacker_is():
    flipped = {"Ann": "defender", "Bob": "attacker"}
    assert run("reinforce", {"building_captured": True}, roles=flipped).winner == "Bob"


def test_breakout_basis_is_a_parameter():
    # §8.2 [Ambiguity]: half of the starting army, or of the units left at the end.
    outcome = {"units_exited": 3, "units_starting": 10, "units_destroyed": 4}
    assert run("breakout", outcome).winner == "Bob"
    assert run("breakout", outcome, breakout_basis="surviving").winner == "Ann"
    wiped = {"units_exited": 0, "units_starting": 4, "units_destroyed": 4}
    assert run("breakout", wiped, breakout_basis="surviving").winner == "Bob"


def test_equal_counts_may_fall_back_on_vp():
    outcome = {"flags": {"Ann": 2, "Bob": 2}}
    decision = run("flags", outcome, tie_break_by_vp=True, vp=vp("Bob"))
    assert (decision.winner, decision.reason) == ("Bob", "equal_flags_vp")


@pytest.mark.parametrize(
    ("kind", "outcome", "kw", "code"),
    [
        ("stalemate", {}, {}, "objective_kind_unknown"),
        ("flags", [], {}, "outcome_not_mapping"),
        ("flags", {}, {}, "outcome_key_missing"),
        ("flags", {"flags": {"Ann": 1, "Bob": 1}, "extra": 1}, {}, "outcome_key_unexpected"),
        ("flags", {"flags": {"Ann": 1}}, {}, "outcome_side_unknown"),
        ("flags", {"flags": {"Ann": 1, "Cy": 1}}, {}, "outcome_side_unknown"),
        ("flags", {"flags": {"Ann": -1, "Bob": 1}}, {}, "outcome_value_invalid"),
        ("flags", {"flags": {"Ann": "2", "Bob": 1}}, {}, "outcome_value_invalid"),
        ("flags", {"flags": {"Ann": True, "Bob": 1}}, {}, "outcome_value_invalid"),
        ("capture_building", {"holder": "Cy"}, {}, "outcome_side_unknown"),
        (
            "enemy_positions",
            {"occupies_enemy_ruin": {"Ann": 1, "Bob": 0}},
            {},
            "outcome_value_invalid",
        ),
        ("reinforce", {"building_captured": "yes"}, {}, "outcome_value_invalid"),
        ("reinforce", {"building_captured": True}, {"roles": None}, "roles_required"),
        (
            "reinforce",
            {"building_captured": True},
            {"roles": {"Ann": "attacker", "Bob": "attacker"}},
            "roles_required",
        ),
        ("breakout", {"units_exited": 6, "units_starting": 5}, {}, "outcome_counts_inconsistent"),
        (
            "breakout",
            {"units_exited": 3, "units_starting": 5, "units_destroyed": 3},
            {},
            "outcome_counts_inconsistent",
        ),
        ("annihilation", {}, {}, "vp_required"),
        ("assassination", {"target_hq_destroyed": True}, {}, "vp_required"),
        ("flags", {"flags": {"Ann": 1, "Bob": 1}}, {"tie_break_by_vp": True}, "vp_required"),
    ],
)
def test_bad_outcomes(kind, outcome, kw, code):
    with pytest.raises(OutcomeError) as err:
        run(kind, outcome, **kw)
    assert err.value.code == code


def test_vp_winner_must_be_a_side():
    stranger = VpResult((SideScore("Ann", 1, ()), SideScore("Cy", 2, ())), "Cy", 1)
    with pytest.raises(OutcomeError) as err:
        run("blitz", {}, vp=stranger)
    assert err.value.code == "outcome_side_unknown"


def test_every_objective_kind_has_a_shape():
    from missions.catalogue_types import OBJECTIVE_KINDS

    assert set(OUTCOME_FIELDS) == set(OBJECTIVE_KINDS)


@given(st.sampled_from(["flags", "hold"]), st.integers(0, 20), st.integers(0, 20))
def test_count_objectives_are_symmetric(kind, a, b):
    key = "flags" if kind == "flags" else "ruins"
    forward = decide(kind, {key: {"Ann": a, "Bob": b}}, sides=SIDES)
    backward = decide(kind, {key: {"Ann": b, "Bob": a}}, sides=SIDES)
    swap = {"Ann": "Bob", "Bob": "Ann", None: None}
    assert backward.winner == swap[forward.winner]
    assert (forward.winner is None) == (a == b)
