"""The Urban War list body (api-v1-systems): one row per model of the commando."""
from rest_framework import serializers

from armylists.serializers import MAX_UNITS
from armylists.systems_serializers import MAX_OPTIONS, chart_field, codes_field, points_limit_field

MAX_SIZE = 500


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
