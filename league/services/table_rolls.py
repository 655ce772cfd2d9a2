"""Rolls made at the table during a game (rules §7.3–§7.5, plus plain dice), each one logged.

Every game has its own dice stream (``game:<pk>``) seeded from the tournament's seed and the
game, so the same event replays the same dice. A roll is stored as a ``DiceRoll`` (who rolled,
when) and an audit entry (what it was for and what it meant); nothing is ever undone. A form
nonce makes a resubmitted form (a browser retry) return the earlier roll instead of a new one.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from league.audit import Actor, record
from league.errors import Conflict, Invalid
from league.models import AuditEntry, Game, Round
from league.services.results import locked_game, visible_game
from missions import pregame
from missions import services as missions
from missions.dice import Roll, Roller

ACTION = "table_roll"
GAME_LENGTH, RESERVES, NIGHT, D6, TWO_D6, D3 = "game_length", "reserves", "night_fighting", "d6", "2d6", "d3"
PLAIN = {D6: "D6", TWO_D6: "2D6", D3: "D3"}
KINDS = (GAME_LENGTH, RESERVES, NIGHT, *PLAIN)
RULE_GAME_LENGTH, RULE_RESERVES, RULE_DAWN_DUSK = "duree-aleatoire", "reserves", "aube-crepuscule"
MAX_EXTRA_TURNS = 3  # §7.4: at most three extra turns
MAX_WHAT = 60
MAX_TURN = 20
NONCE = re.compile(r"^[0-9a-f]{16,32}$")


@dataclass(frozen=True)
class TableRollRequest:
    """What the player asked for: a kind, a turn (game length, reserves), a note, a form nonce."""

    kind: str
    turn: int | None = None
    what: str = ""
    nonce: str = ""


@dataclass(frozen=True)
class TableRoll:
    """One logged table roll as the page shows it."""

    sequence: int
    kind: str
    dice: tuple[int, ...]
    total: int
    details: dict[str, Any] = field(default_factory=dict, hash=False)
    user_id: int | None = None
    username: str = ""
    rolled_at: datetime | None = None


def table_seed(tournament_seed: int, game_pk: int) -> int:
    """A game's stream seed: fixed by the tournament's seed and the game (replays are stable)."""
    digest = hashlib.sha256(f"{tournament_seed}:game:{game_pk}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (missions.MAX_SEED + 1)


def stream_key(game_pk: int) -> str:
    return f"game:{game_pk}"


def level_rules(game: Game) -> tuple[str, ...]:
    if game.mission is None:
        return ()
    return tuple(game.mission.special_rules_by_level.get(game.round.tournament.level.slug, ()))


def offered(game: Game) -> tuple[str, ...]:
    """The kinds of roll this game's mission calls for at its level, then the plain dice."""
    rules = level_rules(game)
    kinds = []
    if RULE_GAME_LENGTH in rules:
        kinds.append(GAME_LENGTH)
    if RULE_RESERVES in rules:
        kinds.append(RESERVES)
    # Night fighting only happens when the Dawn & Dusk roll brought night (§7.2, §7.3).
    if game.pregame.get("dawn_dusk") in (pregame.NIGHT_TURN_1, pregame.NIGHT_FROM_TURN_6):
        kinds.append(NIGHT)
    return (*kinds, *PLAIN)


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
    """Roll for ``request`` at game ``game_id``; a repeated nonce returns the earlier roll."""
    with transaction.atomic():
        game = locked_game(game_id)  # queues rolls of one game (and the nonce check) on one lock
        me = visible_game(actor, game)
        _check_open(game)
        action = _action(game, request)
        earlier = _by_nonce(game, request)
        if earlier is not None:
            return earlier
        stream = missions.stream_for(stream_key(game.pk),
                                     seed=table_seed(game.round.tournament.seed, game.pk))
        made, details = missions.roll_with(stream, action, actor=actor.user if actor.user_id else None)
        data = {"game": game.pk, "kind": request.kind, "sequence": made.sequence,
                "expression": made.expression, "dice": list(made.dice), "total": made.total,
                "player": me.pk if me else None, "nonce": request.nonce,
                "what": " ".join(request.what.split())[:MAX_WHAT], **details}
        entry = record(actor, ACTION, game.round.tournament, game, data)
    return _line(entry)


def _check_open(game: Game) -> None:
    if game.is_bye:
        raise Conflict(_("A bye has no game to roll dice for."), "game_is_bye")
    if game.round.status == Round.Status.DRAFT:
        raise Conflict(_("This round is not published yet: no dice can be rolled for it."),
                       "round_not_published")
    if game.status == Game.Status.CONFIRMED:
        raise Conflict(_("This game's result is confirmed: no more dice can be rolled for it."),
                       "game_confirmed")


Action = Callable[[Roller], tuple[Roll, dict[str, Any]]]


def _action(game: Game, request: TableRollRequest) -> Action:
    """What to roll, checked against the mission before anything is rolled."""
    if request.kind not in offered(game):
        raise Invalid(_("This mission has no such roll."), "table_roll_unknown")
    if request.nonce and not NONCE.match(request.nonce):
        raise Invalid(_("This form has expired: reload the page."), "table_roll_nonce")
    if request.kind == GAME_LENGTH:
        return _game_length(_turn(request.turn, game_length_turns(game)))
    if request.kind == RESERVES:
        return _reserves(_turn(request.turn, reserves_turns()))
    if request.kind == NIGHT:
        return lambda roller: (pregame.night_fighting_range(roller), {})
    expression = PLAIN[request.kind]
    return lambda roller: (roller.roll(expression, "table"), {})


def _turn(turn: int | None, allowed: tuple[int, ...]) -> int:
    if turn not in allowed:
        raise Invalid(_("No die is rolled for this on that turn."), "table_roll_turn")
    return turn


def _game_length(turn: int) -> Action:
    def act(roller: Roller) -> tuple[Roll, dict[str, Any]]:
        # One die at a time, as at the table: "end of turn N, 4+ plays one more".
        result = pregame.random_game_length(roller, last_turn=turn, max_extra=1)
        return result.rolls[0], {"turn": turn, "extra_turn": result.turns > turn}
    return act


def _reserves(turn: int) -> Action:
    def act(roller: Roller) -> tuple[Roll, dict[str, Any]]:
        result = pregame.reserves_roll(roller, turn)
        assert result.roll is not None  # reserves_turns() only offers turns that need a die
        return result.roll, {"turn": turn, "target": result.target, "arrives": result.arrives}
    return act


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
    details = {k: v for k, v in data.items()
               if k in ("turn", "extra_turn", "target", "arrives", "what", "player")}
    return TableRoll(sequence=data["sequence"], kind=data["kind"], dice=tuple(data["dice"]),
                     total=data["total"], details=details, user_id=entry.actor_id,
                     username=entry.actor.get_username() if entry.actor else "",
                     rolled_at=entry.created_at)
