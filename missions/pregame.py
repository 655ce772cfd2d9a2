"""Pre-game rolls (rules §2.9, §6.0, §8) and the on-demand rolls of the mission special rules (§7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from missions.catalogue_types import DAWN_AND_DUSK, ROLES, MissionSpec
from missions.dice import Roll, Roller, RollOff, roll_off

PURPOSE_ROLES = "roles"
PURPOSE_DEPLOYMENT = "deployment"
PURPOSE_DECLARATION = "stratagem_declaration"
PURPOSE_DAWN_DUSK = "dawn_dusk"
PURPOSE_FIRST_TURN = "first_turn"

# Special missions whose deployment starts with a roll-off (quarters in §8.3, long edge in §8.5);
# in the others the roles decide who picks the zone.
DEPLOYMENT_ROLL_OFF_SPECIALS = frozenset({"devastation-totale", "assaut-general"})

NIGHT_NONE, NIGHT_TURN_1, NIGHT_FROM_TURN_6 = "none", "turn_1", "from_turn_6"

# W40K Dynamics (seed 004) has no first or second player: « ce test est inutile et il est donc
# supprimé » (D-R6); the player who would have started gets a permanent advantage instead.
TURN_STANDARD, TURN_DYNAMICS = "standard", "dynamics"
TURN_SYSTEMS = (TURN_STANDARD, TURN_DYNAMICS)


@dataclass(frozen=True)
class PregameChoices:
    """What a roll-off winner picks when the software must choose for them.

    The rules let each winner choose (§6.0, §3.2, §8.0); these are Muster's defaults.
    """

    winner_takes: str = "attacker"
    winner_declares_first: bool = True
    winner_goes_first: bool = True

    def __post_init__(self) -> None:
        if self.winner_takes not in ROLES:
            raise ValueError(f"winner_takes must be one of {ROLES}")


@dataclass(frozen=True)
class PregameResult:
    """Every pre-game roll in order and the decisions they lead to.

    ``dawn_dusk`` is None when the rule is not in play, else ``none``/``turn_1``/``from_turn_6``.
    ``deployment_chooser``/``deploys_first`` are None when the mission text, not a roll, decides.
    """

    players: tuple[str, str]
    rolls: tuple[Roll, ...]
    declaration_chooser: str
    declares_first: str
    goes_first: str | None
    attacker: str | None = None
    defender: str | None = None
    role_chooser: str | None = None
    deployment_chooser: str | None = None
    deploys_first: str | None = None
    dawn_dusk: str | None = None
    first_turn_chooser: str | None = None


@dataclass(frozen=True)
class DynamicsPregameResult(PregameResult):
    """The Dynamics variant: no first-turn roll, nobody goes first (``goes_first`` None), and the
    player the mission would have started holds the permanent +2 on advantage tests (or None)."""

    permanent_advantage: str | None = None


def pregame(
    roller: Roller,
    mission: MissionSpec,
    level: str,
    players: tuple[str, str],
    *,
    choices: PregameChoices | None = None,
    roles: Mapping[str, str] | None = None,
    strategy_ratings: Mapping[str, int] | None = None,
    deployment_roll_off: bool | None = None,
    turn_system: str = TURN_STANDARD,
) -> PregameResult:
    """Roll everything settled before the first turn, in the order of the rules.

    ``choices`` None uses the PregameChoices defaults. ``roles`` skips the role roll when the
    players agreed (§8.0). The strategy roll is not defined in the seeds [Gap]: it is a D6
    roll-off plus ``strategy_ratings`` (default: no modifier).
    ``deployment_roll_off`` None means: standard missions and DEPLOYMENT_ROLL_OFF_SPECIALS roll.
    ``turn_system`` ``dynamics`` skips the first-turn roll and returns a DynamicsPregameResult;
    every other roll is the same, in the same order.
    """
    if players[0] == players[1]:
        raise ValueError("a game needs two different players")
    if turn_system not in TURN_SYSTEMS:
        raise ValueError(f"turn_system must be one of {TURN_SYSTEMS}")
    choices = choices or PregameChoices()
    rolls: list[Roll] = []
    attacker, defender, role_chooser = _roles(
        roller, mission, players, choices, roles, strategy_ratings, rolls
    )
    if deployment_roll_off is None:
        deployment_roll_off = (
            mission.kind == "standard" or mission.slug in DEPLOYMENT_ROLL_OFF_SPECIALS
        )
    deployment = None
    if deployment_roll_off:
        # The winner picks the zone; the loser deploys first (§6.0 steps 1 and 4, §8.3).
        deployment = _logged(roll_off(roller, PURPOSE_DEPLOYMENT, players), rolls)
    declaration = _logged(roll_off(roller, PURPOSE_DECLARATION, players), rolls)
    dawn = None
    if DAWN_AND_DUSK in mission.special_rules(level):
        # After deployment, before deciding who goes first (§7.2).
        dawn_roll, dawn = dawn_and_dusk(roller)
        rolls.append(dawn_roll)
    common = {
        "players": players,
        "declaration_chooser": declaration.winner,
        "declares_first": _pick(declaration, choices.winner_declares_first),
        "attacker": attacker,
        "defender": defender,
        "role_chooser": role_chooser,
        "deployment_chooser": deployment.winner if deployment else None,
        "deploys_first": deployment.loser if deployment else None,
        "dawn_dusk": dawn,
    }
    if turn_system == TURN_DYNAMICS:
        advantage = fixed_first_player(mission.first_turn, attacker, defender)
        return DynamicsPregameResult(
            rolls=tuple(rolls), goes_first=None, permanent_advantage=advantage, **common
        )
    first_turn_chooser, goes_first = _first_turn(
        roller, mission, players, choices, attacker, defender, rolls
    )
    return PregameResult(
        rolls=tuple(rolls), goes_first=goes_first, first_turn_chooser=first_turn_chooser, **common
    )


def _logged(result: RollOff, rolls: list[Roll]) -> RollOff:
    rolls.extend(result.rolls)
    return result


def _pick(result: RollOff, winner_picks_first: bool) -> str:
    return result.winner if winner_picks_first else result.loser


def _roles(
    roller: Roller,
    mission: MissionSpec,
    players: tuple[str, str],
    choices: PregameChoices,
    agreed: Mapping[str, str] | None,
    strategy_ratings: Mapping[str, int] | None,
    rolls: list[Roll],
) -> tuple[str | None, str | None, str | None]:
    """(attacker, defender, roll winner) — all None for missions without roles."""
    if not mission.has_roles:
        return None, None, None
    if agreed is not None:
        by_role = {role: player for player, role in agreed.items()}
        if set(agreed) != set(players) or set(by_role) != set(ROLES):
            raise ValueError("agreed roles must give each player a different role")
        return by_role["attacker"], by_role["defender"], None
    result = _logged(roll_off(roller, PURPOSE_ROLES, players, strategy_ratings), rolls)
    if choices.winner_takes == "attacker":
        return result.winner, result.loser, result.winner
    return result.loser, result.winner, result.winner


def _first_turn(
    roller: Roller,
    mission: MissionSpec,
    players: tuple[str, str],
    choices: PregameChoices,
    attacker: str | None,
    defender: str | None,
    rolls: list[Roll],
) -> tuple[str | None, str]:
    """(roll winner or None, player going first)."""
    fixed = fixed_first_player(mission.first_turn, attacker, defender)
    if fixed is not None:
        return None, fixed
    result = _logged(roll_off(roller, PURPOSE_FIRST_TURN, players), rolls)
    return result.winner, _pick(result, choices.winner_goes_first)


def fixed_first_player(first_turn: str, attacker: str | None, defender: str | None) -> str | None:
    """The player the mission sends first by role, or None when a roll-off decides."""
    if first_turn == "attacker" and attacker:
        return attacker
    if first_turn == "defender" and defender:
        return defender
    return None


def is_night(dawn_dusk: str | None, turn: int) -> bool:
    """Whether night fighting (§7.3) applies on ``turn`` after the Dawn & Dusk result (§7.2, §7.4)."""
    if dawn_dusk == NIGHT_TURN_1:
        return turn == 1
    if dawn_dusk == NIGHT_FROM_TURN_6:
        return turn >= 6
    return False


def dawn_and_dusk(roller: Roller) -> tuple[Roll, str]:
    """Roll 1D6 for Dawn & Dusk (§7.2): 1 night on turn 1, 6 night from turn 6, else nothing."""
    result = roller.roll("D6", PURPOSE_DAWN_DUSK)
    effect = {1: NIGHT_TURN_1, 6: NIGHT_FROM_TURN_6}.get(result.total, NIGHT_NONE)
    return result, effect


def markers(roller: Roller, purpose: str, actor: str | None = None) -> Roll:
    """Roll the 1D3+3 markers or pieces of Traps, Obstacles and Sewer Rats (§3.5)."""
    return roller.roll("D3+3", purpose, actor)


def night_fighting_range(roller: Roller, actor: str | None = None) -> Roll:
    """Roll a unit's night-fighting range: 2D6 × 3 inches (§7.3); the total is the range."""
    return roller.roll("2D6x3", "night_fighting", actor)


EXTRA_TURN_ON = 4


@dataclass(frozen=True)
class GameLength:
    """The Random Game Length rolls made and the number of turns the game lasts."""

    rolls: tuple[Roll, ...]
    turns: int


def random_game_length(roller: Roller, last_turn: int = 6, max_extra: int = 3) -> GameLength:
    """Random Game Length (§7.4): after the last turn, 4+ adds a turn; stop on 1–3 or at the cap.

    Special missions do not state their length [Gap]: ``last_turn`` defaults to the standard 6.
    """
    if last_turn < 1 or max_extra < 0:
        raise ValueError("last_turn must be at least 1 and max_extra not negative")
    rolls: list[Roll] = []
    while len(rolls) < max_extra:
        rolls.append(roller.roll("D6", "game_length"))
        if rolls[-1].total < EXTRA_TURN_ON:
            return GameLength(tuple(rolls), last_turn + len(rolls) - 1)
    return GameLength(tuple(rolls), last_turn + len(rolls))


# Target meaning "arrives without a roll"; None in a table means "cannot arrive".
AUTOMATIC = 1


@dataclass(frozen=True)
class ReservesTable:
    """Minimum D6 for reserves to arrive, per turn (§7.5).

    The seed stops at turn 4 [Gap]: ``later`` applies from the turn after the last listed one;
    its default, AUTOMATIC, follows the 4th-edition rulebook (outside the seeds).
    """

    by_turn: Mapping[int, int | None] = field(
        default_factory=lambda: {1: None, 2: 4, 3: 3, 4: 2}, hash=False
    )
    later: int | None = AUTOMATIC

    def target(self, turn: int) -> int | None:
        """The minimum roll on ``turn`` (AUTOMATIC: no roll; None: cannot arrive)."""
        if turn < 1:
            raise ValueError("turns start at 1")
        if turn in self.by_turn:
            return self.by_turn[turn]
        if turn < max(self.by_turn, default=0):
            raise ValueError(f"the reserves table has no entry for turn {turn}")
        return self.later


DEFAULT_RESERVES_TABLE = ReservesTable()


@dataclass(frozen=True)
class ReservesRoll:
    """Whether a reserve unit arrives on ``turn``; ``roll`` is None when no die was needed."""

    turn: int
    target: int | None
    arrives: bool
    roll: Roll | None = None


def reserves_roll(
    roller: Roller,
    turn: int,
    table: ReservesTable = DEFAULT_RESERVES_TABLE,
    actor: str | None = None,
) -> ReservesRoll:
    """Roll for one force-organisation choice in reserve at the start of ``turn`` (§7.5)."""
    target = table.target(turn)
    if target is None:
        return ReservesRoll(turn, None, False)
    if target <= AUTOMATIC:
        return ReservesRoll(turn, target, True)
    result = roller.roll("D6", "reserves", actor)
    return ReservesRoll(turn, target, result.total >= target, result)
