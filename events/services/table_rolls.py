"""Rolls made at the table during a game, each one logged; shared by the game page and the API.

The kinds a game offers come from its game system (``EventRules.roll_kinds`` names them; each is
a registered `RollKind`, systems/rolls.py): Cities of Death rolls where the mission calls for
them, the W40K Dynamics advantage test, the Urban War D10 rolls, and plain dice. Every game has
its own dice stream (``game:<pk>``) seeded from the tournament's seed and the game, so the same
event replays the same dice. A server roll is stored as ``DiceRoll`` rows (who rolled, when)
and an audit entry (what it was for and what it meant); dice thrown at the table (``dice``) are
read through an ``EnteredRoller`` and kept in the audit entry only, so the seeded stream stays a
pure replay. Nothing is ever undone. A form nonce makes a resubmitted form (a browser retry)
return the earlier roll instead of a new one.

Roll-offs are stored by side (``a``: the game's first player, ``b``: the second), not by player
id, so an event restored from a backup (new player ids) still reads them right."""
from __future__ import annotations

import hashlib
import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Invalid
from events.models import AuditEntry, Game, Round
from events.services.results import locked_game, visible_game
from missions import services as missions
from missions.dice import EnteredDiceError, EnteredRoller
from missions.systems_messages import system_message
from systems.rolls import (
    ENTERED,
    MAX_TURN,
    MAX_WHAT,
    PLAIN,
    SERVER,
    SIDES,
    Action,
    RollKind,
    TableRoll,
    TableRollRequest,
    Thrown,
    player_of_side,
    roll_kind,
    side_of_player,
)

__all__ = ["ENTERED", "MAX_TURN", "MAX_WHAT", "PLAIN", "SERVER", "SIDES", "TableRoll",
           "TableRollRequest", "Thrown", "log", "offered", "player_of_side", "roll",
           "side_of_player", "stream_key", "table_seed"]

ACTION = "table_roll"
NONCE = re.compile(r"^[0-9a-f]{16,32}$")
# Audit-entry keys every logged roll shows back (beside its dice, sides and winner); a kind
# adds its own (``RollKind.detail_keys``).
DETAIL_KEYS = ("turn", "what", "player")


def table_seed(tournament_seed: int, game_pk: int) -> int:
    """A game's stream seed: fixed by the tournament's seed and the game (replays are stable)."""
    digest = hashlib.sha256(f"{tournament_seed}:game:{game_pk}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (missions.MAX_SEED + 1)


def stream_key(game_pk: int) -> str:
    return f"game:{game_pk}"


def system_kinds(game: Game) -> tuple[str, ...]:
    """Every kind of roll the game's system (and the event's turn system) uses."""
    tournament = game.round.tournament
    return tournament.rules.table_roll_kinds(tournament.turn_system)


def offered(game: Game) -> tuple[str, ...]:
    """The system's kinds this game can roll now: a kind the mission calls for only when it
    does (``RollKind.called``), every other kind always."""
    kinds = (roll_kind(name) for name in system_kinds(game))
    return tuple(kind.name for kind in kinds
                 if kind is not None and (kind.called is None or kind.called(game)))


def roll(actor: Actor, game_id: int, request: TableRollRequest) -> TableRoll:
    """Roll for ``request`` at game ``game_id``; a repeated nonce returns the earlier roll.
    A refusal (ServiceError) leaves nothing stored: the transaction rolls back."""
    with transaction.atomic():
        game = locked_game(game_id)  # queues rolls of one game (and the nonce check) on one lock
        me = visible_game(actor, game)
        _check_open(game)
        kind, action = _action(game, request)
        earlier = _by_nonce(game, request)
        if earlier is not None:
            return earlier
        if kind.check is not None:
            kind.check(game, request)
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


def _action(game: Game, request: TableRollRequest) -> tuple[RollKind, Action]:
    """What to roll, checked against the game's system and mission before anything is rolled."""
    kind = roll_kind(request.kind)
    if kind is None or request.kind not in system_kinds(game):
        raise Invalid(_("This game system has no such roll."), "roll_kind_not_available")
    if request.kind not in offered(game):
        raise Invalid(_("This mission has no such roll."), "table_roll_unknown")
    if request.nonce and not NONCE.match(request.nonce):
        raise Invalid(_("This form has expired: reload the page."), "table_roll_nonce")
    return kind, kind.action(game, request)


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
    kind = roll_kind(data["kind"])
    keys = (*DETAIL_KEYS, *(kind.detail_keys if kind is not None else ()))
    details = {k: v for k, v in data.items() if k in keys}
    return TableRoll(sequence=data.get("sequence"), kind=data["kind"], dice=tuple(data["dice"]),
                     total=data.get("total"), details=details, user_id=entry.actor_id,
                     username=entry.actor.get_username() if entry.actor else "",
                     rolled_at=entry.created_at, id=entry.pk,
                     # Rolls logged before dice could be entered were all the server's.
                     source=data.get("source", SERVER), sides=tuple(data.get("rolls") or ()),
                     winner=data.get("winner_side"), unused_dice=tuple(data.get("unused_dice") or ()))
