"""API shapes of table rolls (api-v1-systems "Table rolls through the API"): the body of
``POST games/{id}/rolls/`` and a logged roll as the answer and ``GET games/{id}/`` show it.

Rolls are stored by side (events/services/table_rolls); here sides become the game's player ids.
What a kind adds to the body and the answer is its `RollKind`'s (systems/rolls.py)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from events.audit import Actor
from events.models import Game, Player
from events.serializers import InstantField
from events.services import table_rolls
from missions.serializers import DiceField
from systems.rolls import (
    MAX_WHAT,
    TableRoll,
    TableRollRequest,
    player_of_side,
    roll_kind,
    roll_kinds,
)

MAX_KIND = 40


class TableRollBodySerializer(serializers.Serializer):
    """Types only: ranges, players and kinds are checked by the service, which answers each
    refusal with its own code (roll_kind_not_available, table_roll_turn, table_roll_pass,
    player_not_in_game) before anything is rolled. Beside the fields every kind reads, the body
    takes those of every registered kind (``RollKind.body``: "pass", "bonus_now"...)."""

    kind = serializers.CharField(max_length=MAX_KIND)
    note = serializers.CharField(max_length=MAX_WHAT, required=False, allow_blank=True, default="")
    turn = serializers.IntegerField(required=False, allow_null=True, default=None)
    dice = DiceField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for kind in roll_kinds():
            for name, make in kind.body.items():
                fields.setdefault(name, make())
        return fields


def roll_request(data: dict[str, Any]) -> TableRollRequest:
    dice = data.get("dice")
    kind = roll_kind(data["kind"])
    extra = kind.from_body(data) if kind is not None and kind.from_body is not None else {}
    return TableRollRequest(kind=data["kind"], turn=data.get("turn"), what=data.get("note") or "",
                            dice=None if dice is None else tuple(dice), **extra)


def roll_data(line: TableRoll, game: Game) -> dict[str, Any]:
    """One logged roll: ``rolls`` (each die; by player with modifier and score in a roll-off),
    ``winner``, ``total`` for a single roll, what it was for, its source, who asked and when;
    the kind's own fields (``RollKind.answer_keys`` and ``answer``)."""
    details = line.details
    body: dict[str, Any] = {"id": line.id, "kind": line.kind, "source": line.source}
    if line.sides:
        body["rolls"] = [{"player": player_of_side(game, r["side"]), "die": r["die"],
                          "modifier": r["modifier"], "score": r["score"]} for r in line.sides]
        body["winner"] = player_of_side(game, line.winner)
    else:
        body["rolls"] = [{"die": face} for face in line.dice]
        body["total"] = line.total
    kind = roll_kind(line.kind)
    for key in ("turn", *(kind.answer_keys if kind is not None else ())):
        if key in details:
            body[key] = details[key]
    if kind is not None and kind.answer is not None:
        body.update(kind.answer(details, game))
    if details.get("what"):
        body["note"] = details["what"]
    if line.unused_dice:
        body["unused_dice"] = list(line.unused_dice)
    body["asked_by"] = {"player": details.get("player"), "username": line.username}
    body["rolled_at"] = InstantField().to_representation(line.rolled_at)
    return body


def table_rolls_for(game: Game, actor: Actor) -> list[dict[str, Any]] | None:
    """The game's table rolls, oldest first, for its two players and staff; None for anyone
    else (the log names who asked). One query for the rolls, one more for a non-staff reader."""
    if game.is_bye or actor.user_id is None:
        return None
    if not actor.is_staff and not Player.objects.filter(
            pk__in=game.player_ids, user_id=actor.user_id).exists():
        return None
    return [roll_data(line, game) for line in reversed(table_rolls.log(game))]
