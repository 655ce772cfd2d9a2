"""API: an event's awards and penalties (staff). List and define components, and set a player's
value in one, through ``venue.services.awards`` (checked, locked and audited there, as the
admin's grid is); the standings carry the results (``GET …/standings/``, ``extras``).

Mounted under /api/v1/ by ``path("", include("venue.awards_api"))`` in config/api_urls.py.
"""
from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.api.common import actor_of, get_tournament
from events.services import tournaments
from printing.api import StaffOnly
from venue.award_models import ScoreComponent, ScoreEntry
from venue.services import awards

Kind = ScoreComponent.Kind


class ComponentSerializer(serializers.Serializer):
    """A new award or penalty; the service checks the name, kind and weight (400 with its code)."""

    name = serializers.CharField(max_length=200, help_text="unique in the event, 80 characters "
                                 "at most")
    kind = serializers.CharField(default=Kind.AWARD, help_text="award or penalty")
    weight = serializers.IntegerField(default=1, help_text="tournament points per point entered "
                                      "or vote received, 1 to 100")
    players_vote = serializers.BooleanField(default=False, help_text="players give one vote "
                                            "each while the event runs")
    counts = serializers.BooleanField(default=True, help_text="added to the tournament points "
                                      "when the standings rank with extras")


class AwardScoreSerializer(serializers.Serializer):
    value = serializers.IntegerField(allow_null=True, help_text="0 to 10,000; null clears it")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=1000,
                                   help_text="required for a penalty above 0; 300 characters "
                                             "at most")


class AwardEntrySerializer(serializers.Serializer):
    """A player's value in a component, as staff entered it (the answer's shape)."""

    player = serializers.IntegerField()
    value = serializers.IntegerField(allow_null=True, help_text="null: no value entered")
    reason = serializers.CharField()
    entered_by = serializers.CharField(allow_null=True)
    entered_at = serializers.DateTimeField(allow_null=True)


class AwardComponentSerializer(serializers.Serializer):
    """A component with its entries and the votes received (the answer's shape)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="award or penalty")
    weight = serializers.IntegerField()
    players_vote = serializers.BooleanField()
    counts = serializers.BooleanField()
    entries = AwardEntrySerializer(many=True)
    votes = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="votes received, by player id")


def entry_data(player_id: int, entry: ScoreEntry | None) -> dict[str, Any]:
    return {
        "player": player_id,
        "value": entry.value if entry else None,
        "reason": entry.reason if entry else "",
        "entered_by": entry.entered_by.get_username() if entry and entry.entered_by else None,
        "entered_at": entry.entered_at.isoformat() if entry else None,
    }


def component_data(component: ScoreComponent, board: awards.Board) -> dict[str, Any]:
    return {
        "id": component.pk, "name": component.name, "kind": component.kind,
        "weight": component.weight, "players_vote": component.players_vote,
        "counts": component.counts,
        "entries": [entry_data(e.player_id, e) for e in board.entries.get(component.pk, ())],
        "votes": {str(pid): n for (cid, pid), n in sorted(board.votes.items())
                  if cid == component.pk},
    }


class AwardsView(APIView):
    """GET (staff): the event's awards and penalties, each with the values staff entered and the
    votes received. POST (staff): define one (201); a name the event already has is 409
    ``component_name_taken``."""

    permission_classes = [StaffOnly]

    @extend_schema(responses={200: AwardComponentSerializer(many=True)})
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        board = awards.board(tournament)
        return Response([component_data(c, board) for c in board.components])

    @extend_schema(request=ComponentSerializer,
                   responses={201: AwardComponentSerializer, 400: OpenApiResponse(),
                              409: OpenApiResponse()})
    def post(self, request, slug: str):
        tournament = get_tournament(request, slug)
        data = validated(ComponentSerializer, request)
        component = awards.define_component(actor_of(request), tournament, **data)
        board = awards.board(tournament, component.pk)
        return Response(component_data(component, board), status=status.HTTP_201_CREATED)


class AwardScoreView(APIView):
    """PUT (staff) {"value", "reason"}: a player's value in a component (null clears it). A
    penalty above 0 needs a reason (400 ``penalty_reason_required``); audited with before and
    after. An unknown component or player is 404."""

    permission_classes = [StaffOnly]

    @extend_schema(request=AwardScoreSerializer,
                   responses={200: AwardEntrySerializer, 400: OpenApiResponse(),
                              404: OpenApiResponse()})
    def put(self, request, slug: str, pk: int, player_id: int):
        tournament = get_tournament(request, slug)
        component = awards.get_component(tournament, pk)
        player = tournaments.get_player(tournament, player_id)
        data = validated(AwardScoreSerializer, request)
        entry = awards.set_entry(actor_of(request), component, player, data["value"],
                                 data["reason"])
        return Response(entry_data(player.pk, entry))


urlpatterns = [
    path("tournaments/<slug:slug>/awards/", AwardsView.as_view(), name="api-awards"),
    path("tournaments/<slug:slug>/awards/<int:pk>/scores/<int:player_id>/",
         AwardScoreView.as_view(), name="api-award-score"),
]
