"""API: the stateless W40K Dynamics tools (seed 004): tokens, passes, advantage test, morale."""
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from missions.api import REPORT, dice_record, entered_dice, refuse, start_roller
from systems.w40k4 import dynamics
from systems.w40k4.dynamics_serializers import (
    AdvantageSerializer,
    MoraleSerializer,
    PassesSerializer,
    TokensSerializer,
)


class TokensView(APIView):
    """POST /api/v1/dynamics/tokens/: order tokens per order, in total and in sheets of 30."""

    @extend_schema(request=TokensSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(TokensSerializer, request)
        if data["points"] < 1:
            refuse("points_not_positive")
        count = dynamics.tokens(data["points"], data["rounding"])
        return Response({"points": count.points, "per_order": count.per_order, "orders": count.orders,
                         "total": count.total, "sheets": count.sheets})


def _unit(data: dict) -> dynamics.UnitInitiative:
    vehicle = data.get("vehicle")
    return dynamics.UnitInitiative(
        name=data["name"], initiative=data.get("initiative"),
        models_initiative=tuple(data["models_initiative"]),
        vehicle=dynamics.Vehicle(vehicle["driver_initiative"], frozenset(vehicle["types"]),
                                 vehicle.get("carried_initiative")) if vehicle else None,
    )


class PassesView(APIView):
    """POST /api/v1/dynamics/passes/: each unit's Initiative pass, reveal and resolve order."""

    @extend_schema(request=PassesSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(PassesSerializer, request)
        plan = dynamics.passes([_unit(unit) for unit in data["units"]])
        return Response({
            "units": [{"name": u.name, "pass": u.pass_, "warnings": list(u.warnings)} for u in plan.units],
            "reveal": list(plan.reveal), "resolve": list(plan.resolve),
            "by_pass": {str(number): list(names) for number, names in plan.by_pass.items()},
        })


class AdvantageView(APIView):
    """POST /api/v1/dynamics/advantage/: 1D6 each, +1 bonus now, +2 permanent, ties re-rolled."""

    @extend_schema(request=AdvantageSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(AdvantageSerializer, request)
        players = tuple(data["players"])
        if players[0] == players[1]:
            refuse("players_not_distinct")
        for key in ("bonus_now", "permanent"):
            if data.get(key) is not None and data[key] not in players:
                refuse("player_not_in_test", player=data[key])
        roller = start_roller(data)
        with entered_dice():
            test = dynamics.advantage_test(roller, players, bonus_now=data.get("bonus_now"),
                                           permanent=data.get("permanent"))
        rolls = [{"player": roll.actor, "die": roll.total, "modifier": test.modifiers[roll.actor],
                  "score": roll.total + test.modifiers[roll.actor]} for roll in test.rolls]
        return Response({"rolls": rolls, "winner": test.winner, **dice_record(roller)})


class MoraleView(APIView):
    """POST /api/v1/dynamics/morale/: do the pending shooting casualties call for a morale test?"""

    @extend_schema(request=MoraleSerializer, responses={200: REPORT})
    def post(self, request):
        data = validated(MoraleSerializer, request)
        models, pending = data["models_at_start"], data["pending_from_shooting"]
        if models < 1:
            refuse("models_not_positive")
        if not 0 <= pending <= models:
            refuse("pending_out_of_range", models=models)
        check = dynamics.morale_check(models, pending, data["rule"])
        return Response({"test_required": check.test_required, "fraction": check.fraction,
                         "minimum_casualties": check.minimum_casualties})
