"""API: check-in at the door by a player's personal code (api-v1). Staff only.

Mounted under /api/v1/ by ``path("", include("venue.checkin_api"))`` in config/api_urls.py.
"""
from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.audit import Actor
from events.errors import NotFound
from events.models import Tournament
from events.serializers import PlayerSerializer
from printing.api import StaffOnly
from venue.checkin_codes import MAX_INPUT
from venue.services import checkin


class CheckInSerializer(serializers.Serializer):
    code = serializers.CharField(
        max_length=MAX_INPUT,
        help_text="the player's check-in code (any case, dashes and spaces ignored) or the "
                  "link its QR code holds")


CHECK_IN_ANSWER = inline_serializer("CheckIn", {
    "id": serializers.IntegerField(),
    "name": serializers.CharField(),
    "checked_in": serializers.BooleanField(),
    "checked_in_at": serializers.DateTimeField(allow_null=True),
    "checked_in_by": serializers.CharField(allow_null=True),
    "already_checked_in": serializers.BooleanField(
        help_text="true: the player was checked in before; nothing changed"),
})


def check_in_data(done: checkin.CheckIn, request) -> dict[str, Any]:
    """The player as ``GET players/{id}/`` shows them, with when and by whom."""
    player = done.player
    return {
        **PlayerSerializer(player, context={"request": request}).data,
        "checked_in_at": player.checked_in_at.isoformat() if player.checked_in_at else None,
        "checked_in_by": player.checked_in_by.get_username() if player.checked_in_by else None,
        "already_checked_in": done.already,
    }


class CheckInView(APIView):
    """POST (staff): check in the player whose code is sent. An unknown code or one of another
    event is 404 (``check_in_code_unknown``, ``check_in_code_other_event``), a dropped player
    409 ``player_dropped``; a player already checked in is 200 with ``already_checked_in``."""

    permission_classes = [StaffOnly]

    @extend_schema(request=CheckInSerializer, responses={200: CHECK_IN_ANSWER,
                                                         400: OpenApiResponse(),
                                                         404: OpenApiResponse(),
                                                         409: OpenApiResponse()})
    def post(self, request, slug: str):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound(_("No such tournament."), "tournament_not_found")
        code = validated(CheckInSerializer, request)["code"]
        done = checkin.check_in_by_code(Actor.of(request), tournament, code)
        return Response(check_in_data(done, request))


urlpatterns = [
    path("tournaments/<slug:slug>/check-in/", CheckInView.as_view(), name="api-check-in"),
]
