"""Setting the map up: majors, who places first, where a detachment may be placed, and whether
the campaign may start (R7, R10, R11, R13, G5, G28, G30)."""

from __future__ import annotations

from collections.abc import Mapping

from campaigns.engine.army import AIRBORNE
from campaigns.engine.map import EAST, WEST, home_side, territory
from campaigns.engine.state import CampaignState
from missions.dice import Roller, roll_off

PURPOSE_PLACEMENT = "epic.placement"


def first_to_place(strategic_values: Mapping[str, int], roller: Roller | None = None
                   ) -> tuple[str, object]:
    """R11: « L'armée possédant la valeur stratégique la plus basse place le premier
    détachement ». G5: equal values → a roll-off; its winner chooses and, by default, lets the
    other side place first (placing first shows one's hand). Returns the side and the roll-off
    (None when the values differ)."""
    west, east = strategic_values[WEST], strategic_values[EAST]
    if west != east:
        return (WEST if west < east else EAST), None
    if roller is None:
        raise ValueError("equal strategic values need a roller for the roll-off")
    result = roll_off(roller, PURPOSE_PLACEMENT, (WEST, EAST))
    return result.loser, result


def placement_refusal(state: CampaignState, side: str, name: str, code: str
                      ) -> tuple[str, dict] | None:
    """Why ``side`` may not place detachment ``name`` in ``code`` (None: it may)."""
    det = state.detachment(side, name)
    if det is None:
        return "detachment_unknown", {"detachment": name}
    try:
        territory(code)
    except ValueError:
        return "territory_unknown", {"territory": str(code)}
    if det.kind == AIRBORNE:  # R13: « ne sont pas déployés sur le plateau de jeu au début »
        return "airborne_starts_off_map", {"detachment": name}
    if det.location is not None:
        return "detachment_already_placed", {"detachment": name}
    if home_side(code) != side:  # « répartissez vos détachements entre eux » (your territories)
        return "placement_outside_sector", {"territory": code}
    return None


def unguarded_majors(state: CampaignState) -> tuple[str, ...]:
    """R10: each side's own majors that it holds with no ground detachment (G28), map order."""
    return tuple(sorted(
        code for code in state.majors
        if state.control[code] == home_side(code)
        and not any(d.holds_ground for d in state.at(code, home_side(code)))
    ))
