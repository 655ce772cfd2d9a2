"""API: rounds, their pairing, publication and repair (api-v1)."""
from django.db.models import F
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from config.gc_pause import gc_paused
from events import formats
from events import serializers as s
from events.api.common import ANSWER, actor_of, get_tournament, require_signed_in
from events.messages import chart_names, list_problem_text
from events.services import rounds
from venue.clock_words import clock_data
from venue.services import clock


def round_response(round_, status_code: int = 200, games=None) -> Response:
    """The round and its games; ``games`` when the caller holds them as stored (just paired;
    read again where the database gave no keys back)."""
    if games is None or any(g.pk is None for g in games):
        # Byes (no table) last on every database: SQLite sorts NULL first, PostgreSQL last.
        games = round_.games.select_related("mission").order_by(F("table").asc(nulls_last=True), "pk")
    else:
        games = sorted(games, key=lambda g: (g.table is None, g.table or 0, g.pk))
    games = list(games)
    # The charts the round's list flags name, read once (not once per kind of flag).
    slugs = {problem["chart"] for game in games for problem in game.list_problems}
    charts = chart_names(slugs) if slugs else {}
    data = s.round_data(round_, games, lambda problem: list_problem_text(problem, charts))
    data["clock"] = clock_data(clock.read(round_))  # the time left, from the server's clock
    return Response(data, status=status_code)


class RoundsView(APIView):
    """GET: published rounds (staff also see drafts). POST (staff): pair the next round."""

    @extend_schema(responses=ANSWER, operation_id="v1_tournaments_rounds_list")
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        qs = tournament.round_set.select_related("mission")
        if not actor_of(request).is_staff:
            qs = qs.exclude(status="draft")
        return Response([{"number": r.number, "status": r.status, "mission": r.mission.slug if r.mission else None}
                         for r in qs])

    @extend_schema(request=s.PairSerializer, responses={201: ANSWER})
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        event_format = formats.get(tournament.format)
        if event_format is not None and event_format.pair_round is not None:
            # The format pairs its own units (a team event's matches) and words the answer.
            return Response(event_format.pair_round(actor_of(request), tournament),
                            status=status.HTTP_201_CREATED)
        draft = validated(s.PairSerializer, request)["draft"]
        with gc_paused():  # the games and their answer die together (config/gc_pause.py)
            paired = rounds.pair_next(actor_of(request), tournament, draft=draft)
            return round_response(paired.round, status.HTTP_201_CREATED, paired.games)


class RoundView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str, number: int):
        tournament = get_tournament(request, slug)
        return round_response(rounds.get_round(tournament, number, staff=actor_of(request).is_staff))

    @extend_schema(request=s.ScenarioSerializer, responses=ANSWER)
    def patch(self, request, slug: str, number: int):
        """Staff: {"scenario": text}, the scenario the round is played with."""
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        text = validated(s.ScenarioSerializer, request)["scenario"]
        return round_response(rounds.set_scenario(actor_of(request), tournament, number, text))


class PublishRoundView(APIView):
    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        return round_response(rounds.publish_round(actor_of(request), tournament, number))


class RepairRoundView(APIView):
    """POST (staff) {"confirm": number}: pair the latest round again (no result reported yet)."""

    @extend_schema(request=s.RepairSerializer, responses=ANSWER)
    def post(self, request, slug: str, number: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        confirm = validated(s.RepairSerializer, request)["confirm"]
        return round_response(rounds.repair_published_round(actor_of(request), tournament, number, confirm))
