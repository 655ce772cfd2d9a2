"""API: the turn pack of an Epic 40,000 campaign (api-v1-systems "Epic 40,000 campaigns"):
``POST campaigns/{slug}/turns/{n}/pack/`` (staff) → 202 ``{"id", "status"}``, then followed and
downloaded as any mission pack (``GET mission-packs/{id}/``, printing/api.py).

Mounted under /api/v1/ by ``path("", include("campaigns.api.pack"))`` in config/api_urls.py.
"""
from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api.state import campaign_for, signed_in
from campaigns.services.pack import request_turn_pack
from printing.api import PACK_ANSWER, get_pack, pack_data


class TurnPackView(APIView):
    """POST (staff): print turn ``number``'s pack (maps, order sheets, battle sheets, turn
    report) in the background; a second request while it builds gets the same pack. 404
    ``campaign_not_found`` or ``turn_not_found`` (a turn not opened yet), 403 ``staff_only``."""

    @extend_schema(request=None, responses={202: PACK_ANSWER, 403: OpenApiResponse(),
                                            404: OpenApiResponse()})
    def post(self, request, slug: str, number: int):
        actor = signed_in(request)
        pack = request_turn_pack(actor, campaign_for(slug), number)
        # Read again (eager mode, without a broker, has built it already) with its round and
        # event, to answer as GET mission-packs/{id}/ does: every field the schema requires.
        return Response(pack_data(get_pack(pack.pk), request), status=status.HTTP_202_ACCEPTED)


urlpatterns = [
    path("campaigns/<slug:slug>/turns/<int:number>/pack/", TurnPackView.as_view(),
         name="api-campaign-turn-pack"),
]
