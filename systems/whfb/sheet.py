"""Warhammer Battle's boxes on a table sheet (systems/sheets): the mantlets, stakes and baggage
advanced rules, each printed only where the event uses it."""
from __future__ import annotations

from typing import Any

from printing.data import BaggageBox, MantletsBox, StakesBox
from systems.sheets import SheetBlock
from systems.whfb.victory import BAGGAGE_BONUS


def _advanced(kit: Any, rule: str) -> bool:
    return bool((kit.tournament.advanced_rules or {}).get(rule))


def mantlets_box(kit: Any) -> MantletsBox | None:
    return MantletsBox() if _advanced(kit, "mantlets") else None


def stakes_box(kit: Any) -> StakesBox | None:
    return StakesBox() if _advanced(kit, "stakes") else None


def baggage_box(kit: Any) -> BaggageBox | None:
    return BaggageBox(BAGGAGE_BONUS) if _advanced(kit, "baggage") else None


BOXES = {"mantlets": SheetBlock(mantlets_box), "stakes": SheetBlock(stakes_box),
         "baggage": SheetBlock(baggage_box)}
