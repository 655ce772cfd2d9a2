"""API of team events (api-v1-seasons-teams.md §3): teams, team matches, their drafts and the
team standings. Rounds are paired by ``POST .../rounds/`` (events), through the format's hook."""
from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from events.api.common import actor_of, get_tournament, require_signed_in
from teams import serializers as s
from teams.services import drafts, exports, monitor, registration
from teams.services import matches as match_service
from teams.services.events import team_event

ANSWER = OpenApiResponse(description="see api-v1-seasons-teams.md §3")


class TeamsView(APIView):
    """GET: the teams with their members. POST: register a team (staff, or a registered player
    who becomes its captain): ``{"name", "captain": player id, "members": [player ids]}``."""

    @extend_schema(responses=ANSWER, operation_id="v1_tournaments_teams_list")
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        team_event(tournament)
        return Response([registration.team_data(t) for t in registration.teams_of(tournament)])

    @extend_schema(request=s.TeamBodySerializer, responses={201: ANSWER})
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        data = validated(s.TeamBodySerializer, request)
        team = registration.register_team(actor_of(request), tournament, **data)
        return Response(registration.team_data(registration.teams_of(tournament, pk=team.pk)[0]),
                        status=status.HTTP_201_CREATED)


class TeamStandingsView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        return Response(match_service.team_standings(tournament, team_event(tournament)))


class TeamMatchView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, pk: int):
        match = match_service.get_match(pk, staff=actor_of(request).is_staff)
        return Response(match_service.match_data(match, match.round.tournament.team_event.settings))


class DraftView(APIView):
    """GET: the draft as the reader may see it. POST (a captain; staff add ``"team"``):
    ``{"phase", "players"?: [ids], "table"?: int}``."""

    @extend_schema(responses=ANSWER)
    def get(self, request, pk: int):
        return Response(drafts.read(actor_of(request), pk))

    @extend_schema(request=s.CommitSerializer, responses={201: ANSWER})
    def post(self, request, pk: int):
        require_signed_in(request)
        data = validated(s.CommitSerializer, request)
        answer = drafts.commit(actor_of(request), pk, **data)
        return Response(answer, status=status.HTTP_201_CREATED)


class DraftRollView(APIView):
    """POST (either captain, staff): ``{"dice"?: [face of first team, face of second]}``."""

    @extend_schema(request=s.RollSerializer, responses={201: ANSWER})
    def post(self, request, pk: int):
        require_signed_in(request)
        data = validated(s.RollSerializer, request)
        return Response(drafts.roll(actor_of(request), pk, data.get("dice")), status=status.HTTP_201_CREATED)


class DraftUndoView(APIView):
    """POST (staff): take back the draft's last phase (audited)."""

    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        return Response(drafts.undo(actor_of(request), pk))


class DraftMonitorView(APIView):
    """GET (staff) ``?round=n`` (default: the latest): every team match's draft phase, clock and
    overdue flag."""

    @extend_schema(responses=ANSWER)
    def get(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        query = s.MonitorQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(monitor.monitor(actor_of(request), tournament, query.validated_data.get("round")))


class TeamMatchExportView(APIView):
    """One team match as JSON for pairing-matrix tools: teams, players, lists, tables, games and
    the draft log as the reader may see it (sealed commits: their own team and staff only)."""

    @extend_schema(responses=ANSWER)
    def get(self, request, pk: int):
        return Response(exports.match_document(actor_of(request), pk))


def _csv(text: str, name: str) -> HttpResponse:
    response = HttpResponse("\ufeff" + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class TeamStandingsCsvView(APIView):
    """The team standings as a CSV sheet (anyone)."""

    @extend_schema(responses={(200, "text/csv"): str})
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        return _csv(exports.standings_csv(tournament, team_event(tournament)), f"{slug}-team-standings.csv")


class TeamGamesCsvView(APIView):
    """Every game of the event's team matches as a CSV sheet (anyone)."""

    @extend_schema(responses={(200, "text/csv"): str})
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        return _csv(exports.games_csv(tournament, team_event(tournament)), f"{slug}-team-games.csv")
