"""API: the Cities of Death catalogue and the stateless tools (mission roll, dice, VP, legality)."""
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import api_error, validated
from missions import legality, objectives, services, victory
from missions.dice import DiceError, EnteredDiceError, EnteredRoller, Roller
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
from missions.systems_messages import system_message

REPORT = OpenApiResponse(description="result")


def seed_of(data: dict) -> int:
    return data["seed"] if data.get("seed") is not None else services.new_seed()


def refuse(code: str, **params: object) -> None:
    """Stop the request with a 400 ``{"detail", "code"}`` in the reader's language."""
    raise exceptions.ValidationError({"detail": system_message(code, params), "code": code})


def start_roller(data: dict) -> Roller:
    """The faces thrown at the table when the body has ``dice``, else the seeded server roller."""
    if data.get("dice") is None:
        return Roller(seed_of(data))
    if data.get("seed") is not None:
        refuse("seed_and_dice")
    return EnteredRoller(data["dice"])


@contextmanager
def entered_dice() -> Iterator[None]:
    """Too few or impossible entered faces become 400 ``dice_missing`` / ``dice_invalid``."""
    try:
        yield
    except EnteredDiceError as exc:
        refuse(exc.code, **exc.params)


def dice_record(roller: Roller) -> dict:
    """What records the dice of a stateless answer: the seed (None for entered dice) and the
    entered faces no roll needed, when there are any."""
    body: dict = {"seed": roller.seed}
    if isinstance(roller, EnteredRoller) and roller.unused_dice:
        body["unused_dice"] = list(roller.unused_dice)
    return body


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
        roller, level = start_roller(data), data["level"]
        standard, special = services.mission_table()
        with entered_dice():
            result = roll_mission(roller, data["on_six"], standard, special)
        mission = Mission.objects.get(slug=result.slug)
        return Response({
            "mission": MissionBriefSerializer(mission).data, "rolls": list(result.rolls),
            "level": level.slug, "stratagems_per_player": level.stratagems_per_player,
            **dice_record(roller),
        })


class DiceRollView(APIView):
    """POST /api/v1/dice/roll/: one roll at the table (D6, 2D6, D3+3, 2D6x3…), reproducible by seed."""

    @extend_schema(request=DiceRollSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(DiceRollSerializer, request)
        roller = start_roller(data)
        try:
            with entered_dice():
                roll = roller.roll(data["expression"], data["purpose"])
        except (ValueError, DiceError) as exc:
            return api_error(str(exc), "dice_expression_invalid")
        return Response({**dice_record(roller), "roll": services.roll_data(roll)})


class GameLengthView(APIView):
    """POST /api/v1/dice/game-length/: Random Game Length after the last turn (4+ adds a turn, at most 3)."""

    @extend_schema(request=GameLengthSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(GameLengthSerializer, request)
        roller = start_roller(data)
        with entered_dice():
            result = random_game_length(roller, last_turn=data["last_turn"])
        return Response({**dice_record(roller), "turns": result.turns,
                         "rolls": [services.roll_data(r) for r in result.rolls]})


class PregameView(APIView):
    """POST /api/v1/missions/pregame/: every roll made before the first turn of a game.

    ``turn_system: "dynamics"`` (seed 004): no first-turn roll, ``goes_first`` null, and
    ``permanent_advantage`` for the player the mission would have started."""

    @extend_schema(request=PregameSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(PregameSerializer, request)
        players = tuple(data["players"])
        if players[0] == players[1]:
            refuse("players_not_distinct")
        roller = start_roller(data)
        spec = services.mission_spec(data["mission"])
        with entered_dice():
            result = pregame(roller, spec, data["level"].slug, players, turn_system=data["turn_system"])
        body = {key: value for key, value in asdict(result).items() if key != "rolls"}
        body["players"] = list(players)
        body["rolls"] = [services.roll_data(roll) for roll in result.rolls]
        return Response({**dice_record(roller), "mission": data["mission"].slug,
                         "level": data["level"].slug, **body})


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
