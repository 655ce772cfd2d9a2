"""API: registered players and their lists (api-v1)."""
from collections.abc import Mapping

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists import systems as list_systems
from armylists.api import ReadList, _report_response, _roster_error
from armylists.roster import RosterUnreadable
from armylists.serializers import ArmyListSerializer
from armylists.systems import messages as list_messages
from armylists.systems_api import ignored_fields
from config.api_errors import api_error, validated
from events import formats
from events import serializers as s
from events.api.common import ANSWER, actor_of, get_tournament, require_signed_in
from events.audit import Actor
from events.errors import Forbidden, Invalid, NotFound
from events.models import Tournament
from events.services import lists, tournaments

ROLE_PARAM = OpenApiParameter("role", str, enum=["attacker", "defender"], required=False)


class PlayersView(APIView):
    """GET: registered players. POST: register (staff: anyone; a signed-in user: themself)."""

    @extend_schema(responses=s.PlayerSerializer(many=True))
    def get(self, request, slug: str):
        tournament = get_tournament(request, slug)
        players = tournament.players.select_related("user")
        return Response(s.PlayerSerializer(players, many=True, context={"request": request}).data)

    @extend_schema(request=s.RegisterSerializer, responses={201: s.PlayerSerializer})
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        data = validated(s.RegisterSerializer, request)
        player = tournaments.register_player(actor_of(request), tournament, **data)
        return Response(s.PlayerSerializer(player, context={"request": request}).data, status=status.HTTP_201_CREATED)


class PlayerView(APIView):
    """GET: one player. PATCH: staff check in, drop, rename; a player may drop themself."""

    @extend_schema(responses=s.PlayerSerializer)
    def get(self, request, slug: str, pk: int):
        player = tournaments.get_player(get_tournament(request, slug), pk)
        return Response(s.PlayerSerializer(player, context={"request": request}).data)

    @extend_schema(request=s.PlayerUpdateSerializer, responses=s.PlayerSerializer)
    def patch(self, request, slug: str, pk: int):
        require_signed_in(request)
        player = tournaments.get_player(get_tournament(request, slug), pk)
        changes = validated(s.PlayerUpdateSerializer, request)
        updated = tournaments.update_player(actor_of(request), player, **changes)
        return Response(s.PlayerSerializer(updated, context={"request": request}).data)


def role_of(request) -> str:
    """The ``?role=`` asked for ("" = the main list); ``lists.chart_for`` refuses unknown ones.
    The main list is the absence of ``role``: an empty one is refused like any unknown role."""
    role = request.query_params.get("role")
    if role == "":
        raise Invalid(_("The role must be attacker or defender."), "role_unknown")
    return role or ""


def format_list_answer(request, tournament: Tournament, player) -> Response | None:
    """The event format's own list answer (a league's ``?week=n``), or None."""
    event_format = formats.get(tournament.format)
    if event_format is None or event_format.player_list is None:
        return None
    return event_format.player_list(request, tournament, player)


class PlayerListView(APIView):
    """GET/PUT a player's current list (``?role=attacker|defender`` for role lists)."""

    @extend_schema(parameters=[ROLE_PARAM], responses=ANSWER)
    def get(self, request, slug: str, pk: int):
        tournament = get_tournament(request, slug)
        player = tournaments.get_player(tournament, pk)
        actor = actor_of(request)
        answer = format_list_answer(request, tournament, player)
        if answer is not None:
            return answer
        if not lists.may_read(actor, player, tournament):
            require_signed_in(request)
            raise Forbidden(_("Lists are not published yet."), "lists_not_published")
        role = role_of(request)
        army_list = lists.current_list(player, role)
        if army_list is None:
            raise NotFound(_("This player has no list yet."), "list_not_found")
        data = ArmyListSerializer(army_list).data
        data["report"] = list_systems.rules_for(army_list.chart.game_system.slug).render(
            army_list.chart, army_list.report)
        data.update(player=player.pk, role=role or None, versions=lists.versions(army_list),
                    locked=lists.lists_locked(tournament) and not player.list_unlocked)
        return Response(data)

    @extend_schema(parameters=[ROLE_PARAM], request=s.PlayerListBodySerializer, responses=ANSWER)
    def put(self, request, slug: str, pk: int):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        player = tournaments.get_player(tournament, pk)
        actor = actor_of(request)
        if not lists.may_edit(actor, player):  # before reading the body: a stranger gets 403, not 400
            raise Forbidden(_("Only this player or an organiser can change this list."), "not_your_list")
        answer = format_list_answer(request, tournament, player)
        if answer is not None:
            return answer
        role = role_of(request)
        chart = lists.chart_for(tournament, role)
        rules = list_systems.rules_for(chart.game_system.slug)
        if not rules.shared_view:
            return system_list_put(request, actor, tournament, player, role, chart, rules)
        body = s.PlayerListBodySerializer(data=request.data, context={"chart": chart})
        body.is_valid(raise_exception=True)
        attrs = body.validated_data
        read = ReadList({**attrs, "chart": chart})
        try:
            entries = read.entries()
        except RosterUnreadable as exc:
            return _roster_error(exc)
        current = lists.submit_list(
            actor, player, role=role, entries=entries, source_format=read.source_format,
            raw=read.raw, raw_filename=read.filename, import_warnings=read.warnings)
        army_list = current.army_list
        return _report_response(read, army_list.report, id=army_list.pk, player=player.pk,
                                role=role or None, chart=chart.slug)


def system_list_put(request, actor: Actor, tournament: Tournament, player, role: str, chart,
                    rules) -> Response:
    """A list of a system with its own body (Warhammer Battle, Urban War): the body of
    ``lists/validate`` without ``chart``/``points_limit``, which the event gives, as it gives the
    settings the system reads (advanced rules, commando size)."""
    sent = request.data if isinstance(request.data, Mapping) else {}
    data = lists.system_list_data(tournament, chart, rules, sent)
    try:
        current = lists.submit_system_list(actor, player, role=role, rules=rules, data=data)
    except list_systems.ListRefused as exc:
        return api_error(list_messages.render(exc.code, exc.params) or exc.code, exc.code)
    army_list = current.army_list
    answer = rules.render(chart, army_list.report)
    answer["warnings"] += ignored_fields(sent, rules, chart)
    answer.update(id=army_list.pk, player=player.pk, role=role or None, chart=chart.slug)
    return Response(answer)


class UnlockListView(APIView):
    @extend_schema(request=s.UnlockSerializer, responses=s.PlayerSerializer)
    def post(self, request, slug: str, pk: int):
        require_signed_in(request)
        player = tournaments.get_player(get_tournament(request, slug), pk)
        data = validated(s.UnlockSerializer, request)
        unlocked = lists.unlock_list(actor_of(request), player, data["reason"])
        return Response(s.PlayerSerializer(unlocked, context={"request": request}).data)
