"""API: games, their reports, confirmations and disputes (api-v1)."""
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events import serializers as s
from events.api.common import ANSWER, actor_of, game_for, require_signed_in
from events.messages import list_problem_text
from events.rolls_serializers import table_rolls_for
from events.services import dynamics, results


class GameView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, pk: int):
        game = game_for(request, pk)
        data = s.game_data(game, list_problem_text)
        data["round"] = game.round.number
        data["tournament"] = game.round.tournament.slug
        dynamics_block = dynamics.block(game)  # None outside a Dynamics event
        if dynamics_block is not None:
            data["dynamics"] = dynamics_block
        rolls = table_rolls_for(game, actor_of(request))  # None for anyone but its players, staff
        if rolls is not None:
            data["table_rolls"] = rolls
        return Response(data)


class ReportView(APIView):
    """POST: a player of the game (or staff) reports its result."""

    @extend_schema(request=s.ReportSerializer, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        try:
            data = validated(s.ReportSerializer, request)
        except APIException:
            game_for(request, pk)  # a game the reader may not see is a 404 before the body's 400
            raise
        # The service answers 404 or 403 for a game the reader may not report (one read, locked).
        content = results.ResultInput(
            winner=data["result"].get("winner"), outcome=data["result"].get("outcome"),
            victory_points=data["victory_points"], stratagems=data["stratagems"], comment=data["comment"],
            facts=data.get("outcome"), campaign=data.get("campaign"))
        game = results.report(actor_of(request), pk, content)
        return Response({"status": game.status, "game": game.pk})


class ConfirmView(APIView):
    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        game = results.confirm(actor_of(request), pk)  # 404 or 403 as game_for, in one read
        return Response({"status": game.status, "game": game.pk})


class DisputeView(APIView):
    @extend_schema(request=s.DisputeSerializer, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        game_for(request, pk)
        reason = validated(s.DisputeSerializer, request)["reason"]
        game = results.dispute(actor_of(request), pk, reason)
        return Response({"status": game.status, "game": game.pk})
