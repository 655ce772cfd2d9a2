"""API: charts, the stateless list validator, and a signed-in player's stored lists."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists import chart_reports, services, systems_api
from armylists.messages import render_roster_error
from armylists.models import ArmyList
from armylists.roster import RosterUnreadable
from armylists.serializers import (
    ArmyListSerializer,
    ChartSerializer,
    StoreListSerializer,
    ValidateSerializer,
    roster_bytes,
)
from config.api_errors import api_error, validated


class ChartListView(APIView):
    """GET /api/v1/charts/: every force-organisation chart with its slots."""

    @extend_schema(parameters=[systems_api.GAME_SYSTEM], responses=ChartSerializer(many=True))
    def get(self, request):
        charts = systems_api.filter_charts(services.charts_with_rows(), request).order_by("slug")
        return Response(ChartSerializer(charts, many=True).data)


class ReadList:
    """Turns a validated list body into entries (reading a roster when one was sent)."""

    def __init__(self, attrs: dict):
        self.attrs = attrs
        self.chart = attrs["chart"]
        self.parsed = None
        self.raw: bytes | None = None
        self.filename = ""

    def entries(self):
        if "units" in self.attrs:
            return chart_reports.entries_from_units(self.attrs["units"])
        data, self.filename = roster_bytes(self.attrs)
        self.raw = data.encode() if isinstance(data, str) else data
        self.parsed = services.read_roster(data, self.attrs["roster_format"], self.chart.game_system)
        return list(self.parsed.entries)

    @property
    def warnings(self):
        return self.parsed.warnings if self.parsed else ()

    @property
    def source_format(self) -> str:
        return self.parsed.format if self.parsed else "units"


def _roster_error(exc: RosterUnreadable) -> Response:
    return api_error(render_roster_error(exc.reason, exc.params), "roster_unreadable")


def _report_response(read: ReadList, report_data: dict, status_code: int = 200, **extra) -> Response:
    names = chart_reports.slot_names(read.chart.game_system)
    body = chart_reports.render_report(report_data, names)
    if read.parsed is not None:
        body["units"] = services.entries_data(read.parsed.entries)
        body["roster_format"] = read.parsed.format
    body.update(extra)
    return Response(body, status=status_code)


class ValidateListView(APIView):
    """POST /api/v1/lists/validate/: check a list against a chart without saving it."""

    @extend_schema(request=ValidateSerializer, responses={200: OpenApiResponse(description="report")})
    def post(self, request):
        # Dispatched by the chart's game system (armylists/systems/); count-based charts stay here.
        answer = systems_api.validate_for_system(request)
        if answer is not None:
            return answer
        data = validated(ValidateSerializer, request)
        read = ReadList(data)
        try:
            entries = read.entries()
        except RosterUnreadable as exc:
            return _roster_error(exc)
        report = services.validate_entries(read.chart, data["points_limit"], entries)
        response = _report_response(read, services.report_data(report, read.warnings))
        systems_api.add_ignored_fields(response.data, request.data, read.chart)
        return response


class MyListsView(APIView):
    """GET/POST /api/v1/lists/: a signed-in player's stored lists (every version kept)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ArmyListSerializer(many=True))
    def get(self, request):
        lists = ArmyList.objects.filter(owner=request.user).select_related("chart")
        return Response(ArmyListSerializer(lists, many=True).data)

    @extend_schema(request=StoreListSerializer, responses={201: OpenApiResponse(description="stored list")})
    def post(self, request):
        attrs = validated(StoreListSerializer, request)
        read = ReadList(attrs)
        try:
            entries = read.entries()
        except RosterUnreadable as exc:
            return _roster_error(exc)
        army_list = services.store_list(
            owner=request.user, chart=read.chart, points_limit=attrs["points_limit"],
            entries=entries, name=attrs["name"], source_format=read.source_format,
            raw=read.raw, raw_filename=read.filename, import_warnings=read.warnings,
        )
        return _report_response(read, army_list.report, status.HTTP_201_CREATED, id=army_list.pk)


class MyListView(APIView):
    """GET /api/v1/lists/{id}/: one of my lists with its report (others' lists are 404)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ArmyListSerializer)
    def get(self, request, pk: int):
        army_list = get_object_or_404(
            ArmyList.objects.select_related("chart__game_system"), pk=pk, owner=request.user
        )
        data = ArmyListSerializer(army_list).data
        names = chart_reports.slot_names(army_list.chart.game_system)
        data["report"] = chart_reports.render_report(army_list.report, names)
        return Response(data)
