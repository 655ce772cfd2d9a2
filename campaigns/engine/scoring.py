"""Score rules of *Score* and *Modificateurs de score* (R35–R40) and the victory check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from campaigns.engine.map import CODES, SIDES, enemy, home_side
from missions.dice import Roller

VICTORY_SCORE = 24  # R35: « lorsque le score d'un joueur atteint 24 »; editable (G26)
POINTS_PER_BATTLE_POINT = 1000  # R37: « +1 point par 1000 points … (arrondir à l'entier inferieur) »
POINTS_PER_ISOLATION_POINT = 250  # R39: « -1 point par 250 points … (arrondir à l'entier supérieur) »
SWEPT_PENALTY = 1  # R38: « Un détachement est "balayé" … -1 point »

# R36: « territoire majeur ennemi +2 points par tour … mineur +1 … » and the matching losses.
MAJOR_POINTS, MINOR_POINTS = 2, 1
EVERY_TURN_HELD, ONCE = "every_turn_held", "once"  # G16, campaign setting territory_scoring
TERRITORY_SCORING = (EVERY_TURN_HELD, ONCE)

# R40: « Votre Score Modificateur: - de 0 -1 / 0-10 0 / + de 10 +1 ».
LOW_SCORE, HIGH_SCORE = 0, 10
# R40 « 1D6 Bonus Pénalité » exactly as written; G19: 3–4 reads −1 (probably a typo for 0) and is
# kept until the organisers say otherwise. Editable data: a campaign may pass its own table.
OTHER_SECTORS_TABLE: Mapping[int, int] = {1: -2, 2: -1, 3: -1, 4: -1, 5: 1, 6: 2}
PURPOSE_OTHER_SECTORS = "epic.other_sectors"

# Score entry kinds (the ledger's ``kind``).
BATTLE_WON, SWEPT, ISOLATED_LOST = "battle_won", "swept", "isolated_lost"
TERRITORY_HELD, TERRITORY_LOST, OTHER_SECTORS = "territory_held", "territory_lost", "other_sectors"

# Victory reasons.
BY_SCORE, ALL_TERRITORIES, SURRENDER = "score", "all_territories", "surrender"


def battle_win_points(enemy_points: int) -> int:
    """R37 with G17: 1 per full 1,000 points of the enemy force in the battle."""
    if enemy_points < 0:
        raise ValueError("points cannot be negative")
    return enemy_points // POINTS_PER_BATTLE_POINT


def detachment_loss_penalty(points: int, *, isolated: bool, swept: bool) -> int:
    """Points lost (a positive number) for one lost detachment: R38 −1 if swept, R39 −1 per
    started 250 of its points (G18) if it was isolated; « Ne se cumule pas … prendre la solution
    faisant perdre le plus de points », so the larger of the two, never both."""
    if points < 0:
        raise ValueError("points cannot be negative")
    isolation = -(-points // POINTS_PER_ISOLATION_POINT) if isolated else 0
    return max(isolation, SWEPT_PENALTY if swept else 0)


@dataclass(frozen=True)
class ScoreEntry:
    """One line of the ledger: ``points`` is signed; ``subject`` names a territory or detachment."""

    side: str
    kind: str
    points: int
    subject: str = ""


def territory_entries(
    control: Mapping[str, str], majors: frozenset[str], *, mode: str = EVERY_TURN_HELD,
    captured: frozenset[str] = frozenset(),
) -> tuple[ScoreEntry, ...]:
    """R36 at the turn close: for each territory held by the enemy of its home side, the holder
    gains 2 (major) or 1 (minor) and the home side loses as much.

    G16 ``every_turn_held`` (default) scores every territory so held at each close; ``once``
    scores only those in ``captured`` (taken from their home side this turn).
    """
    if mode not in TERRITORY_SCORING:
        raise ValueError(f"territory scoring must be one of {TERRITORY_SCORING}")
    entries: list[ScoreEntry] = []
    for code in CODES:
        home, holder = home_side(code), control[code]
        if holder == home or (mode == ONCE and code not in captured):
            continue
        value = MAJOR_POINTS if code in majors else MINOR_POINTS
        entries.append(ScoreEntry(holder, TERRITORY_HELD, value, code))
        entries.append(ScoreEntry(home, TERRITORY_LOST, -value, code))
    return tuple(entries)


def score_modifier(score: int) -> int:
    """R40: −1 below 0, 0 from 0 to 10, +1 above 10."""
    if score < LOW_SCORE:
        return -1
    return 1 if score > HIGH_SCORE else 0


@dataclass(frozen=True)
class OtherSectors:
    """One side's end-of-turn D6 (R40): the die, its modifier, the kept result and the change."""

    die: int
    modifier: int
    modified: int
    delta: int
    new_score: int


def other_sectors(
    die: int, score: int, table: Mapping[int, int] = OTHER_SECTORS_TABLE, clamp: bool = True,
) -> OtherSectors:
    """The other-sectors result for a side whose score is ``score`` before the roll.

    G19: the modified result is kept within 1–6 (the seed's table has no 0 or 7).
    """
    if not 1 <= die <= 6:
        raise ValueError("a D6 shows 1 to 6")
    modifier = score_modifier(score)
    modified = die + modifier
    if clamp:
        modified = min(max(modified, 1), 6)
    delta = table[modified]
    return OtherSectors(die, modifier, modified, delta, score + delta)


def roll_other_sectors(
    roller: Roller, score: int, side: str | None = None,
    table: Mapping[int, int] = OTHER_SECTORS_TABLE,
) -> OtherSectors:
    roll = roller.roll("D6", PURPOSE_OTHER_SECTORS, actor=side)
    return other_sectors(roll.total, score, table)


@dataclass(frozen=True)
class Victory:
    side: str
    reason: str


def victory(
    control: Mapping[str, str], scores: Mapping[str, int], *,
    threshold: int = VICTORY_SCORE, surrendered: frozenset[str] = frozenset(),
) -> Victory | None:
    """R35: a side wins when its opponent surrenders, when it holds every territory, or when its
    score reaches ``threshold``. G21: both at the threshold → the higher wins; equal → play on."""
    for side in SIDES:
        if side in surrendered and enemy(side) not in surrendered:
            return Victory(enemy(side), SURRENDER)
    for side in SIDES:
        if all(control[code] == side for code in CODES):
            return Victory(side, ALL_TERRITORIES)
    reached = [side for side in SIDES if scores.get(side, 0) >= threshold]
    if len(reached) == 1:
        return Victory(reached[0], BY_SCORE)
    if len(reached) == 2 and scores[reached[0]] != scores[reached[1]]:
        return Victory(max(reached, key=lambda s: scores[s]), BY_SCORE)
    return None
