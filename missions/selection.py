"""Mission selection by die roll (rules §2.5; api-v1 ``POST /api/v1/missions/roll/``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from missions.dice import DiceError, Roll, Roller

ON_SIX_MODES = ("reroll", "special")
STANDARD_COUNT = 5
SPECIAL_COUNT = 6
# A run of 1000 sixes has probability 6**-1000: the cap only guarantees the loop ends.
MAX_REROLLS = 1000

PURPOSE_MISSION = "mission"
PURPOSE_SPECIAL = "mission_special"


@dataclass(frozen=True)
class MissionRoll:
    """The mission picked, its kind, the die faces in order and the logged rolls."""

    slug: str
    kind: str
    rolls: tuple[int, ...]
    log: tuple[Roll, ...] = ()


def roll_mission(
    roller: Roller,
    on_six: str,
    standard: Sequence[str],
    special: Sequence[str] = (),
) -> MissionRoll:
    """Roll a D6 on the mission table.

    ``standard`` holds the slugs for results 1–5. On a 6 (who decides is a [Gap] in §2.5, so the
    tournament setting ``on_six`` decides): ``reroll`` rolls again until the die is not a 6;
    ``special`` rolls a further D6 and picks ``special[d - 1]`` (the 6 in catalogue order).
    """
    if on_six not in ON_SIX_MODES:
        raise ValueError(f"on_six must be one of {ON_SIX_MODES}, not {on_six!r}")
    if len(standard) != STANDARD_COUNT:
        raise ValueError(f"expected {STANDARD_COUNT} standard missions, got {len(standard)}")
    if on_six == "special" and len(special) != SPECIAL_COUNT:
        raise ValueError(f"expected {SPECIAL_COUNT} special missions, got {len(special)}")
    log: list[Roll] = []
    for _ in range(MAX_REROLLS + 1):
        first = roller.roll("D6", PURPOSE_MISSION)
        log.append(first)
        if first.total != 6:
            return _result(standard[first.total - 1], "standard", log)
        if on_six == "special":
            log.append(roller.roll("D6", PURPOSE_SPECIAL))
            return _result(special[log[-1].total - 1], "special", log)
    raise DiceError(f"the mission die showed 6 more than {MAX_REROLLS} times in a row")


def _result(slug: str, kind: str, log: list[Roll]) -> MissionRoll:
    return MissionRoll(slug, kind, tuple(r.total for r in log), tuple(log))
