"""Request and answer shapes of the game-system endpoints and of each system's list body."""
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armylists.models import Chart
from armylists.roster import FORMATS
from armylists.serializers import MAX_ROSTER_CHARS, MAX_UNITS, UnitSerializer
from systems.whfb import army as whfb

MAX_TAGS = 20
MAX_OPTIONS = 20
MAX_SIZE = 500


def chart_field() -> serializers.SlugRelatedField:
    return serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Chart.objects.select_related("game_system").prefetch_related("rows__slot"),
    )


def points_limit_field() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=100_000)


def codes_field(max_length: int) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(max_length=40), max_length=max_length,
                                 default=list)


class GameSystemSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    kind = serializers.CharField()


class FactionSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())


class AdvancedRulesSerializer(serializers.Serializer):
    """An event's Warhammer Battle switches (api-v1-systems), all off by default."""

    mantlets = serializers.BooleanField(default=False)
    stakes = serializers.BooleanField(default=False)
    baggage = serializers.BooleanField(default=False)
    baggage_mode = serializers.ChoiceField(choices=whfb.BAGGAGE_MODES, default=whfb.EXTRA_ALLOWANCE)


class WhfbUnitSerializer(UnitSerializer):
    unit_type = serializers.ChoiceField(choices=whfb.UNIT_TYPES)
    tags = codes_field(MAX_TAGS)
    options = codes_field(MAX_OPTIONS)
    baggage = serializers.BooleanField(default=False)


class WhfbListSerializer(serializers.Serializer):
    """Units typed with their type, tags and options, or a roster (BattleScribe, NewRecruit)
    whose categories give the five slots; its units are read as infantry without options."""

    chart = chart_field()
    points_limit = points_limit_field()
    faction = serializers.SlugField(max_length=50, required=False, allow_null=True, default=None)
    advanced_rules = AdvancedRulesSerializer(required=False)
    units = WhfbUnitSerializer(many=True, max_length=MAX_UNITS, required=False)
    roster = serializers.CharField(required=False, trim_whitespace=False, max_length=MAX_ROSTER_CHARS)
    roster_format = serializers.ChoiceField(choices=["auto", *FORMATS], default="auto")

    def validate(self, attrs: dict) -> dict:
        if ("units" in attrs) == ("roster" in attrs):
            raise serializers.ValidationError({"units": [_("Send exactly one of: units, roster.")]})
        return attrs


class CommandoModelSerializer(serializers.Serializer):
    profile = serializers.CharField(max_length=20)
    cal = serializers.IntegerField(min_value=0, max_value=20)
    options = codes_field(MAX_OPTIONS)
    commander = serializers.BooleanField(default=False)
    label = serializers.CharField(max_length=100, required=False, allow_null=True, allow_blank=True,
                                  default=None)


class CommandoListSerializer(serializers.Serializer):
    chart = chart_field()
    points_limit = points_limit_field()
    models = CommandoModelSerializer(many=True, max_length=MAX_UNITS)
    size_min = serializers.IntegerField(min_value=0, max_value=MAX_SIZE, required=False)
    size_max = serializers.IntegerField(min_value=0, max_value=MAX_SIZE, required=False)
