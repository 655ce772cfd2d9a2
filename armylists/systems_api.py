"""API: game systems, factions and profile cards (public reference data), the charts filter, and
the dispatch of `lists/validate` to the list rules of the chart's game system (armylists/systems/)."""
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists import systems
from armylists.models import Chart, Faction, GameSystem, ProfileCard
from armylists.systems import messages
from armylists.systems.base import ListRules, render_problems
from armylists.systems_serializers import FactionSerializer, GameSystemSerializer
from config.api_errors import api_error, validated
from config.i18n import current_language
from systems.urban_war.list_rules import card_specs

GAME_SYSTEM = OpenApiParameter("game_system", OpenApiTypes.STR, description="a game system's slug")


def refuse(code: str, **params: object) -> None:
    """Stop the request with a 400 ``{"detail", "code"}`` in the reader's language."""
    raise exceptions.ValidationError({"detail": messages.render(code, params) or code, "code": code})


def game_system_of(request) -> GameSystem | None:
    """The `?game_system=` filter; None when absent; an unknown slug is a 400 ``game_system_unknown``."""
    slug = request.query_params.get("game_system")
    if slug is None:
        return None
    system = GameSystem.objects.filter(slug=slug[:50]).first()
    if system is None:
        refuse("game_system_unknown", game_system=slug[:50])
    return system


def filter_charts(charts: QuerySet, request) -> QuerySet:
    """`GET /api/v1/charts/?game_system=`: the charts of one game system."""
    system = game_system_of(request)
    return charts if system is None else charts.filter(game_system=system)


class GameSystemListView(APIView):
    """GET /api/v1/game-systems/: every game system with its kind."""

    @extend_schema(responses=GameSystemSerializer(many=True))
    def get(self, request):
        rows = GameSystem.objects.order_by("slug")
        return Response([{"slug": s.slug, "name": s.name, "kind": s.kind} for s in rows])


class FactionListView(APIView):
    """GET /api/v1/factions/?game_system=: factions with their rule tags."""

    @extend_schema(parameters=[GAME_SYSTEM], responses=FactionSerializer(many=True))
    def get(self, request):
        system = game_system_of(request)
        rows = Faction.objects.order_by("game_system__slug", "slug")
        if system is not None:
            rows = rows.filter(game_system=system)
        return Response([{"slug": f.slug, "name": f.name, "tags": list(f.tags or [])} for f in rows])


class ProfileListView(APIView):
    """GET /api/v1/profiles/?game_system=: profile cards in the contract's shape."""

    @extend_schema(parameters=[GAME_SYSTEM], responses={200: OpenApiResponse(description="profile cards")})
    def get(self, request):
        system = game_system_of(request)
        rows = ProfileCard.objects.select_related("faction").order_by("game_system__slug", "card")
        if system is not None:
            rows = rows.filter(game_system=system)
        language = current_language()
        return Response([card.to_dict(language) for card in card_specs(rows).values()])


def chart_named(data: Any) -> Chart | None:
    slug = data.get("chart") if isinstance(data, Mapping) else None
    if not isinstance(slug, str) or len(slug) > 50:
        return None
    return Chart.objects.select_related("game_system").filter(slug=slug).first()


def validate_for_system(request) -> Response | None:
    """`lists/validate` for a chart whose system has its own body; None: the count-based view's."""
    chart = chart_named(request.data)
    if chart is None:
        return None
    rules = systems.rules_for(chart.game_system.slug)
    if rules.shared_view:
        return None
    data = validated(rules.serializer, request)
    try:
        answer = rules.check(data["chart"], data)
    except systems.ListRefused as exc:
        return api_error(messages.render(exc.code, exc.params) or exc.code, exc.code)
    body = rules.render(data["chart"], answer)
    body["warnings"] += ignored_fields(request.data, rules, chart)
    return Response(body)


def add_ignored_fields(body: dict[str, Any], data: Mapping[str, Any], chart: Chart) -> None:
    """Warn, in a count-based chart's answer, of fields only other systems read."""
    body["warnings"] += ignored_fields(data, systems.rules_for(chart.game_system.slug), chart)


def ignored_fields(data: Mapping[str, Any], rules: ListRules, chart: Chart) -> list[dict[str, Any]]:
    """Warnings ``field_ignored`` (field, chart): a field another game system reads, never a 500."""
    if not isinstance(data, Mapping):
        return []
    top, item = systems.foreign_fields(rules)
    found = [key for key in data if key in top]
    items = data.get(rules.item_key)
    if isinstance(items, list):
        seen = {key for one in items if isinstance(one, Mapping) for key in one if key in item}
        found += [f"{rules.item_key}[].{key}" for key in sorted(seen)]
    problems = [{"code": "field_ignored", "params": {"field": field, "chart": chart.slug}} for field in found]
    return render_problems(problems, lambda p: messages.render(p.code, p.params) or p.code)


