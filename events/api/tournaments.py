"""API: tournaments, their creation and their status (api-v1)."""
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events import serializers as s
from events.api.common import actor_of, get_tournament, require_signed_in, visible_tournaments
from events.services import tournaments


class TournamentListView(APIView):
    """GET: events (drafts only for staff). POST (staff): create one."""

    @extend_schema(responses=s.TournamentSerializer(many=True))
    def get(self, request):
        return Response(s.TournamentSerializer(visible_tournaments(actor_of(request)), many=True).data)

    @extend_schema(request=s.TournamentCreateSerializer, responses={201: s.TournamentSerializer})
    def post(self, request):
        require_signed_in(request)
        data = validated(s.TournamentCreateSerializer, request)
        tournament = tournaments.create_tournament(actor_of(request), **data)
        tournament.player_count = 0  # as GET shows it (the annotation is not on a new row)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentView(APIView):
    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request, slug: str):
        return Response(s.TournamentSerializer(get_tournament(request, slug)).data)


class TournamentStatusView(APIView):
    """POST (staff) {"status"}: draft → registration_open → lists_locked → running → finished."""

    @extend_schema(request=s.StatusSerializer, responses=s.TournamentSerializer)
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        target = validated(s.StatusSerializer, request)["status"]
        return Response(s.TournamentSerializer(tournaments.transition(actor_of(request), tournament, target)).data)


class PublishListsView(APIView):
    @extend_schema(request=s.PublishListsSerializer, responses=s.TournamentSerializer)
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        published = validated(s.PublishListsSerializer, request)["published"]
        updated = tournaments.publish_lists(actor_of(request), tournament, published)
        return Response(s.TournamentSerializer(updated).data)
