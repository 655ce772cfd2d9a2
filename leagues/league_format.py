"""The ``league`` event format: its settings in the creation body (``"league": {...}``), stored
when the tournament is created, shown back; and the hooks events asks the format for."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from events import formats
from events.serializers import InstantField
from leagues.models import League

NAME = "league"
MAX_WEEKS = 30  # a tournament's rounds: each week is one


class PointsSerializer(serializers.Serializer):
    win = serializers.IntegerField(default=3, min_value=-1000, max_value=1000)
    draw = serializers.IntegerField(default=1, min_value=-1000, max_value=1000)
    loss = serializers.IntegerField(default=0, min_value=-1000, max_value=1000)


class WeekSerializer(serializers.Serializer):
    opens = InstantField()
    closes = InstantField()
    points_limit = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                            max_value=100_000)

    def validate(self, attrs: dict) -> dict:
        if attrs["closes"] <= attrs["opens"]:
            raise serializers.ValidationError(_("A week closes after it opens."))
        return attrs


class LeagueSettingsSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=League.Mode.choices, default=League.Mode.OPEN_PLAY)
    points = PointsSerializer(default=lambda: {"win": 3, "draw": 1, "loss": 0})
    games_counted_per_week = serializers.IntegerField(default=2, min_value=1, max_value=100)
    drop_worst_weeks = serializers.IntegerField(default=0, min_value=0, max_value=MAX_WEEKS)
    byes_allowed = serializers.IntegerField(default=1, min_value=0, max_value=MAX_WEEKS)
    rematch = serializers.ChoiceField(choices=League.Rematch.choices, default=League.Rematch.NEVER)
    escalation = serializers.BooleanField(default=False)
    weeks = WeekSerializer(many=True, allow_empty=False, max_length=MAX_WEEKS)

    def validate(self, attrs: dict) -> dict:
        if attrs["drop_worst_weeks"] >= len(attrs["weeks"]):
            raise serializers.ValidationError(
                {"drop_worst_weeks": [_("Fewer weeks must be dropped than the league has.")]})
        return attrs


def register() -> None:
    from leagues import api, hooks
    from leagues.services import setup

    formats.register(formats.EventFormat(
        NAME, _("league over weeks"), LeagueSettingsSerializer,
        create=setup.create_league, read=setup.league_settings,
        player_list=api.week_list_answer, **hooks.HOOKS))
