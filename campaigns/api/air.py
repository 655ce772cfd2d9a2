"""API: the air missions and landings of an Epic 40,000 campaign turn (R13, R14, R19–R24), beside
the contract's campaign endpoints (campaigns/api/state.py). Included under
``/api/v1/campaigns/`` by config/api_urls.py.

- ``POST {slug}/turns/{n}/air/`` (staff) ``{"dice"?}``: roll the air gates due now (each mission's
  Flak dice, the interception dice of first landings under an enemy patrol) → ``{"flak",
  "landings", "interceptions", "dice_log", "unused_dice"?}``.
- ``GET {slug}/turns/{n}/air/`` (participants, staff): ``{"missions", "flak", "rolled",
  "interceptions", "landings", "returns"}`` as the reader may see them (R12, R19: the enemy's
  mission and route are told, never the detachment). Each Flak die has a ``leg``: ``out``, or
  ``return`` for the Flak of a failed transport's return route rolled at the turn's close (R23);
  ``returns`` lists those transports with the interceptions over their return route."""
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api.state import ANSWER, staff_dice, turn_seen
from campaigns.services import air as campaign_air
from campaigns.state_serializers import AirBodySerializer


class AirView(APIView):
    @extend_schema(request=AirBodySerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        actor, campaign, dice = staff_dice(request, slug, AirBodySerializer)
        return Response(campaign_air.resolve_air(actor, campaign, number, dice))

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, number: int):
        campaign, turn, viewer = turn_seen(request, slug, number)
        return Response(campaign_air.air_view(campaign, turn, viewer))


urlpatterns = [
    path("<slug:slug>/turns/<int:number>/air/", AirView.as_view(), name="api-campaign-air"),
]
