"""API shapes of table rolls (api-v1-systems "Table rolls through the API"): the body of
``POST games/{id}/rolls/`` and a logged roll as the answer and ``GET games/{id}/`` show it.

Rolls are stored by side (league/services/table_rolls); here sides become the game's player ids."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from events.audit import Actor
from events.models import Game, Player
from events.serializers import InstantField
from events.services import table_rolls
from missions.serializers import DiceField

MAX_KIND = 40
MAX_PLAYERS_LISTED = 10  # a game has two players; a little slack keeps the refusal a clear 400


class TableRollBodySerializer(serializers.Serializer):
    """Types only: ranges, players and kinds are checked by the service, which answers each
    refusal with its own code (roll_kind_not_available, table_roll_turn, table_roll_pass,
    player_not_in_game) before anything is rolled."""

    kind = serializers.CharField(max_length=MAX_KIND)
    note = serializers.CharField(max_length=table_rolls.MAX_WHAT, required=False, allow_blank=True,
                                 default="")
    turn = serializers.IntegerField(required=False, allow_null=True, default=None)
    bonus_now = serializers.IntegerField(required=False, allow_null=True, default=None)
    commander_down = serializers.ListField(child=serializers.IntegerField(), required=False,
                                           max_length=MAX_PLAYERS_LISTED, default=list)
    dice = DiceField(allow_null=True)
    cd = serializers.IntegerField(required=False, allow_null=True, default=None)
    cal = serializers.IntegerField(required=False, allow_null=True, default=None)
    modifiers = serializers.ListField(child=serializers.IntegerField(min_value=-10, max_value=10),
                                      required=False, max_length=MAX_PLAYERS_LISTED, default=list)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # "pass" is a Python keyword, so it cannot be declared as a class attribute.
        fields["pass"] = serializers.IntegerField(required=False, allow_null=True, default=None)
        return fields


def roll_request(data: dict[str, Any]) -> table_rolls.TableRollRequest:
    dice = data.get("dice")
    return table_rolls.TableRollRequest(
        kind=data["kind"], turn=data.get("turn"), what=data.get("note") or "", pass_=data.get("pass"),
        bonus_now=data.get("bonus_now"), commander_down=tuple(data.get("commander_down") or ()),
        dice=None if dice is None else tuple(dice), cd=data.get("cd"), cal=data.get("cal"),
        modifier=sum(data.get("modifiers") or ()))


def roll_data(line: table_rolls.TableRoll, game: Game) -> dict[str, Any]:
    """One logged roll: ``rolls`` (each die; by player with modifier and score in a roll-off),
    ``winner``, ``total`` for a single roll, what it was for, its source, who asked and when."""
    details = line.details
    body: dict[str, Any] = {"id": line.id, "kind": line.kind, "source": line.source}
    if line.sides:
        body["rolls"] = [{"player": table_rolls.player_of_side(game, r["side"]), "die": r["die"],
                          "modifier": r["modifier"], "score": r["score"]} for r in line.sides]
        body["winner"] = table_rolls.player_of_side(game, line.winner)
    else:
        body["rolls"] = [{"die": face} for face in line.dice]
        body["total"] = line.total
    for key in ("turn", "pass", "extra_turn", "target", "arrives", "cd", "cal", "modifier", "passed",
                "automatic_failure"):
        if key in details:
            body[key] = details[key]
    if line.kind == table_rolls.ADVANTAGE:
        body["bonus_now"] = table_rolls.player_of_side(game, details.get("bonus_now"))
        body["permanent_advantage"] = table_rolls.player_of_side(game, details.get("permanent"))
    if line.kind == table_rolls.INITIATIVE:
        body["commander_down"] = [table_rolls.player_of_side(game, side)
                                  for side in details.get("commander_down") or ()]
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
