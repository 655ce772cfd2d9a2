"""GET /api/v1/: the API's front door, listing its main collections (each a full address)
and where the documentation is, so a client starting here finds its way."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

# Collection -> URL name, in the order a client usually needs them.
COLLECTIONS = (
    ("tournaments", "api-tournaments"),
    ("campaigns", "api-campaigns"),
    ("game_systems", "api-game-systems"),
    ("charts", "api-charts"),
    ("factions", "api-factions"),
    ("missions", "api-missions"),
    ("levels", "api-levels"),
    ("stratagems", "api-stratagems"),
    ("my_lists", "api-my-lists"),
)


class ApiRootView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(exclude=True)  # the schema itself lists every operation
    def get(self, request: Request) -> Response:
        links = {key: reverse(name, request=request) for key, name in COLLECTIONS}
        return Response({**links, "docs": reverse("api-docs", request=request),
                         "schema": reverse("schema", request=request)})
