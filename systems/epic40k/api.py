"""API: the stateless Epic 40,000 campaign tools (seed 001): initiative, planet, army check,
isolation, score, other sectors, fortifications. Public; routed by systems/epic40k/urls.py and
the rules are in campaigns/engine/."""
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api.campaign import problems, refuse_campaign
from campaigns.engine import army, scoring, tools
from campaigns.engine.map import CODES, TERRITORIES, full_control, isolated
from campaigns.serializers import (
    BATTLE_WON,
    ArmySerializer,
    FortificationsSerializer,
    InitiativeSerializer,
    IsolationSerializer,
    OtherSectorsSerializer,
    PlanetSerializer,
    ScoreSerializer,
    detachment_spec,
)
from config.api_errors import validated
from missions.api import REPORT, dice_record, entered_dice, refuse, start_roller


class InitiativeView(APIView):
    """POST /api/v1/epic40k/initiative/: moves, attacks and reactions per turn (4 + VS/2, up)."""

    @extend_schema(request=InitiativeSerializer, responses={200: REPORT})
    def post(self, request):
        value = validated(InitiativeSerializer, request)["strategic_value"]
        low, high = tools.STRATEGIC_VALUE_MIN, tools.STRATEGIC_VALUE_MAX
        if not low <= value <= high:
            refuse_campaign("strategic_value_out_of_range", min=low, max=high)
        initiative = tools.initiative_value(value)
        return Response({"strategic_value": value, "initiative_value": initiative,
                         "moves": initiative, "attacks": initiative, "reactions": initiative})


class PlanetView(APIView):
    """POST /api/v1/epic40k/planet/: the planet type from 2D6; on 8 the organiser may choose."""

    @extend_schema(request=PlanetSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(PlanetSerializer, request)
        roller = start_roller(data)
        with entered_dice():
            rolled = tools.roll_planet(roller, data["on_eight"])
        return Response({"dice": list(rolled.roll.dice), "total": rolled.result.total,
                         "planet": rolled.result.planet,
                         "candidates": list(rolled.result.candidates), **dice_record(roller)})


class ArmyValidateView(APIView):
    """POST /api/v1/epic40k/army/validate/: points and Supreme Commanders of an army."""

    @extend_schema(request=ArmySerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(ArmySerializer, request)
        specs = [detachment_spec(d) for d in data["detachments"]]
        report = army.validate_army(specs, data["faction"], data["army_points"])
        return Response({"valid": report.valid, "total_points": report.total_points,
                         "errors": problems(report.errors), "warnings": problems(report.warnings)})


class IsolationView(APIView):
    """POST /api/v1/epic40k/isolation/: the territories isolated for the next turn.

    Territories left out of ``control`` are held by their own side."""

    @extend_schema(request=IsolationSerializer, responses={200: REPORT})
    def post(self, request):
        control = validated(IsolationSerializer, request)["control"]
        for code in control:
            if code not in TERRITORIES:
                refuse_campaign("territory_unknown", territory=code)
        cut_off = isolated(full_control(control))
        return Response({"isolated": [code for code in CODES if code in cut_off]})


class ScoreView(APIView):
    """POST /api/v1/epic40k/score/: battle wins and detachment losses as score points."""

    @extend_schema(request=ScoreSerializer, responses={200: REPORT})
    def post(self, request):
        events = validated(ScoreSerializer, request)["events"]
        out = []
        for position, event in enumerate(events, start=1):
            field = "enemy_points" if event["kind"] == BATTLE_WON else "points"
            if field not in event:
                refuse_campaign("score_event_incomplete", position=position, kind=event["kind"],
                                field=field)
            if event["kind"] == BATTLE_WON:
                points = scoring.battle_win_points(event["enemy_points"])
            else:
                points = -scoring.detachment_loss_penalty(
                    event["points"], isolated=event["isolated"], swept=event["swept"])
            out.append({"kind": event["kind"], "points": points})
        return Response({"events": out, "total": sum(e["points"] for e in out)})


class OtherSectorsView(APIView):
    """POST /api/v1/epic40k/other-sectors/: the end-of-turn D6 for one side's score."""

    @extend_schema(request=OtherSectorsSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(OtherSectorsSerializer, request)
        if data.get("die") is not None:
            if data.get("dice") is not None or data.get("seed") is not None:
                refuse("seed_and_dice")
            data = {**data, "dice": [data["die"]]}
        roller = start_roller(data)
        with entered_dice():
            result = scoring.roll_other_sectors(roller, data["score"])
        return Response({"die": result.die, "modifier": result.modifier,
                         "modified": result.modified, "delta": result.delta,
                         "new_score": result.new_score, **dice_record(roller)})


class FortificationsView(APIView):
    """POST /api/v1/epic40k/fortifications/: bunkers a fortified territory's defender may use."""

    @extend_schema(request=FortificationsSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(FortificationsSerializer, request)
        return Response({"fortifications": tools.fortifications_allowed(
            data["defender_points"], data["fortified"])})
