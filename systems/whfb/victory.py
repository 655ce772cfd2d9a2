"""Warhammer Battle victory points with the seed 003 adjustments: looting units and baggage.

Pure: no Django. The WFB core VP rules are not in the seeds (WG7): a side scores the victory
points it reports, or else the points of the other side's losses. Seed 003, « Bagages d'armée »:
a unit that left by the enemy's edge to loot « ne compte pas comme points de victoire pour
l'adversaire » (W-R7), and « le joueur ayant capturé les bagages ennemis, peut réclamer 200
points de victoire à son adversaire » (W-R8): +200 to the captor only (WG8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from config.refusals import CodedRefusal

BAGGAGE_BONUS = 200


class VictoryInputError(CodedRefusal, ValueError):
    """Sides that cannot be scored: a stable ``code`` and message params."""


@dataclass(frozen=True)
class Loss:
    """A unit a side lost; ``looting`` marks a unit that left by the enemy's edge to loot."""

    name: str
    points: int
    looting: bool = False


@dataclass(frozen=True)
class Side:
    """One side as reported: its own victory points, or None to score the other side's losses."""

    name: str
    victory_points: int | None = None
    losses: tuple[Loss, ...] = ()


@dataclass(frozen=True)
class SideScore:
    """A side's victory points, baggage bonus included, and that bonus on its own."""

    name: str
    victory_points: int
    baggage_bonus: int


@dataclass(frozen=True)
class VictoryResult:
    sides: tuple[SideScore, SideScore]
    difference: int
    winner: str | None


def conceded(losses: Sequence[Loss]) -> int:
    """The victory points a side's losses give the enemy: looting units give nothing (W-R7)."""
    return sum(loss.points for loss in losses if not loss.looting)


def score(sides: tuple[Side, Side], baggage_captured_by: str | None = None) -> VictoryResult:
    """Both sides' victory points, the difference and the side with more (None on a tie)."""
    first, second = sides
    if first.name == second.name:
        raise VictoryInputError("side_names_duplicate", name=first.name)
    if baggage_captured_by is not None and baggage_captured_by not in (first.name, second.name):
        raise VictoryInputError("baggage_captor_unknown", name=baggage_captured_by)

    def scored(side: Side, enemy: Side) -> SideScore:
        base = side.victory_points if side.victory_points is not None else conceded(enemy.losses)
        bonus = BAGGAGE_BONUS if baggage_captured_by == side.name else 0
        return SideScore(side.name, base + bonus, bonus)

    a, b = scored(first, second), scored(second, first)
    winner = None if a.victory_points == b.victory_points else (
        a.name if a.victory_points > b.victory_points else b.name)
    return VictoryResult((a, b), abs(a.victory_points - b.victory_points), winner)
