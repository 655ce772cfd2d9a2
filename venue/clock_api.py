"""API: a round's clock. Staff move it (``POST …/rounds/{n}/clock/``) through the same service as
the admin's buttons (venue/services/clock.py); the round's GET carries it too."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.api.common import actor_of, get_tournament, require_signed_in
from events.services.tournaments import require_staff
from venue.clock_words import clock_data
from venue.services import clock

CLOCK_ANSWER = inline_serializer("RoundClock", {
    "state": serializers.CharField(help_text="not_started, running, paused or ended"),
    "duration_seconds": serializers.IntegerField(),
    "remaining_seconds": serializers.IntegerField(
        help_text="computed from the server's clock when answering; never below 0"),
    "expired": serializers.BooleanField(help_text="started, not ended, and no time left"),
    "started_at": serializers.DateTimeField(allow_null=True),
    "ends_at": serializers.DateTimeField(allow_null=True, help_text="while running"),
    "ended_at": serializers.DateTimeField(allow_null=True),
})


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=clock.ACTIONS)
    minutes = serializers.IntegerField(
        min_value=1, max_value=clock.MAX_MINUTES, required=False,
        help_text=f"start: the round's length (default {clock.DEFAULT_MINUTES}); "
                  "extend: the minutes added (required)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["action"] == clock.EXTEND and "minutes" not in attrs:
            raise serializers.ValidationError({"minutes": [_("Give the minutes to add.")]})
        return attrs


class RoundClockView(APIView):
    """POST (staff) {"action": "start"|"pause"|"resume"|"extend"|"end", "minutes"?}: 200 with the
    clock as it now reads; 409 ``round_finished`` on a round that is over, ``clock_*`` for a move
    the clock's state does not allow."""

    @extend_schema(request=ClockActionSerializer, responses=CLOCK_ANSWER)
    def post(self, request, slug: str, number: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        actor = actor_of(request)
        require_staff(actor)  # a player is refused before their body is read
        data = validated(ClockActionSerializer, request)
        reading = clock.act(actor, tournament, number, data["action"], data.get("minutes"))
        return Response(clock_data(reading))
