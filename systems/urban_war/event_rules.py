"""Urban War (seed 002): commando size bounds and the result mode are event settings; a report
names whose commando was destroyed and what each player destroyed, and the server derives the
victory points (points of the enemy models destroyed, UG4) and, with no commando destroyed, the
result by the event's ``result_mode``."""
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events.systems.base import STANDARD, EventRules, Scored
from missions.systems_messages import system_message
from systems.urban_war import table_rules as engine
from systems.urban_war.list_serializers import MAX_SIZE

MAX_DESTROYED = 200


class UrbanWarSettingsSerializer(serializers.Serializer):
    size_min = serializers.IntegerField(min_value=0, max_value=MAX_SIZE, default=6)
    size_max = serializers.IntegerField(min_value=0, max_value=MAX_SIZE, default=20)
    result_mode = serializers.ChoiceField(choices=engine.RESULT_MODES, default=engine.DESTROYED_OR_DRAW)

    def validate(self, attrs: dict) -> dict:
        if attrs["size_min"] > attrs["size_max"]:
            raise serializers.ValidationError(
                {"size_min": [_("The smallest commando size is above the largest.")]})
        return attrs


class UrbanWarOutcomeSerializer(serializers.Serializer):
    commando_destroyed = serializers.IntegerField(required=False, allow_null=True, default=None)
    destroyed = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=100), max_length=MAX_DESTROYED),
        required=False, default=dict)


class _Model:
    """A stored commando entry as the result engine reads it (its label and points)."""

    def __init__(self, label: str, points: int) -> None:
        self.label, self.points = label, points


class UrbanWarEvent(EventRules):
    slug = "urban-war"
    settings = UrbanWarSettingsSerializer
    outcome = UrbanWarOutcomeSerializer
    # Every Urban War roll is a D10; the set-up roll-offs (side, then who starts) come before
    # the initiative of each turn, as on the game page (#24 item 12).
    roll_kinds = {STANDARD: ("d10", "urban_war_side", "urban_war_start", "urban_war_initiative",
                             "urban_war_command_test")}
    derives_victory_points = True
    # The front is written on at the table (both commandos with their follow-up boxes, set-up,
    # initiative per turn, result); the back is read: the scenario and the D10 reference card,
    # so that two 20-model commandos and a 5,000-character scenario each keep a whole page.
    sheet_blocks = ("urban_war_commandos", "urban_war_setup", "urban_war_initiative",
                    "urban_war_outcome", "result")
    back_blocks = ("scenario", "urban_war_reference", "vp_table")

    def list_inputs(self, tournament: Any) -> dict[str, Any]:
        stored = tournament.settings or {}
        return {key: stored[key] for key in ("size_min", "size_max") if key in stored}

    def needs_lists(self) -> bool:
        return True

    def score(self, game: Any, winner: int | None, victory_points: Mapping[int, int],
              facts: Mapping[str, Any], lists: Mapping[int, Sequence[Mapping[str, Any]]]) -> Scored:
        from events.errors import Invalid

        players = [str(pid) for pid in game.player_ids]
        commandos = {pid: [_Model(str(e["label"]), int(e["points"])) for e in lists.get(int(pid), ())]
                     for pid in players}
        destroyed = {str(k): list(v) for k, v in (facts.get("destroyed") or {}).items()}
        loser = facts.get("commando_destroyed")
        outcome = engine.Outcome(None if loser is None else str(loser), destroyed)
        mode = (game.round.tournament.settings or {}).get("result_mode", engine.DESTROYED_OR_DRAW)
        try:
            result = engine.game_result(commandos, outcome, mode)
            engine.check_winner(result, outcome, None if winner is None else str(winner))
        except engine.KillsRefused as exc:
            if exc.code == "player_not_in_game":
                message = _("Player %(id)s did not play in this game.") % {"id": exc.params["player"]}
            else:
                message = system_message(exc.code, exc.params)
            raise Invalid(message, exc.code) from None
        return Scored(None if result.winner is None else int(result.winner),
                      {int(k): v for k, v in result.victory_points.items()},
                      {"commando_destroyed": loser,
                       "destroyed": {k: list(v) for k, v in result.destroyed.items()}})
