"""Urban War table rules (seed 002, « Règles d'introduction rapide »): D10 initiative, set-up
rolls, command tests, the D10 reference card, and a game's result from what was destroyed.

Pure: no Django. Numbers come from the seed (U-R ids of systems/urban-war.md, French wording
quoted); where it is silent the decided default of systems/urban-war.md §2.3 is used and its
[Gap] id named. Engines take a Roller and never know whether it rolls or hands out entered faces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from config.refusals import CodedRefusal
from missions.dice import Roll, Roller, RollOff, roll_off

D10 = "D10"
FACES = range(1, 11)

# U-R11 « Chaque joueur lance 1D10 … Relancez les égalités »; U-R10 « Si le commandant est
# paniqué ou mort, le commando souffre d'une pénalité de -1 à ses jets d'initiative ».
PURPOSE_INITIATIVE = "urban_war_initiative"
COMMANDER_DOWN = -1

# U-R15 « les joueurs lancent un dé. Celui qui a le plus haut score choisit son côté »; « Le
# joueur qui n'a pas choisit le côté décide qui commence le déploiement »; « Les deux joueurs
# lancent un dé. Le joueur avec le meilleur score choisit qui commence ». The die is a D10 (UG5);
# ties are re-rolled as for the initiative (the seed does not say).
PURPOSE_SIDE = "urban_war_side"
PURPOSE_START = "urban_war_start"
DEPLOY_WITHIN_INCHES = 6  # « dans les 6" à partir du bord de table, au niveau du sol »
TABLE_MIN_CM = 120  # U-R17 « une surface plate de 4 pieds par 4 (120 x 120 cm) »

# U-R12 « lancez 2D10. Un résultat non modifié de 5 ou moins est toujours un échec. Sinon ajoutez
# le CD de la figurine et son CAL au résultat. Si le résultat est 15 ou plus, le test de
# commandement est réussi ».
PURPOSE_COMMAND = "urban_war_command_test"
COMMAND_TARGET = 15
AUTOMATIC_FAILURE_MAX = 5
CD_MIN, CD_MAX = 1, 10  # U-R6 « Elle varie de 1 à 10 »

# The result of a game (U-R16, UG4).
DESTROYED_OR_DRAW, MOST_POINTS_DESTROYED = "destroyed_or_draw", "most_points_destroyed"
RESULT_MODES = (DESTROYED_OR_DRAW, MOST_POINTS_DESTROYED)


# --- The D10 reference card (U-R12 to U-R14), as data the table sheet prints ------------------

@dataclass(frozen=True)
class Term:
    """One term of a roll: a code the sheet words in its language, and its value (None: a
    characteristic or a weapon's figure, read at the table)."""

    code: str
    value: int | None = None


@dataclass(frozen=True)
class ReferenceRow:
    """A roll of the reference card: dice, terms added, the target, and whether a natural 1
    always fails and a natural 10 always succeeds."""

    code: str
    dice: str
    terms: tuple[Term, ...]
    target: int
    naturals: bool


REFERENCE_CARD: tuple[ReferenceRow, ...] = (
    # TIRER « Si le résultat est 10 ou plus, le tir a touché »; « Ajoutez +1 si la cible a une
    # taille de 4+ »; moved: « -1 à courte, -2 à moyenne, -3 à longue et -4 à extrême »;
    # « Paniqué … une pénalité de -2 à tous ses jets pour toucher ».
    ReferenceRow("shooting_to_hit", "1D10", (
        Term("SH"), Term("weapon_modifier"), Term("target_size_4_plus", 1),
        Term("moved", None), Term("panicked", -2)), 10, True),
    # « Ajoutez la F (ST) du tir. Soustrayez l'E (T) … Si le résultat est 6 ou plus ».
    ReferenceRow("shooting_to_wound", "1D10", (Term("ST"), Term("minus_T")), 6, True),
    # « Si l'obstacle est solide … se sauve sur 6+. Si l'obstacle est fragile … sur 8+ ».
    ReferenceRow("cover_solid", "1D10", (), 6, False),
    ReferenceRow("cover_flimsy", "1D10", (), 8, False),
    # Armure Lourde « lancez 1D10 par touche, ajoutez-y le modificateur … Sur un résultat de 10+ ».
    ReferenceRow("heavy_armour", "1D10", (Term("heavy_armour_n"),), 10, False),
    # COMBAT RAPPROCHÉ « Ajoutez l'AS de l'attaquant. Soustrayez l'AS de la figurine ennemie.
    # Ajoutez +1 si l'attaquant a chargé … Si le résultat est 6 ou plus ».
    ReferenceRow("melee_to_hit", "1D10", (
        Term("AS"), Term("minus_enemy_AS"), Term("charged", 1), Term("panicked", -2)), 6, True),
    ReferenceRow("melee_to_wound", "1D10", (Term("ST"), Term("minus_T"), Term("charged", 1)), 6, True),
    ReferenceRow("command_test", "2D10", (Term("CD"), Term("CAL")), COMMAND_TARGET, False),
)
NATURAL_FAIL, NATURAL_SUCCESS = 1, 10
# « Ajoutez les bonus des armes et +3 si la figurine a chargé » (who strikes first).
CHARGE_FIRST_STRIKE = 3
# COMMANDANTS « les figurines amies dans les 9 pouces du commandant … +1 à tous les tests ».
COMMANDER_RADIUS_INCHES, COMMANDER_BONUS = 9, 1
# Modifiers of command tests found in the seed (§8.1 of the digest).
COMMAND_MODIFIERS: Mapping[str, int] = {
    "commander_within_9": COMMANDER_BONUS,
    "priority_target_in_cover": 2,  # « un bonus de +2 à ce test si la cible prioritaire est à couvert »
    "interrupt_shot_per_band_beyond_short": -1,  # « un malus de -1 par bande de portée au-delà de la courte »
}


@dataclass(frozen=True)
class RangeBand:
    """A range band in inches: from ``low`` (excluded, except contact) to ``high`` (included);
    ``moved`` is the to-hit penalty when the shooter moved (« -1 à courte … -4 à extrême »)."""

    code: str
    low: int
    high: int
    moved: int


# Portées « le Combat Rapproché (au contact socle à socle), la portée Courte (jusqu'à 12 pouces),
# la portée Moyenne (de 12 à 24 pouces), la portée Longue (de 24 à 36 pouces) et Extrême (de 36 à
# 48 pouces) ». The edges overlap as written: each edge belongs to the shorter band.
RANGE_BANDS: tuple[RangeBand, ...] = (
    RangeBand("close_combat", 0, 0, 0),
    RangeBand("short", 0, 12, -1),
    RangeBand("medium", 12, 24, -2),
    RangeBand("long", 24, 36, -3),
    RangeBand("extreme", 36, 48, -4),
)


def range_band(inches: float) -> RangeBand | None:
    """The band of a distance between base edges; 0 is base contact; beyond 48": out of range."""
    if inches < 0:
        raise ValueError("a distance cannot be negative")
    if inches == 0:
        return RANGE_BANDS[0]
    return next((band for band in RANGE_BANDS[1:] if band.low < inches <= band.high), None)


def d10_succeeds(face: int, modifier: int, target: int, naturals: bool = True) -> bool:
    """A D10 roll against its target; with ``naturals``, « Un résultat non modifié de 1 est
    toujours un échec ; un résultat non modifié de 10 est toujours une réussite »."""
    if face not in FACES:
        raise ValueError("a D10 shows 1 to 10")
    if naturals and face in (NATURAL_FAIL, NATURAL_SUCCESS):
        return face == NATURAL_SUCCESS
    return face + modifier >= target


# --- Initiative and set-up rolls --------------------------------------------------------------

@dataclass(frozen=True)
class InitiativeRoll:
    player: str
    die: int
    modifier: int
    score: int


@dataclass(frozen=True)
class Initiative:
    """Every die of the roll-off (ties re-rolled), in order, and its winner, who starts the
    activation phase or makes the opponent start."""

    turn: int
    rolls: tuple[InitiativeRoll, ...]
    winner: str
    loser: str
    raw: tuple[Roll, ...]

    def to_dict(self) -> dict[str, Any]:
        """The contract's ``urban_war_initiative`` roll: rolls and winner."""
        return {"turn": self.turn, "winner": self.winner,
                "rolls": [{"player": r.player, "die": r.die, "modifier": r.modifier, "score": r.score}
                          for r in self.rolls]}


def initiative(
    roller: Roller, players: tuple[str, str], turn: int = 1, commander_down: Collection[str] = (),
) -> Initiative:
    """1D10 each, in the players' order, −1 for a player whose commander is panicked or dead."""
    if turn < 1:
        raise ValueError("turns start at 1")
    unknown = set(commander_down) - set(players)
    if unknown:
        raise ValueError(f"{sorted(map(str, unknown))} do not play this game")
    modifiers = {player: COMMANDER_DOWN if player in commander_down else 0 for player in players}
    result = roll_off(roller, PURPOSE_INITIATIVE, players, modifiers, die=D10)
    rolls = tuple(InitiativeRoll(roll.actor, roll.total, modifiers[roll.actor],
                                 roll.total + modifiers[roll.actor]) for roll in result.rolls)
    return Initiative(turn, rolls, result.winner, result.loser, result.rolls)


@dataclass(frozen=True)
class SetUp:
    """The set-up rolls (U-R15): the side roll's winner chooses a table edge, the other player
    decides who deploys first, and the start roll's winner chooses who starts."""

    side: RollOff
    deployment_chooser: str
    start: RollOff

    @property
    def side_chooser(self) -> str:
        return self.side.winner

    @property
    def start_chooser(self) -> str:
        return self.start.winner


def setup(roller: Roller, players: tuple[str, str]) -> SetUp:
    """Both set-up rolls, side first (after terrain), start second (after deployment)."""
    side = roll_off(roller, PURPOSE_SIDE, players, die=D10)
    start = roll_off(roller, PURPOSE_START, players, die=D10)
    return SetUp(side, side.loser, start)


# --- Command test -----------------------------------------------------------------------------

@dataclass(frozen=True)
class CommandTest:
    dice: tuple[int, int]
    unmodified: int
    total: int
    automatic_failure: bool
    passed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "unmodified": self.unmodified, "total": self.total,
                "automatic_failure": self.automatic_failure, "passed": self.passed}


def command_test(dice: Sequence[int], cd: int, cal: int, modifiers: Sequence[int] = ()) -> CommandTest:
    """2D10 + CD + CAL (+ modifiers) against 15; an unmodified 5 or less always fails (U-R12).

    CAL's +1 per point is the « + CAL » already: do not pass it again as a modifier.
    """
    if len(dice) != 2 or any(face not in FACES for face in dice):
        raise ValueError("a command test is two D10 faces")
    _check_model(cd, cal)
    unmodified = sum(dice)
    total = unmodified + cd + cal + sum(modifiers)
    automatic = unmodified <= AUTOMATIC_FAILURE_MAX
    return CommandTest((dice[0], dice[1]), unmodified, total, automatic,
                       not automatic and total >= COMMAND_TARGET)


def _check_model(cd: int, cal: int) -> None:
    if not CD_MIN <= cd <= CD_MAX:
        raise ValueError(f"CD is between {CD_MIN} and {CD_MAX}")
    if cal < 0:
        raise ValueError("a calibre is 0 or more")


def roll_command_test(
    roller: Roller, cd: int, cal: int, modifiers: Sequence[int] = (), actor: str | None = None,
) -> CommandTest:
    """Roll the 2D10 of a command test, then score it (bad CD or CAL is refused before rolling)."""
    _check_model(cd, cal)
    roll = roller.roll("2D10", PURPOSE_COMMAND, actor=actor)
    return command_test(roll.dice, cd, cal, modifiers)


# --- The result of a game ---------------------------------------------------------------------

class KillsRefused(CodedRefusal, ValueError):
    """Reported kills that cannot be scored: a stable ``code`` and message params."""


class Model(Protocol):
    """A model of a validated commando (systems.urban_war.commando.PricedModel): its label and points."""

    @property
    def label(self) -> str: ...

    @property
    def points(self) -> int: ...


@dataclass(frozen=True)
class Outcome:
    """Whose commando was destroyed, if any, and the labels of the opponent's models each player
    destroyed (api-v1-systems "Urban War")."""

    commando_destroyed: str | None = None
    destroyed: Mapping[str, Sequence[str]] | None = None


@dataclass(frozen=True)
class GameResult:
    """Victory points = points of the enemy models destroyed (UG4); winner None is a draw.
    ``destroyed`` lists each player's kills, every model of a destroyed commando included."""

    winner: str | None
    victory_points: Mapping[str, int]
    destroyed: Mapping[str, tuple[str, ...]]


def game_result(
    commandos: Mapping[str, Sequence[Model]], outcome: Outcome, mode: str = DESTROYED_OR_DRAW,
) -> GameResult:
    """Score a game from both commandos and the outcome.

    « Le joueur qui détruit complètement le commando de son adversaire gagne la partie » (U-R16):
    every model of a destroyed commando counts as destroyed by its opponent. With no commando
    destroyed, ``destroyed_or_draw`` gives a draw and ``most_points_destroyed`` the game to the
    side with more victory points (equal: a draw) (UG4).
    Refusals: ``player_not_in_game`` (player), ``model_label_repeated`` (player, label),
    ``unknown_model_label`` (player, label), ``commando_destroyed_not_reported`` (player) when
    every model of a commando is listed as destroyed but another outcome was reported.
    """
    if mode not in RESULT_MODES:
        raise ValueError(f"mode must be one of {RESULT_MODES}")
    players = tuple(commandos)
    if len(players) != 2:
        raise ValueError("a game has two commandos")
    opponent = {players[0]: players[1], players[1]: players[0]}
    reported = dict(outcome.destroyed or {})
    for player in [outcome.commando_destroyed, *reported]:
        if player is not None and player not in opponent:
            raise KillsRefused("player_not_in_game", player=player)

    kills: dict[str, tuple[str, ...]] = {}
    points: dict[str, int] = {}
    for player in players:
        enemy = {model.label: model.points for model in commandos[opponent[player]]}
        listed = list(reported.get(player) or ())
        for label, count in Counter(listed).items():
            if count > 1:
                raise KillsRefused("model_label_repeated", player=player, label=label)
        for label in listed:
            if label not in enemy:
                raise KillsRefused("unknown_model_label", player=player, label=label)
        if outcome.commando_destroyed == opponent[player]:
            listed += [label for label in enemy if label not in listed]
        elif enemy and len(listed) == len(enemy):
            raise KillsRefused("commando_destroyed_not_reported", player=opponent[player])
        kills[player] = tuple(listed)
        points[player] = sum(enemy[label] for label in listed)

    if outcome.commando_destroyed is not None:
        winner: str | None = opponent[outcome.commando_destroyed]
    elif mode == MOST_POINTS_DESTROYED and points[players[0]] != points[players[1]]:
        winner = max(players, key=points.__getitem__)
    else:
        winner = None
    return GameResult(winner, points, kills)


def check_winner(result: GameResult, outcome: Outcome, reported_winner: str | None) -> None:
    """``winner_contradicts_outcome`` when a commando was destroyed and the reported winner (None:
    a draw) is not its opponent. With no commando destroyed the derived result stands."""
    if outcome.commando_destroyed is not None and reported_winner != result.winner:
        raise KillsRefused("winner_contradicts_outcome", winner=reported_winner,
                           commando_destroyed=outcome.commando_destroyed)
