"""/api/v1/circuits/: a ranking across events (contract api-v1-seasons-teams.md §1).

Lists: ``GET standings/`` answers every row; ``?page=`` (and ``page_size``, at most 500)
and/or ``?search=`` (in keys and names) page it and add ``count``, ``page``, ``page_size`` and
``pages`` beside ``results``."""
from __future__ import annotations

import io
from datetime import date
from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.parsers import BaseParser
from rest_framework.response import Response
from rest_framework.views import APIView

from circuits.models import Circuit
from circuits.services import circuits, imports, reads
from circuits.services.people import norm
from config.parsers import SafeJSONParser
from config.refusals import Invalid
from events.audit import Actor

ANSWER = OpenApiResponse(description="see api-v1-seasons-teams.md §1")
AS_OF = OpenApiParameter("as_of", str, required=False, description="YYYY-MM-DD (default: today)")
PAGE = OpenApiParameter("page", int, required=False)
PAGE_SIZE = OpenApiParameter("page_size", int, required=False)
SEARCH = OpenApiParameter("search", str, required=False)


def _actor(request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return Actor.of(request)


def circuit_json(circuit: Circuit) -> dict[str, Any]:
    return {
        "slug": circuit.slug, "name": circuit.name,
        "game_system": circuit.game_system.slug if circuit.game_system_id else None,
        "method": circuit.method, **(circuit.settings or {}),
        "status": "computing" if circuit.computing else "current",
        "computed_at": circuit.computed_at.isoformat() if circuit.computed_at else None,
        "events": [{"tournament": slug, "multiplier": m} for slug, m in
                   circuit.events.order_by("tournament__slug").values_list("tournament__slug", "multiplier")],
    }


def _as_of(request) -> date | None:
    raw = request.query_params.get("as_of")
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise Invalid(_("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": raw},
                      "circuit_date_invalid") from None


def _page(request) -> reads.Page | None:
    params = request.query_params
    if "page" not in params and "search" not in params and "page_size" not in params:
        return None
    try:
        number = max(1, int(params.get("page", 1)))
        size = min(reads.MAX_PAGE_SIZE, max(1, int(params.get("page_size", reads.PAGE_SIZE))))
    except ValueError:
        raise Invalid(_("The page must be a whole number."), "page_invalid") from None
    return reads.Page(number, size, norm(params.get("search", "")))


class CircuitListView(APIView):
    @extend_schema(responses=ANSWER, operation_id="circuits_list")
    def get(self, request):
        return Response([{"slug": c.slug, "name": c.name, "method": c.method}
                         for c in Circuit.objects.all()])

    @extend_schema(request=None, responses={201: ANSWER})
    def post(self, request):
        circuit = circuits.create(_actor(request), request.data if isinstance(request.data, dict) else {})
        return Response(circuit_json(circuit), status=status.HTTP_201_CREATED)


class CircuitView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        return Response(circuit_json(circuits.get_circuit(slug)))

    @extend_schema(request=None, responses=ANSWER)
    def patch(self, request, slug: str):
        actor = _actor(request)
        body = request.data if isinstance(request.data, dict) else {}
        return Response(circuit_json(circuits.update(actor, circuits.get_circuit(slug), body)))


class CircuitEventsView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        return Response(circuit_json(circuits.get_circuit(slug))["events"])

    @extend_schema(request=None, responses={201: ANSWER})
    def post(self, request, slug: str):
        actor = _actor(request)
        body = request.data if isinstance(request.data, dict) else {}
        included = circuits.add_event(actor, circuits.get_circuit(slug), body.get("tournament"),
                                      body.get("multiplier"))
        return Response({"tournament": included.tournament.slug, "multiplier": included.multiplier},
                        status=status.HTTP_201_CREATED)


class CircuitEventView(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, slug: str, tournament: str):
        circuits.remove_event(_actor(request), circuits.get_circuit(slug), tournament)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CircuitResultsView(APIView):
    @extend_schema(request=None, responses={201: ANSWER})
    def post(self, request, slug: str):
        actor = _actor(request)
        result = circuits.add_result(actor, circuits.get_circuit(slug), request.data)
        return Response({"id": result.pk}, status=status.HTTP_201_CREATED)


class ListBodyParser(SafeJSONParser):
    """JSON whose top level may be a list (``ratings/`` takes one, as the contract says): the
    body is parsed as ``{"ratings": body}`` by the API's safe parser (NUL and depth checks),
    then unwrapped when it was an object."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        data = super().parse(io.BytesIO(b'{"ratings": ' + (raw or b"null") + b"}"), media_type,
                             parser_context)["ratings"]
        return data if data is not None else {}


class CircuitRatingsView(APIView):
    parser_classes = [ListBodyParser]

    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str):
        actor = _actor(request)
        count = circuits.import_ratings(actor, circuits.get_circuit(slug), request.data)
        return Response({"imported": count})


def _csv_of(request) -> bytes | str:
    """The CSV sent as a file (multipart ``file``), as ``{"csv": text}``, or as the raw body."""
    upload = request.FILES.get("file") if hasattr(request, "FILES") else None
    if upload is not None:
        return upload.read()
    data = request.data
    if isinstance(data, dict) and isinstance(data.get("csv"), str):
        return data["csv"]
    return b""


class CsvParser(BaseParser):
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        return {"csv": stream.read().decode("utf-8", errors="replace")}


class CircuitResultsImportView(APIView):
    """POST (staff): results of events run elsewhere from a CSV (see circuits/services/imports.py)."""

    parser_classes = [CsvParser, *APIView.parser_classes]

    @extend_schema(request=None, responses={201: ANSWER})
    def post(self, request, slug: str):
        actor = _actor(request)
        ids = imports.import_results(actor, circuits.get_circuit(slug), _csv_of(request))
        return Response({"ids": ids}, status=status.HTTP_201_CREATED)


class CircuitRatingsImportView(APIView):
    parser_classes = [CsvParser, *APIView.parser_classes]

    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str):
        actor = _actor(request)
        return Response({"imported": imports.import_ratings(actor, circuits.get_circuit(slug),
                                                            _csv_of(request))})


class CircuitStandingsView(APIView):
    @extend_schema(parameters=[AS_OF, PAGE, PAGE_SIZE, SEARCH], responses=ANSWER)
    def get(self, request, slug: str):
        circuit = circuits.get_circuit(slug)
        return Response(reads.standings(circuit, _as_of(request), _page(request)))


class CircuitPlayerView(APIView):
    @extend_schema(parameters=[AS_OF], responses=ANSWER)
    def get(self, request, slug: str, key: str):
        return Response(reads.breakdown(circuits.get_circuit(slug), key, _as_of(request)))


class CircuitMergeView(APIView):
    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str):
        actor = _actor(request)
        body = request.data if isinstance(request.data, dict) else {}
        kept = circuits.merge(actor, circuits.get_circuit(slug), body.get("keep"), body.get("merge"))
        return Response({"player": {"key": kept.key, "name": kept.name}})


urlpatterns = [
    path("circuits/", CircuitListView.as_view(), name="api-circuits"),
    path("circuits/<slug:slug>/", CircuitView.as_view(), name="api-circuit"),
    path("circuits/<slug:slug>/events/", CircuitEventsView.as_view(), name="api-circuit-events"),
    path("circuits/<slug:slug>/events/<slug:tournament>/", CircuitEventView.as_view(),
         name="api-circuit-event"),
    path("circuits/<slug:slug>/results/", CircuitResultsView.as_view(), name="api-circuit-results"),
    path("circuits/<slug:slug>/ratings/", CircuitRatingsView.as_view(), name="api-circuit-ratings"),
    path("circuits/<slug:slug>/results/import/", CircuitResultsImportView.as_view(),
         name="api-circuit-results-import"),
    path("circuits/<slug:slug>/ratings/import/", CircuitRatingsImportView.as_view(),
         name="api-circuit-ratings-import"),
    path("circuits/<slug:slug>/standings/", CircuitStandingsView.as_view(), name="api-circuit-standings"),
    path("circuits/<slug:slug>/players/<path:key>/", CircuitPlayerView.as_view(), name="api-circuit-player"),
    path("circuits/<slug:slug>/merge/", CircuitMergeView.as_view(), name="api-circuit-merge"),
]
