"""API: the Cities of Death catalogue and the stateless tools (mission roll, dice, VP, legality)."""
from dataclasses import asdict

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import api_error, validated
from missions import legality, objectives, services, victory
from missions.dice import DiceError, Roller
from missions.messages import outcome_message, stratagem_message, vp_message
from missions.models import Level, Mission, Stratagem
from missions.pregame import pregame, random_game_length
from missions.selection import roll_mission
from missions.serializers import (
    DecideSerializer,
    DiceRollSerializer,
    GameLengthSerializer,
    LevelSerializer,
    MissionBriefSerializer,
    MissionDetailSerializer,
    MissionRollSerializer,
    MissionSerializer,
    PregameSerializer,
    StratagemCheckSerializer,
    StratagemSerializer,
    VictoryPointsSerializer,
)

REPORT = OpenApiResponse(description="result")


def seed_of(data: dict) -> int:
    return data["seed"] if data.get("seed") is not None else services.new_seed()


class MissionListView(generics.ListAPIView):
    """GET /api/v1/missions/: the 5 standard and 6 special missions, in catalogue order."""

    serializer_class = MissionSerializer
    pagination_class = None
    queryset = Mission.objects.order_by("order")


class MissionDetailView(generics.RetrieveAPIView):
    serializer_class = MissionDetailSerializer
    queryset = Mission.objects.all()
    lookup_field = "slug"


class StratagemListView(generics.ListAPIView):
    """GET /api/v1/stratagems/: the 23 stratagems in catalogue order."""

    serializer_class = StratagemSerializer
    pagination_class = None
    queryset = Stratagem.objects.select_related("category").order_by("category__order", "order")


class LevelListView(generics.ListAPIView):
    serializer_class = LevelSerializer
    pagination_class = None
    queryset = Level.objects.order_by("order")


class MissionRollView(APIView):
    """POST /api/v1/missions/roll/: pick a mission by die roll; the same seed gives the same answer."""

    @extend_schema(request=MissionRollSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(MissionRollSerializer, request)
        seed, level = seed_of(data), data["level"]
        standard, special = services.mission_table()
        result = roll_mission(Roller(seed), data["on_six"], standard, special)
        mission = Mission.objects.get(slug=result.slug)
        return Response({
            "mission": MissionBriefSerializer(mission).data, "rolls": list(result.rolls),
            "level": level.slug, "stratagems_per_player": level.stratagems_per_player, "seed": seed,
        })


class DiceRollView(APIView):
    """POST /api/v1/dice/roll/: one roll at the table (D6, 2D6, D3+3, 2D6x3…), reproducible by seed."""

    @extend_schema(request=DiceRollSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(DiceRollSerializer, request)
        seed = seed_of(data)
        try:
            roll = Roller(seed).roll(data["expression"], data["purpose"])
        except (ValueError, DiceError) as exc:
            return api_error(str(exc), "dice_expression_invalid")
        return Response({"seed": seed, "roll": services.roll_data(roll)})


class GameLengthView(APIView):
    """POST /api/v1/dice/game-length/: Random Game Length after the last turn (4+ adds a turn, at most 3)."""

    @extend_schema(request=GameLengthSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(GameLengthSerializer, request)
        seed = seed_of(data)
        result = random_game_length(Roller(seed), last_turn=data["last_turn"])
        return Response({"seed": seed, "turns": result.turns, "rolls": [services.roll_data(r) for r in result.rolls]})


class PregameView(APIView):
    """POST /api/v1/missions/pregame/: every roll made before the first turn of a game."""

    @extend_schema(request=PregameSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(PregameSerializer, request)
        players = tuple(data["players"])
        if players[0] == players[1]:
            return api_error("The two players need different names.", "players_not_distinct")
        seed = seed_of(data)
        spec = services.mission_spec(data["mission"])
        result = pregame(Roller(seed), spec, data["level"].slug, players)
        body = {key: value for key, value in asdict(result).items() if key != "rolls"}
        body["players"] = list(players)
        body["rolls"] = [services.roll_data(roll) for roll in result.rolls]
        return Response({"seed": seed, "mission": data["mission"].slug, "level": data["level"].slug, **body})


class StratagemCheckView(APIView):
    """POST /api/v1/stratagems/check/: is this declaration legal for this mission, level and role?"""

    @extend_schema(request=StratagemCheckSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(StratagemCheckSerializer, request)
        exceptions = services.exceptions_of(data["mission"])
        allowance = data["level"].stratagems_per_player
        problems = legality.check_stratagems(
            data["stratagems"], allowance=allowance, role=data["role"],
            categories=services.stratagem_categories(), exceptions=exceptions,
        )
        names = services.catalogue_names()
        granted = legality.allowance_for(allowance, data["role"], exceptions)
        return Response({
            "legal": not problems,
            "errors": [{"code": p.code, "message": stratagem_message(p.code, p.params, names),
                        "params": dict(p.params)} for p in problems],
            "allowance": {"base": granted.base, "extras": dict(granted.extras),
                          "free": dict(granted.free),
                          "forbidden_categories": sorted(granted.forbidden_categories)},
        })


def side_state(side: dict) -> victory.SideState:
    units = tuple(victory.UnitState(**unit) for unit in side["units"])
    return victory.SideState(side["name"], side["role"], units)


class VictoryPointsView(APIView):
    """POST /api/v1/victory-points/: score a finished game (25% rule, separate elements)."""

    @extend_schema(request=VictoryPointsSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(VictoryPointsSerializer, request)
        try:
            result = services.score_game(data["mission"], tuple(side_state(s) for s in data["sides"]))
        except victory.VpInputError as exc:
            return api_error(vp_message(exc.code, exc.params), exc.code)
        body = {
            "sides": [{"name": s.name, "victory_points": s.victory_points,
                       "units": [asdict(u) for u in s.units]} for s in result.sides],
            "winner": result.winner, "margin": result.margin,
        }
        if "points_limit" in data:
            body["margin_band"] = services.margin_band(result.margin, data["points_limit"])
        return Response(body)


class DecideView(APIView):
    """POST /api/v1/missions/{slug}/decide/: who won, from the objective outcome a player reports."""

    @extend_schema(request=DecideSerializer, responses={200: REPORT})
    def post(self, request, slug: str):
        mission = generics.get_object_or_404(Mission, slug=slug)
        data = validated(DecideSerializer, request)
        sides = tuple(data["sides"])
        vp = services.vp_result(sides, data["victory_points"]) if "victory_points" in data else None
        try:
            decision = objectives.decide(
                mission.objective_kind, data["outcome"], sides=sides, roles=data.get("roles"), vp=vp
            )
        except objectives.OutcomeError as exc:
            return api_error(outcome_message(exc.code, exc.params), exc.code)
        return Response({"winner": decision.winner, "reason": decision.reason})
