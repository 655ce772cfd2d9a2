"""API shapes for the catalogue and the stateless mission tools."""
from rest_framework import serializers

from missions.models import Level, Mission, Stratagem
from missions.pregame import TURN_STANDARD, TURN_SYSTEMS
from missions.victory import UNIT_TYPES, VEHICLE_DAMAGE

ROLE_OR_NULL = ["attacker", "defender"]


class MissionBriefSerializer(serializers.ModelSerializer):
    name = serializers.CharField()

    class Meta:
        model = Mission
        fields = ["slug", "name", "kind"]


class MissionSerializer(serializers.ModelSerializer):
    name = serializers.CharField()
    objective = serializers.CharField()

    class Meta:
        model = Mission
        fields = ["slug", "name", "kind", "d6", "uses_victory_points", "roles", "role_charts",
                  "objective_kind", "objective", "game_turns", "first_turn", "special_rules_by_level"]


class MissionDetailSerializer(MissionSerializer):
    deployment = serializers.CharField()

    class Meta(MissionSerializer.Meta):
        fields = [*MissionSerializer.Meta.fields, "deployment", "game_turns_note_en", "game_turns_note_fr", "victory_points",
                  "stratagem_exceptions", "outcome_fields", "diagram", "notes"]


class StratagemSerializer(serializers.ModelSerializer):
    name = serializers.CharField()
    category = serializers.CharField(source="category.slug")
    category_name = serializers.CharField(source="category.name")
    summary = serializers.CharField()

    class Meta:
        model = Stratagem
        fields = ["slug", "name", "category", "category_name", "summary", "markers", "placement"]


class LevelSerializer(serializers.ModelSerializer):
    name = serializers.CharField()

    class Meta:
        model = Level
        fields = ["slug", "name", "table_width_cm", "table_depth_cm", "ruins_min", "ruins_max",
                  "stratagems_per_player"]


def level_field() -> serializers.SlugRelatedField:
    return serializers.SlugRelatedField(slug_field="slug", queryset=Level.objects.all())


def mission_field() -> serializers.SlugRelatedField:
    return serializers.SlugRelatedField(slug_field="slug", queryset=Mission.objects.all())


class SeedField(serializers.IntegerField):
    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=2**63 - 1, required=False, **kwargs)


MAX_ENTERED_DICE = 1000


class DiceField(serializers.ListField):
    """Faces thrown at the table, in the order the server would roll them (instead of a seed).

    Any integer is accepted here: whether it fits the die is the roller's answer (dice_invalid).
    """

    def __init__(self, **kwargs):
        super().__init__(child=serializers.IntegerField(), max_length=MAX_ENTERED_DICE,
                         required=False, **kwargs)


class MissionRollSerializer(serializers.Serializer):
    level = level_field()
    on_six = serializers.ChoiceField(choices=["reroll", "special"])
    seed = SeedField()
    dice = DiceField()


class DiceRollSerializer(serializers.Serializer):
    expression = serializers.CharField(max_length=20)
    purpose = serializers.CharField(max_length=120, default="table")
    seed = SeedField()
    dice = DiceField()


class GameLengthSerializer(serializers.Serializer):
    last_turn = serializers.IntegerField(min_value=1, max_value=20, default=6)
    seed = SeedField()
    dice = DiceField()


class PregameSerializer(serializers.Serializer):
    mission = mission_field()
    level = level_field()
    players = serializers.ListField(
        child=serializers.CharField(max_length=100), min_length=2, max_length=2
    )
    seed = SeedField()
    dice = DiceField()
    turn_system = serializers.ChoiceField(choices=TURN_SYSTEMS, default=TURN_STANDARD)


class StratagemCheckSerializer(serializers.Serializer):
    mission = mission_field()
    level = level_field()
    role = serializers.ChoiceField(choices=ROLE_OR_NULL, allow_null=True, required=False, default=None)
    stratagems = serializers.ListField(child=serializers.CharField(max_length=60), max_length=50)


class UnitStateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    points = serializers.IntegerField(min_value=0, max_value=100_000)
    type = serializers.ChoiceField(choices=UNIT_TYPES)
    starting_models = serializers.IntegerField(min_value=1, max_value=10_000, default=1)
    remaining_models = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    starting_wounds = serializers.IntegerField(min_value=1, max_value=1_000, required=False, allow_null=True)
    remaining_wounds = serializers.IntegerField(min_value=0, max_value=1_000, required=False, allow_null=True)
    vehicle_damage = serializers.ChoiceField(choices=VEHICLE_DAMAGE, default="none")
    falling_back = serializers.BooleanField(default=False)
    exited = serializers.BooleanField(default=False)

    def validate(self, attrs: dict) -> dict:
        attrs.setdefault("remaining_models", attrs["starting_models"])
        return attrs


class SideSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    role = serializers.ChoiceField(choices=ROLE_OR_NULL, allow_null=True, required=False, default=None)
    units = UnitStateSerializer(many=True, max_length=500)


class VictoryPointsSerializer(serializers.Serializer):
    mission = mission_field()
    sides = SideSerializer(many=True, min_length=2, max_length=2)
    points_limit = serializers.IntegerField(min_value=1, max_value=100_000, required=False)


class DecideSerializer(serializers.Serializer):
    sides = serializers.ListField(child=serializers.CharField(max_length=100), min_length=2, max_length=2)
    roles = serializers.DictField(child=serializers.ChoiceField(choices=ROLE_OR_NULL), required=False)
    outcome = serializers.DictField(default=dict)
    victory_points = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)
