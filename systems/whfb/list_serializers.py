"""The Warhammer Battle list body (api-v1-systems): units with type, tags, options and baggage,
or a roster; and an event's advanced rules."""
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from armylists.roster import FORMATS
from armylists.serializers import MAX_ROSTER_CHARS, MAX_UNITS, UnitSerializer
from armylists.systems_serializers import (
    MAX_OPTIONS,
    MAX_TAGS,
    chart_field,
    codes_field,
    points_limit_field,
)
from systems.whfb import army as whfb


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
