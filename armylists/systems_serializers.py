"""Request and answer shapes of the game-system endpoints, and the fields every system's list
body is made of (each system's own body: systems/<pkg>/list_serializers.py)."""
from rest_framework import serializers

from armylists.models import Chart

MAX_TAGS = 20
MAX_OPTIONS = 20


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
