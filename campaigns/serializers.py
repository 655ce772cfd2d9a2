"""Request shapes of the Epic 40,000 stateless tools (api-v1-systems "Epic 40,000 campaigns")."""
from rest_framework import serializers

from campaigns.engine.army import (
    ARMY_POINTS,
    GROUND,
    KINDS,
    UNIT_TAGS,
    DetachmentSpec,
    unit_from_dict,
)
from campaigns.engine.map import SIDES
from campaigns.engine.tools import ON_EIGHT_ASK, ON_EIGHT_CHOICES
from missions.serializers import DiceField, SeedField

POINTS = {"min_value": 0, "max_value": 1_000_000}
# Wide bounds: out-of-range values get the contract's {"detail", "code"} from the view.
WIDE = {"min_value": -1_000_000, "max_value": 1_000_000}
BATTLE_WON, DETACHMENT_LOST = "battle_won", "detachment_lost"


class InitiativeSerializer(serializers.Serializer):
    strategic_value = serializers.IntegerField(**WIDE)


class PlanetSerializer(serializers.Serializer):
    on_eight = serializers.ChoiceField(choices=ON_EIGHT_CHOICES, default=ON_EIGHT_ASK)
    seed = SeedField()
    dice = DiceField()


MAX_UNITS = 200  # per detachment


class DetachmentUnitSerializer(serializers.Serializer):
    """One unit of a detachment's sheet; its tags feed the seed's gates (R21 Flak, R25
    infiltrators and war engines, R13 vehicles)."""

    name = serializers.CharField(max_length=200)
    type = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    points = serializers.IntegerField(required=False, allow_null=True, default=None, **POINTS)
    tags = serializers.ListField(child=serializers.ChoiceField(choices=UNIT_TAGS),
                                 max_length=len(UNIT_TAGS), default=list)
    # R14: the Epic 40,000 interception value (a unit intercepting a landing acts on a D6 below it).
    interception_value = serializers.IntegerField(required=False, allow_null=True,
                                                  min_value=0, max_value=7)


class DetachmentSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    points = serializers.IntegerField(**POINTS)
    kind = serializers.ChoiceField(choices=KINDS, default=GROUND)
    supreme_commander = serializers.BooleanField(default=False)
    units = DetachmentUnitSerializer(many=True, required=False, max_length=MAX_UNITS)


def detachment_spec(data) -> DetachmentSpec:
    """A validated ``DetachmentSerializer`` row as the engine's detachment."""
    return DetachmentSpec(data["name"], data["points"], data["kind"], data["supreme_commander"],
                          tuple(unit_from_dict(u) for u in data.get("units", ())))


class ArmySerializer(serializers.Serializer):
    army_points = serializers.IntegerField(min_value=1, max_value=1_000_000, default=ARMY_POINTS)
    faction = serializers.SlugField(max_length=60)
    detachments = DetachmentSerializer(many=True, max_length=500)


class IsolationSerializer(serializers.Serializer):
    # Keys are checked in the view, so an unknown code gets territory_unknown.
    control = serializers.DictField(child=serializers.ChoiceField(choices=SIDES))


class ScoreEventSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=(BATTLE_WON, DETACHMENT_LOST))
    enemy_points = serializers.IntegerField(required=False, **POINTS)
    points = serializers.IntegerField(required=False, **POINTS)
    isolated = serializers.BooleanField(default=False)
    swept = serializers.BooleanField(default=False)


class ScoreSerializer(serializers.Serializer):
    events = ScoreEventSerializer(many=True, max_length=1000)


class OtherSectorsSerializer(serializers.Serializer):
    score = serializers.IntegerField(**WIDE)
    # Any integer: whether it fits a D6 is the roller's answer (dice_invalid).
    die = serializers.IntegerField(required=False, **WIDE)
    seed = SeedField()
    dice = DiceField()


class FortificationsSerializer(serializers.Serializer):
    defender_points = serializers.IntegerField(**POINTS)
    fortified = serializers.BooleanField()
