"""The team event's settings (the creation body's ``"team": {...}``) and the API's bodies."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from teams.engine import draft as engine_draft
from teams.engine import scoring
from teams.engine.refusals import TeamRefused

DRAFTS = ["wtc", "none"]


class TeamMatchPointsSerializer(serializers.Serializer):
    win = serializers.IntegerField(min_value=0, max_value=100, default=2)
    draw = serializers.IntegerField(min_value=0, max_value=100, default=1)
    loss = serializers.IntegerField(min_value=0, max_value=100, default=0)


class TeamByeSerializer(serializers.Serializer):
    match_points = serializers.IntegerField(min_value=0, max_value=100, default=2)
    game_points_per_game = serializers.IntegerField(min_value=0, max_value=1000, default=10)


def _defaults(serializer_class: type[serializers.Serializer]) -> dict:
    return {name: field.default for name, field in serializer_class().fields.items()}


class TeamSettingsSerializer(serializers.Serializer):
    size = serializers.IntegerField(min_value=3, max_value=8, default=5)
    draft = serializers.ChoiceField(choices=DRAFTS, default="wtc")
    game_table = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=0, allow_null=True),
                                    min_length=4, max_length=4),
        required=False, allow_null=True, min_length=1, max_length=200)
    game_preset = serializers.ChoiceField(choices=list(scoring.PRESETS), required=False, allow_null=True)
    result_mode = serializers.ChoiceField(choices=list(scoring.MODES), default=scoring.SUM)
    win_at = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    loss_at = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    cap = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    floor = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    match_points = TeamMatchPointsSerializer(default=lambda: _defaults(TeamMatchPointsSerializer))
    bye = TeamByeSerializer(default=lambda: _defaults(TeamByeSerializer))
    step_seconds = serializers.IntegerField(min_value=10, max_value=86_400, default=180)
    draft_seconds = serializers.IntegerField(min_value=10, max_value=7 * 86_400, default=1800)
    auto_pick = serializers.BooleanField(default=False)

    def validate(self, attrs: dict) -> dict:
        table, preset = attrs.get("game_table"), attrs.get("game_preset")
        if table is not None and preset is not None:
            raise serializers.ValidationError(
                {"game_table": [_("Give a game-points table or a preset, not both.")]})
        if table is not None:
            try:
                scoring.table_from(table)
            except TeamRefused as exc:
                raise serializers.ValidationError({"game_table": [
                    _("The game-points table's rows must start at a difference of 0, each one past "
                      "the previous one's end; only the last may be open (null).")]}) from exc
        elif preset is None:
            attrs["game_preset"] = "gt-20"
        mode = attrs["result_mode"]
        if mode == scoring.CUTOFF:
            if attrs.get("win_at") is None or attrs.get("loss_at") is None:
                raise serializers.ValidationError(
                    {"win_at": [_("The cutoff mode needs win_at and loss_at.")]})
            if attrs["loss_at"] >= attrs["win_at"]:
                raise serializers.ValidationError({"loss_at": [_("loss_at must be below win_at.")]})
        if mode == scoring.CLAMP:
            if attrs.get("cap") is None:
                raise serializers.ValidationError({"cap": [_("The clamp mode needs a cap.")]})
            if attrs.setdefault("floor", 0) is None:
                attrs["floor"] = 0
            if attrs["floor"] > attrs["cap"]:
                raise serializers.ValidationError({"floor": [_("The floor must not be above the cap.")]})
        return attrs


def stored_settings(validated: dict) -> dict:
    """The settings as stored and shown back: every key present."""
    keys = TeamSettingsSerializer().fields
    return {key: validated.get(key) for key in keys}


class TeamBodySerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    captain = serializers.IntegerField()
    members = serializers.ListField(child=serializers.IntegerField(), max_length=50)


class CommitSerializer(serializers.Serializer):
    phase = serializers.ChoiceField(choices=[p for p in engine_draft.PHASES if p not in ("roll", "done")])
    players = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=8)
    table = serializers.IntegerField(required=False, allow_null=True)
    team = serializers.IntegerField(required=False, allow_null=True)  # staff: the team it commits for


class RollSerializer(serializers.Serializer):
    dice = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=6),
                                 min_length=2, max_length=2, required=False, allow_null=True)


class MonitorQuerySerializer(serializers.Serializer):
    """``GET .../draft-monitor/?round=n``."""

    round = serializers.IntegerField(min_value=1, required=False)


class DoublesSettingsSerializer(serializers.Serializer):
    """``"doubles": {...}`` in ``POST /api/v1/tournaments/``: the pair's points rule."""

    points = serializers.ChoiceField(choices=["per_player", "per_pair"], default="per_player")


class PartnerBodySerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
