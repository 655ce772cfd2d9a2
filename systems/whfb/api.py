"""API: the public Warhammer Battle victory-points helper (seed 003), with tournament points from
a band table or a preset (events/scoring.py). It lives in league because the scoring table does:
dependencies point league -> missions."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events import scoring
from missions.api import REPORT, refuse
from missions.systems_messages import table_reason
from systems.whfb import victory as whfb_victory

POINTS = {"min_value": 0, "max_value": 1_000_000}


class LossSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    points = serializers.IntegerField(**POINTS)
    looting = serializers.BooleanField(default=False)


class WhfbSideSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    victory_points = serializers.IntegerField(required=False, allow_null=True, **POINTS)
    losses = LossSerializer(many=True, max_length=500, default=list)


class WhfbVictorySerializer(serializers.Serializer):
    sides = WhfbSideSerializer(many=True, min_length=2, max_length=2)
    baggage_captured_by = serializers.CharField(max_length=100, required=False, allow_null=True, default=None)
    # Rows are checked by events.scoring so a bad table gets a code and a readable reason.
    table = serializers.ListField(child=serializers.JSONField(), max_length=scoring.MAX_BANDS + 1,
                                  required=False)
    preset = serializers.CharField(max_length=40, required=False)


def _bands(data: dict) -> tuple[scoring.Band, ...] | None:
    if "table" in data and "preset" in data:
        refuse("table_and_preset")
    try:
        if "preset" in data:
            return scoring.preset(data["preset"])
        if "table" in data:
            return scoring.parse_table(data["table"])
    except scoring.TableError as exc:
        if exc.reason == "preset_unknown":
            refuse("preset_unknown", **exc.params)
        refuse("vp_table_invalid", reason=table_reason(exc.reason, exc.params))
    return None


def _side(data: dict) -> whfb_victory.Side:
    losses = tuple(whfb_victory.Loss(loss["name"], loss["points"], loss["looting"]) for loss in data["losses"])
    return whfb_victory.Side(data["name"], data.get("victory_points"), losses)


class WhfbVictoryPointsView(APIView):
    """POST /api/v1/whfb/victory-points/: VP with looting and baggage (+200), difference, TP."""

    @extend_schema(request=WhfbVictorySerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(WhfbVictorySerializer, request)
        bands = _bands(data)
        first, second = (_side(side) for side in data["sides"])
        try:
            result = whfb_victory.score((first, second), data["baggage_captured_by"])
        except whfb_victory.VictoryInputError as exc:
            refuse(exc.code, **exc.params)
        body = {
            "sides": [{"name": s.name, "victory_points": s.victory_points, "baggage_bonus": s.baggage_bonus}
                      for s in result.sides],
            "difference": result.difference, "winner": result.winner,
        }
        if bands is not None:
            a, b = result.sides
            tp = scoring.tournament_points((a.victory_points, b.victory_points), bands)
            body["tournament_points"] = {a.name: tp.points[0], b.name: tp.points[1]}
            if tp.draw:
                body["winner"] = None  # a difference inside the first band is a draw
        return Response(body)
