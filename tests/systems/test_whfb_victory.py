"""Warhammer Battle victory points with looting and baggage (seed 003, « Bagages d'armée »)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from systems.whfb.victory import BAGGAGE_BONUS, Loss, Side, VictoryInputError, conceded, score


def test_reported_victory_points_and_the_baggage_bonus():
    # « le joueur ayant capturé les bagages ennemis, peut réclamer 200 points de victoire »:
    # +200 to the captor only (WG8).
    result = score((Side("Empire", 1100), Side("Orcs", 1000)), baggage_captured_by="Orcs")
    assert [(s.name, s.victory_points, s.baggage_bonus) for s in result.sides] == [
        ("Empire", 1100, 0), ("Orcs", 1200, 200)]
    assert (result.difference, result.winner) == (100, "Orcs")


def test_looting_units_give_nothing_to_the_opponent():
    # « L'unité ne revient pas sur le champ de bataille … mais ne compte pas comme points de
    # victoire pour l'adversaire ».
    losses = (Loss("Knights", 250, looting=True), Loss("Spearmen", 120), Loss("Cannon", 100))
    result = score((Side("Bretonnia", losses=losses), Side("Dwarfs")))
    assert result.sides[1].victory_points == 220 and result.sides[0].victory_points == 0
    assert result.winner == "Dwarfs"


def test_reported_points_win_over_losses_and_equal_points_are_a_tie():
    result = score((Side("A", 300, (Loss("x", 500),)), Side("B", 300)))
    assert (result.difference, result.winner) == (0, None)


@given(st.lists(st.tuples(st.integers(0, 1000), st.booleans()), max_size=20))
def test_conceded_counts_only_units_that_did_not_loot(losses):
    units = tuple(Loss(f"u{i}", pts, looting) for i, (pts, looting) in enumerate(losses))
    assert conceded(units) == sum(pts for pts, looting in losses if not looting)
    assert score((Side("A"), Side("B", losses=units)), "A").sides[0].victory_points == conceded(units) + BAGGAGE_BONUS


def test_bad_sides():
    with pytest.raises(VictoryInputError) as same:
        score((Side("A"), Side("A")))
    assert same.value.code == "side_names_duplicate"
    with pytest.raises(VictoryInputError) as captor:
        score((Side("A"), Side("B")), "C")
    assert (captor.value.code, captor.value.params) == ("baggage_captor_unknown", {"name": "C"})
