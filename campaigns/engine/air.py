"""The dice gates of air missions, landings and infiltration that the seed itself gives (R14,
R21, R25); the fights behind them are Epic 40,000 rules the players resolve (G27)."""

from __future__ import annotations

from collections.abc import Sequence

# R25: « Sur un résultat de 6, le joueur peut examiner la fiche … 5 … combien de machines de
# guerre … 1, les unités s'infiltrant … sont capturées … (les unités aériennes ignorent un
# résultat de 1) »; 2–4: nothing.
FULL_SHEET, WAR_ENGINES, NOTHING, CAPTURED = "full_sheet", "war_engines", "none", "captured"
FLAK_FIRES_ON = 6  # R21: « Sur un résultat de 6, ce détachement peut tirer »


def _d6(die: int) -> int:
    if not 1 <= die <= 6:
        raise ValueError("a D6 shows 1 to 6")
    return die


def infiltration_outcome(die: int, *, by_air: bool) -> str:
    """What one infiltration die against one enemy detachment reveals (R25)."""
    face = _d6(die)
    if face == 6:
        return FULL_SHEET
    if face == 5:
        return WAR_ENGINES
    if face == 1 and not by_air:
        return CAPTURED
    return NOTHING


def flak_fires(die: int) -> bool:
    """R21: each enemy detachment with Flak rolls 1D6 before the infiltration result."""
    return _d6(die) == FLAK_FIRES_ON


def interception_successes(dice: Sequence[int], values: Sequence[int]) -> int:
    """R14 with G23: one D6 per intercepting unit; a unit may act when its die is below its
    interception value (« si le résultat est inferieur à la valeur d'interception »)."""
    if len(dice) != len(values):
        raise ValueError("one die per intercepting unit")
    return sum(1 for die, value in zip(dice, values, strict=True) if _d6(die) < value)
