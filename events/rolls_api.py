"""API: table rolls of a game (api-v1-systems "Table rolls through the API"), through the same
service as the game page (events/services/table_rolls); each kind is a `RollKind`
(systems/rolls.py)."""
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.api.common import ANSWER, actor_of, game_for, require_signed_in
from events.rolls_serializers import TableRollBodySerializer, roll_data, roll_request
from events.services import results, table_rolls


class GameRollsView(APIView):
    """POST: the game's two players or staff roll one kind of table roll; 201 with the logged roll."""

    @extend_schema(request=TableRollBodySerializer, responses={201: ANSWER})
    def post(self, request, pk: int):
        require_signed_in(request)
        game = game_for(request, pk)  # 404 for a game the reader may not know of
        actor = actor_of(request)
        # Strangers are refused before their body is read: 403 whatever they send.
        results.visible_game(actor, game)
        data = validated(TableRollBodySerializer, request)
        made = table_rolls.roll(actor, pk, roll_request(data))
        return Response(roll_data(made, game), status=status.HTTP_201_CREATED)
