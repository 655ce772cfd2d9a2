"""API of doubles events: a pair's partner and the partner's list (the first partner's list is
the player's own: ``PUT .../players/{id}/list/``)."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.api import ReadList, _report_response, _roster_error
from armylists.roster import RosterUnreadable
from config.api_errors import validated
from events.api.common import actor_of, get_tournament, require_signed_in
from events.serializers import PlayerListBodySerializer
from teams import serializers as s
from teams.services import doubles

ANSWER = OpenApiResponse(description="a pair: player, name, partner, lists, points")


class PairView(APIView):
    """GET: the pair. POST ``{"username"}`` (its first partner or staff): name its partner."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, pk: int):
        tournament = get_tournament(request, slug)
        player = doubles.get_pair(tournament, pk)
        return Response(doubles.pair_data(actor_of(request), tournament, player))

    @extend_schema(request=s.PartnerBodySerializer, responses={201: ANSWER})
    def post(self, request, slug: str, pk: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        player = doubles.get_pair(tournament, pk)
        data = validated(s.PartnerBodySerializer, request)
        doubles.add_partner(actor_of(request), tournament, player, data["username"])
        return Response(doubles.pair_data(actor_of(request), tournament, player), status=status.HTTP_201_CREATED)


class PartnerListView(APIView):
    """PUT (either partner, staff): the partner's list as units or a roster, as a player's list."""

    @extend_schema(request=PlayerListBodySerializer, responses=ANSWER)
    def put(self, request, slug: str, pk: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        player = doubles.get_pair(tournament, pk)
        body = PlayerListBodySerializer(data=request.data, context={"chart": tournament.chart})
        body.is_valid(raise_exception=True)
        read = ReadList({**body.validated_data, "chart": tournament.chart})
        try:
            entries = read.entries()
        except RosterUnreadable as exc:
            return _roster_error(exc)
        army = doubles.submit_partner_list(actor_of(request), tournament, player, entries, read.source_format)
        return _report_response(read, army.report, id=army.pk, player=player.pk, member=2,
                                chart=tournament.chart.slug, points_limit=army.points_limit)
