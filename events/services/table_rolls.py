"""Rolls made at the table during a game, each one logged; shared by the game page and the API.

The kinds a game offers come from its game system (``EventRules.roll_kinds``): Cities of Death
rolls (§7.3–§7.5) where the mission calls for them, the W40K Dynamics advantage test, the Urban
War initiative, and plain dice. Every game has its own dice stream (``game:<pk>``) seeded from the
tournament's seed and the game, so the same event replays the same dice. A server roll is stored
as ``DiceRoll`` rows (who rolled, when) and an audit entry (what it was for and what it meant);
dice thrown at the table (``dice``) are read through an ``EnteredRoller`` and kept in the audit
entry only, so the seeded stream stays a pure replay. Nothing is ever undone. A form nonce makes a
resubmitted form (a browser retry) return the earlier roll instead of a new one.

Roll-offs are stored by side (``a``: the game's first player, ``b``: the second), not by player
id, so an event restored from a backup (new player ids) still reads them right."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game, Round
from events.services.results import locked_game, visible_game
from missions import pregame
from missions import services as missions
from missions.dice import EnteredDiceError, EnteredRoller, Roll, Roller, roll_off
from missions.systems_messages import system_message
from systems.urban_war import table_rules as urban_war
from systems.w40k4 import dynamics

ACTION = "table_roll"
GAME_LENGTH, RESERVES, NIGHT, D6, TWO_D6, D3 = "game_length", "reserves", "night_fighting", "d6", "2d6", "d3"
D10 = "d10"
ADVANTAGE, INITIATIVE = dynamics.PURPOSE_ADVANTAGE, urban_war.PURPOSE_INITIATIVE
# Urban War set-up (U-R15): the side roll after terrain, the start roll after deployment.
SETUP_SIDE, SETUP_START = urban_war.PURPOSE_SIDE, urban_war.PURPOSE_START
COMMAND = urban_war.PURPOSE_COMMAND  # 2D10 + CD + CAL against 15 (U-R6)
PLAIN = {D6: "D6", TWO_D6: "2D6", D3: "D3", D10: "D10"}
KINDS = (GAME_LENGTH, RESERVES, NIGHT, *PLAIN, ADVANTAGE, INITIATIVE, SETUP_SIDE, SETUP_START, COMMAND)
MAX_CAL = 20
MAX_COMMAND_MODIFIER = 10
RULE_GAME_LENGTH, RULE_RESERVES, RULE_DAWN_DUSK = "duree-aleatoire", "reserves", "aube-crepuscule"
MAX_EXTRA_TURNS = 3  # §7.4: at most three extra turns
MAX_WHAT = 60
MAX_TURN = 20
PASSES = range(dynamics.FIRST_PASS, dynamics.LAST_PASS + 1)
NONCE = re.compile(r"^[0-9a-f]{16,32}$")
SERVER, ENTERED = "server", "entered"
SIDES = ("a", "b")
# Audit-entry keys a logged roll shows back (beside its dice, sides and winner).
DETAIL_KEYS = ("turn", "extra_turn", "target", "arrives", "what", "player", "pass", "bonus_now",
               "permanent", "commander_down", "cd", "cal", "modifier", "passed", "automatic_failure")


@dataclass(frozen=True)
class TableRollRequest:
    """What the player asked for: a kind, a turn (game length, reserves, advantage, initiative),
    a note, a form nonce; a Dynamics pass and +1 bonus (player id); Urban War players whose
    commander is down (player ids); ``dice`` thrown at the table (None: the server rolls)."""

    kind: str
    turn: int | None = None
    what: str = ""
    nonce: str = ""
    pass_: int | None = None
    bonus_now: int | None = None
    commander_down: tuple[int, ...] = ()
    dice: tuple[int, ...] | None = None
    # Urban War command test: the model's CD and calibre, and the sum of the other modifiers.
    cd: int | None = None
    cal: int | None = None
    modifier: int = 0


@dataclass(frozen=True)
class TableRoll:
    """One logged table roll as the page and the API show it. ``sides`` holds a roll-off's dice
    (``{"side", "die", "modifier", "score"}``, ties included) and ``winner`` its winning side."""

    sequence: int | None
    kind: str
    dice: tuple[int, ...]
    total: int | None
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    user_id: int | None = None
    username: str = ""
    rolled_at: datetime | None = None
    id: int | None = None
    source: str = SERVER
    sides: tuple[dict[str, Any], ...] = field(default=(), hash=False)
    winner: str | None = None
    unused_dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Thrown:
    """What an action rolled: every roll, what it meant, and a roll-off's dice by side."""

    rolls: tuple[Roll, ...]
    details: dict[str, Any] = field(default_factory=dict)
    sides: tuple[dict[str, Any], ...] = ()
    winner: str | None = None


def table_seed(tournament_seed: int, game_pk: int) -> int:
    """A game's stream seed: fixed by the tournament's seed and the game (replays are stable)."""
    digest = hashlib.sha256(f"{tournament_seed}:game:{game_pk}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (missions.MAX_SEED + 1)


def stream_key(game_pk: int) -> str:
    return f"game:{game_pk}"


def level_rules(game: Game) -> tuple[str, ...]:
    level = game.round.tournament.level
    if game.mission is None or level is None:
        return ()
    return tuple(game.mission.special_rules_by_level.get(level.slug, ()))


def system_kinds(game: Game) -> tuple[str, ...]:
    """Every kind of roll the game's system (and the event's turn system) uses."""
    tournament = game.round.tournament
    return tournament.rules.table_roll_kinds(tournament.turn_system)


def offered(game: Game) -> tuple[str, ...]:
    """The system's kinds this game can roll now: Cities of Death rolls only where the mission
    calls for them at its level, every other kind always."""
    rules = level_rules(game)
    # Night fighting only happens when the Dawn & Dusk roll brought night (§7.2, §7.3).
    night = game.pregame.get("dawn_dusk") in (pregame.NIGHT_TURN_1, pregame.NIGHT_FROM_TURN_6)
    called = {GAME_LENGTH: RULE_GAME_LENGTH in rules, RESERVES: RULE_RESERVES in rules, NIGHT: night}
    return tuple(kind for kind in system_kinds(game) if called.get(kind, True))


def side_of_player(game: Game, player_id: int | None) -> str | None:
    """``a`` or ``b`` for a player of ``game``; None for anyone else."""
    return next((side for side, pid in zip(SIDES, game.player_ids, strict=False) if pid == player_id),
                None)


def player_of_side(game: Game, side: str | None) -> int | None:
    return dict(zip(SIDES, game.player_ids, strict=False)).get(side or "")


def game_length_turns(game: Game) -> tuple[int, ...]:
    """The turns after which a Random Game Length die may be rolled (§7.4)."""
    last = game.mission.game_turns if game.mission else 6
    return tuple(range(last, last + MAX_EXTRA_TURNS))


def reserves_turns(table: pregame.ReservesTable = pregame.DEFAULT_RESERVES_TABLE) -> tuple[int, ...]:
    """The turns on which a reserve unit needs a die (turn 1: never arrives; later: automatic)."""
    turns = []
    for turn in range(1, MAX_TURN + 1):
        target = table.target(turn)
        if target is not None and target > pregame.AUTOMATIC:
            turns.append(turn)
    return tuple(turns)


def roll(actor: Actor, game_id: int, request: TableRollRequest) -> TableRoll:
    """Roll for ``request`` at game ``game_id``; a repeated nonce returns the earlier roll.
    A refusal (ServiceError) leaves nothing stored: the transaction rolls back."""
    with transaction.atomic():
        game = locked_game(game_id)  # queues rolls of one game (and the nonce check) on one lock
        me = visible_game(actor, game)
        _check_open(game)
        action = _action(game, request)
        earlier = _by_nonce(game, request)
        if earlier is not None:
            return earlier
        _check_bonus(game, request)
        thrown, source, unused = _throw(actor, game, action, request.dice)
        entry = record(actor, ACTION, game.round.tournament, game,
                       _stored(game, request, thrown, source, unused, me.pk if me else None))
    return _line(entry)


def _throw(actor: Actor, game: Game, action: Action,
           dice: tuple[int, ...] | None) -> tuple[Thrown, str, tuple[int, ...]]:
    """Run ``action`` on the game's seeded stream, or on the faces thrown at the table."""
    if dice is None:
        stream = missions.stream_for(stream_key(game.pk),
                                     seed=table_seed(game.round.tournament.seed, game.pk))
        return missions.roll_with(stream, action, actor=actor.user if actor.user_id else None), SERVER, ()
    roller = EnteredRoller(dice)
    try:
        thrown = action(roller)
    except EnteredDiceError as exc:
        raise Invalid(system_message(exc.code, exc.params), exc.code) from None
    return thrown, ENTERED, roller.unused_dice


def _stored(game: Game, request: TableRollRequest, thrown: Thrown, source: str,
            unused: tuple[int, ...], player: int | None) -> dict[str, Any]:
    """The audit entry's data: one roll's dice and total, or a roll-off's dice by side."""
    first = thrown.rolls[0]
    single = len(thrown.rolls) == 1 and not thrown.sides
    data = {"game": game.pk, "kind": request.kind, "source": source,
            "sequence": first.sequence if source == SERVER else None, "expression": first.expression,
            "dice": [face for made in thrown.rolls for face in made.dice],
            "total": first.total if single else None, "player": player, "nonce": request.nonce,
            "what": " ".join(request.what.split())[:MAX_WHAT], **thrown.details}
    if thrown.sides:
        data.update(rolls=list(thrown.sides), winner_side=thrown.winner)
    if unused:
        data["unused_dice"] = list(unused)
    return data


def _check_open(game: Game) -> None:
    if game.is_bye:
        raise Conflict(_("A bye has no game to roll dice for."), "game_is_bye")
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(_("This round is not published yet: no dice can be rolled for it."),
                       "round_not_published")
    if game.status == Game.Status.CONFIRMED:
        raise Conflict(_("This game's result is confirmed: no more dice can be rolled for it."),
                       "game_confirmed")


Action = Callable[[Roller], Thrown]


def _action(game: Game, request: TableRollRequest) -> Action:
    """What to roll, checked against the game's system and mission before anything is rolled."""
    if request.kind not in system_kinds(game):
        raise Invalid(_("This game system has no such roll."), "roll_kind_not_available")
    if request.kind not in offered(game):
        raise Invalid(_("This mission has no such roll."), "table_roll_unknown")
    if request.nonce and not NONCE.match(request.nonce):
        raise Invalid(_("This form has expired: reload the page."), "table_roll_nonce")
    if request.kind == GAME_LENGTH:
        return _game_length(_turn(request.turn, game_length_turns(game)))
    if request.kind == RESERVES:
        return _reserves(_turn(request.turn, reserves_turns()))
    if request.kind == NIGHT:
        return lambda roller: Thrown((pregame.night_fighting_range(roller),))
    if request.kind == ADVANTAGE:
        return _advantage(game, request)
    if request.kind == INITIATIVE:
        return _initiative(game, request)
    if request.kind in (SETUP_SIDE, SETUP_START):
        return _setup_roll(request.kind)
    if request.kind == COMMAND:
        return _command_test(request)
    expression = PLAIN[request.kind]
    return lambda roller: Thrown((roller.roll(expression, "table"),))


def _turn(turn: int | None, allowed: tuple[int, ...] | range) -> int:
    if turn is None or turn not in allowed:
        raise Invalid(_("No die is rolled for this on that turn."), "table_roll_turn")
    return turn


def _side(game: Game, player_id: int) -> str:
    side = side_of_player(game, player_id)
    if side is None:
        raise Invalid(_("Player %(id)s did not play in this game.") % {"id": player_id},
                      "player_not_in_game")
    return side


def _game_length(turn: int) -> Action:
    def act(roller: Roller) -> Thrown:
        # One die at a time, as at the table: "end of turn N, 4+ plays one more".
        result = pregame.random_game_length(roller, last_turn=turn, max_extra=1)
        return Thrown((result.rolls[0],), {"turn": turn, "extra_turn": result.turns > turn})
    return act


def _reserves(turn: int) -> Action:
    def act(roller: Roller) -> Thrown:
        result = pregame.reserves_roll(roller, turn)
        assert result.roll is not None  # reserves_turns() only offers turns that need a die
        return Thrown((result.roll,), {"turn": turn, "target": result.target, "arrives": result.arrives})
    return act


def permanent_side(game: Game) -> str | None:
    """The side holding the Dynamics permanent +2 (set by the pre-game, D-R6), if any."""
    holder = (game.pregame or {}).get("permanent_advantage")
    return side_of_player(game, int(holder)) if str(holder or "").isdigit() else None


def _advantage(game: Game, request: TableRollRequest) -> Action:
    """The Dynamics advantage test of one pass: 1D6 each, +1 for the player who finished placing
    orders first (``bonus_now``), +2 permanent for the pre-game's holder, ties re-rolled."""
    turn = _turn(request.turn, range(1, MAX_TURN + 1))
    if request.pass_ not in PASSES:
        raise Invalid(_("A pass is numbered from %(first)s to %(last)s.")
                      % {"first": PASSES[0], "last": PASSES[-1]}, "table_roll_pass")
    bonus = None if request.bonus_now is None else _side(game, request.bonus_now)
    permanent = permanent_side(game)
    details = {"turn": turn, "pass": request.pass_, "bonus_now": bonus, "permanent": permanent}

    def act(roller: Roller) -> Thrown:
        test = dynamics.advantage_test(roller, SIDES, bonus_now=bonus, permanent=permanent)
        return _roll_off(test.rolls, test.modifiers, test.winner, details)
    return act


def _initiative(game: Game, request: TableRollRequest) -> Action:
    """The Urban War initiative (U-R11): D10 each in the game's player order, −1 for a player
    whose commander is panicked or dead, ties re-rolled."""
    turn = _turn(request.turn, range(1, MAX_TURN + 1))
    down = tuple(dict.fromkeys(_side(game, pid) for pid in request.commander_down))
    details = {"turn": turn, "commander_down": list(down)}

    def act(roller: Roller) -> Thrown:
        result = urban_war.initiative(roller, SIDES, turn, down)
        return _roll_off(result.raw, {r.player: r.modifier for r in result.rolls}, result.winner, details)
    return act


def _setup_roll(kind: str) -> Action:
    """An Urban War set-up roll-off: D10 each, ties re-rolled; the side roll's winner chooses the
    table edge (the loser who deploys first), the start roll's winner who starts (U-R15)."""
    def act(roller: Roller) -> Thrown:
        result = roll_off(roller, kind, SIDES, die=urban_war.D10)
        return _roll_off(result.rolls, dict.fromkeys(SIDES, 0), result.winner, {})
    return act


def _command_test(request: TableRollRequest) -> Action:
    """An Urban War command test (U-R6): 2D10 + CD + CAL + modifiers, passed from 15, and an
    unmodified 5 or less always fails."""
    cd, cal, modifier = request.cd, request.cal, request.modifier
    if cd is None or not urban_war.CD_MIN <= cd <= urban_war.CD_MAX:
        raise Invalid(_("CD must be between %(min)s and %(max)s.")
                      % {"min": urban_war.CD_MIN, "max": urban_war.CD_MAX}, "cd_out_of_range")
    if cal is None or not 0 <= cal <= MAX_CAL:
        raise Invalid(_("A calibre is between 0 and %(max)s.") % {"max": MAX_CAL}, "cal_out_of_range")
    if abs(modifier) > MAX_COMMAND_MODIFIER:
        raise Invalid(_("The other modifiers add up to at most %(max)s either way.")
                      % {"max": MAX_COMMAND_MODIFIER}, "modifier_out_of_range")

    def act(roller: Roller) -> Thrown:
        made = roller.roll("2D10", COMMAND)
        test = urban_war.command_test(made.dice, cd, cal, (modifier,))
        return Thrown((made,), {"cd": cd, "cal": cal, "modifier": modifier, "passed": test.passed,
                                "automatic_failure": test.automatic_failure})
    return act


def _roll_off(rolls: tuple[Roll, ...], modifiers: dict[str, int], winner: str,
              details: dict[str, Any]) -> Thrown:
    sides = tuple({"side": made.actor, "die": made.total, "modifier": modifiers[made.actor or ""],
                   "score": made.total + modifiers[made.actor or ""]} for made in rolls)
    return Thrown(rolls, details, sides, winner)


def _check_bonus(game: Game, request: TableRollRequest) -> None:
    """The Dynamics +1 is spent once per player per turn (D-R7): a second use is a conflict."""
    if request.kind != ADVANTAGE or request.bonus_now is None:
        return
    used = AuditEntry.objects.filter(
        tournament_id=game.round.tournament_id, action=ACTION, data__game=game.pk,
        data__kind=ADVANTAGE, data__turn=request.turn,
        data__bonus_now=side_of_player(game, request.bonus_now)).exists()
    if used:
        raise Conflict(_("This player has already used the +1 of finishing their orders first "
                         "on turn %(turn)s.") % {"turn": request.turn}, "advantage_bonus_used")


def _by_nonce(game: Game, request: TableRollRequest) -> TableRoll | None:
    """The roll this very form already made (same nonce, same kind), if any."""
    if not request.nonce:
        return None
    entry = (AuditEntry.objects.select_related("actor")
             .filter(tournament_id=game.round.tournament_id, action=ACTION, data__game=game.pk,
                     data__nonce=request.nonce, data__kind=request.kind).first())
    return _line(entry) if entry else None


def log(game: Game) -> list[TableRoll]:
    """The game's table rolls, newest first (one query)."""
    entries = (AuditEntry.objects.select_related("actor")
               .filter(tournament_id=game.round.tournament_id, action=ACTION, data__game=game.pk)
               .order_by("-pk"))
    return [_line(entry) for entry in entries]


def _line(entry: AuditEntry) -> TableRoll:
    data = entry.data
    details = {k: v for k, v in data.items() if k in DETAIL_KEYS}
    return TableRoll(sequence=data.get("sequence"), kind=data["kind"], dice=tuple(data["dice"]),
                     total=data.get("total"), details=details, user_id=entry.actor_id,
                     username=entry.actor.get_username() if entry.actor else "",
                     rolled_at=entry.created_at, id=entry.pk,
                     # Rolls logged before dice could be entered were all the server's.
                     source=data.get("source", SERVER), sides=tuple(data.get("rolls") or ()),
                     winner=data.get("winner_side"), unused_dice=tuple(data.get("unused_dice") or ()))
