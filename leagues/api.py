"""API of leagues over weeks (api-v1-seasons-teams §2): weeks, league games, declared byes,
the league table, and a player's list for one week (``.../list/?week=n``)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists import systems as list_systems
from armylists.api import ReadList, _report_response, _roster_error
from armylists.roster import RosterUnreadable
from armylists.serializers import ArmyListSerializer
from config.api_errors import validated
from events import serializers as s
from events.api.common import actor_of, get_tournament, require_signed_in
from events.errors import Forbidden, Invalid, NotFound
from events.models import Player, Tournament
from events.services import lists
from leagues.messages import with_league_words
from leagues.services import byes, games, standings, week_lists
from leagues.services.setup import get_week, points_limit, require_league, week_data, weeks_of

ANSWER = OpenApiResponse(description="see api-v1-seasons-teams.md §2")
MAX_ID = 2**63 - 1  # a player id the database can hold: a larger one is a 400, not a 500


class LeagueGameSerializer(s.ReportSerializer):
    """A player: ``opponent``; staff: ``players`` (two ids); and a game report's fields."""

    opponent = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    players = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
                                    min_length=2, max_length=2, required=False)


class ByeSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


class WeeksView(APIView):
    """GET: the league's weeks, each with its points limit and whether it is open now."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        league = require_league(tournament)
        return Response([week_data(week, tournament) for week in weeks_of(league)])


class WeekGamesView(APIView):
    """POST: a registered player reports a game of an open week against ``opponent`` (the
    opponent confirms it with ``POST /api/v1/games/{id}/confirm/``); staff enter
    ``{"players": [id, id], ...}`` into any week, confirmed at once."""

    @extend_schema(request=LeagueGameSerializer, responses={201: ANSWER})
    def post(self, request, slug: str, number: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        data = validated(LeagueGameSerializer, request)
        players = tuple(data["players"]) if "players" in data else None
        given = games.LeagueGameInput(opponent=data.get("opponent"), players=players,
                                      content=games.game_content(data))
        game = games.report_game(actor_of(request), tournament, number, given)
        return Response({"id": game.pk, "status": game.status, "week": number},
                        status=status.HTTP_201_CREATED)


class WeekByeView(APIView):
    """POST: the signed-in player declares a bye for the week (staff: ``{"player": id}``)."""

    @extend_schema(request=ByeSerializer, responses={201: ANSWER})
    def post(self, request, slug: str, number: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        player_id = validated(ByeSerializer, request).get("player")
        bye = byes.declare_bye(actor_of(request), tournament, number, player_id)
        return Response({"id": bye.pk, "week": number, "player": bye.player_id},
                        status=status.HTTP_201_CREATED)


class LeagueStandingsView(APIView):
    """GET: the league table, each player's weeks with their points, games played and counted,
    bye and dropped weeks."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        return Response(standings.table_data(standings.league_table(tournament)))


def week_number(request) -> int:
    try:
        number = int(request.query_params["week"])
    except (TypeError, ValueError):
        raise Invalid(_("week is a week's number."), "week_invalid") from None
    return number


def week_list_answer(request, tournament: Tournament, player: Player) -> Response | None:
    """The ``league`` format's list view (events/formats.py ``player_list``): ``?week=n`` reads
    or replaces the player's list for week n; without ``week``, None (the event's own list)."""
    if "week" not in request.query_params:
        return None
    league = require_league(tournament)
    week = get_week(league, week_number(request))
    actor = actor_of(request)
    if request.method == "PUT":
        return _put_week_list(request, actor, tournament, player, week)
    if not lists.may_read(actor, player, tournament):
        require_signed_in(request)
        raise Forbidden(_("Lists are not published yet."), "lists_not_published")
    current = week_lists.week_list(player, week)
    if current is None:
        raise NotFound(_("This player has no list for this week yet."), "list_not_found")
    army_list = current.army_list
    data = ArmyListSerializer(army_list).data
    data["report"] = with_league_words(list_systems.rules_for(army_list.chart.game_system.slug).render(
        army_list.chart, army_list.report))
    data.update(player=player.pk, week=week.number, points_limit=army_list.points_limit,
                versions=lists.versions(army_list))
    return Response(data)


def _put_week_list(request, actor, tournament: Tournament, player: Player, week) -> Response:
    chart = tournament.chart
    if not list_systems.rules_for(chart.game_system.slug).shared_view:
        raise Invalid(_("Week lists take a chart's units; this game system's lists are sent "
                        "without a week."), "week_list_unsupported")
    body = s.PlayerListBodySerializer(data=request.data, context={"chart": chart})
    body.is_valid(raise_exception=True)
    read = ReadList({**body.validated_data, "chart": chart})
    try:
        entries = read.entries()
    except RosterUnreadable as exc:
        return _roster_error(exc)
    current = week_lists.submit_week_list(
        actor, tournament, player, week.number, entries=entries, source_format=read.source_format,
        raw=read.raw, raw_filename=read.filename, import_warnings=read.warnings)
    army_list = current.army_list
    answer = _report_response(read, army_list.report, id=army_list.pk, player=player.pk,
                              week=week.number, points_limit=points_limit(week, tournament),
                              chart=chart.slug)
    answer.data = with_league_words(answer.data)
    return answer
