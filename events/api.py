"""API: tournaments, registrations, players' lists, rounds, results and standings (api-v1)."""
from collections.abc import Mapping

from django.db.models import Count, F
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists import systems as list_systems
from armylists.api import ReadList, _report_response, _roster_error
from armylists.roster import RosterUnreadable
from armylists.serializers import ArmyListSerializer
from armylists.systems import messages as list_messages
from armylists.systems_api import ignored_fields
from config.api_errors import api_error, validated
from config.gc_pause import gc_paused
from events import event_cache, formats
from events import serializers as s
from events.audit import Actor
from events.errors import Forbidden, Invalid, NotFound
from events.messages import chart_names, list_problem_text
from events.models import Game, Tournament
from events.rolls_serializers import table_rolls_for
from events.services import dynamics, lists, results, rounds, standings, tournaments
from venue.clock_words import clock_data
from venue.services import awards, clock

ANSWER = OpenApiResponse(description="see api-v1.md")
ROLE_PARAM = OpenApiParameter("role", str, enum=["attacker", "defender"], required=False)


def actor_of(request) -> Actor:
    return Actor.of(request)


def visible_tournaments(actor: Actor):
    qs = Tournament.objects.select_related("chart", "level", "game_system").annotate(player_count=Count("players"))
    return qs if actor.is_staff else qs.exclude(status=Tournament.Status.DRAFT)


def get_tournament(request, slug: str) -> Tournament:
    tournament = visible_tournaments(actor_of(request)).filter(slug=slug).first()
    if tournament is None:
        raise NotFound(_("No such tournament."), "tournament_not_found")
    return tournament


def require_signed_in(request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()


class TournamentListView(APIView):
    """GET: events (drafts only for staff). POST (staff): create one."""

    @extend_schema(responses=s.TournamentSerializer(many=True))
    def get(self, request):
        return Response(s.TournamentSerializer(visible_tournaments(actor_of(request)), many=True).data)

    @extend_schema(request=s.TournamentCreateSerializer, responses={201: s.TournamentSerializer})
    def post(self, request):
        require_signed_in(request)
        data = validated(s.TournamentCreateSerializer, request)
        tournament = tournaments.create_tournament(actor_of(request), **data)
        tournament.player_count = 0  # as GET shows it (the annotation is not on a new row)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentView(APIView):
    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request, slug: str):
        return Response(s.TournamentSerializer(get_tournament(request, slug)).data)


class TournamentStatusView(APIView):
    """POST (staff) {"status"}: draft → registration_open → lists_locked → running → finished."""

    @extend_schema(request=s.StatusSerializer, responses=s.TournamentSerializer)
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        target = validated(s.StatusSerializer, request)["status"]
        return Response(s.TournamentSerializer(tournaments.transition(actor_of(request), tournament, target)).data)


class PublishListsView(APIView):
    @extend_schema(request=s.PublishListsSerializer, responses=s.TournamentSerializer)
    def post(self, request, slug: str):
        require_signed_in(request)
        tournament = get_tournament(request, slug)
        published = validated(s.PublishListsSerializer, request)["published"]
        updated = tournaments.publish_lists(actor_of(request), tournament, published)
        return Response(s.TournamentSerializer(updated).data)


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


def game_for(request, pk: int) -> Game:
    game = Game.objects.select_related("round__tournament__game_system", "mission").filter(pk=pk).first()
    actor = actor_of(request)
    hidden = game is None or (
        (game.round.status == "draft" or game.round.tournament.status == Tournament.Status.DRAFT)
        and not actor.is_staff)
    if hidden:
        raise NotFound(_("No such game."), "game_not_found")
    return game


class GameView(APIView):
    @extend_schema(responses=ANSWER)
    def get(self, request, pk: int):
        game = game_for(request, pk)
        data = s.game_data(game, list_problem_text)
        data["round"] = game.round.number
        data["tournament"] = game.round.tournament.slug
        dynamics_block = dynamics.block(game)  # None outside a Dynamics event
        if dynamics_block is not None:
            data["dynamics"] = dynamics_block
        rolls = table_rolls_for(game, actor_of(request))  # None for anyone but its players, staff
        if rolls is not None:
            data["table_rolls"] = rolls
        return Response(data)


class ReportView(APIView):
    """POST: a player of the game (or staff) reports its result."""

    @extend_schema(request=s.ReportSerializer, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        try:
            data = validated(s.ReportSerializer, request)
        except APIException:
            game_for(request, pk)  # a game the reader may not see is a 404 before the body's 400
            raise
        # The service answers 404 or 403 for a game the reader may not report (one read, locked).
        content = results.ResultInput(
            winner=data["result"].get("winner"), outcome=data["result"].get("outcome"),
            victory_points=data["victory_points"], stratagems=data["stratagems"], comment=data["comment"],
            facts=data.get("outcome"), campaign=data.get("campaign"))
        game = results.report(actor_of(request), pk, content)
        return Response({"status": game.status, "game": game.pk})


class ConfirmView(APIView):
    @extend_schema(request=None, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        game = results.confirm(actor_of(request), pk)  # 404 or 403 as game_for, in one read
        return Response({"status": game.status, "game": game.pk})


class DisputeView(APIView):
    @extend_schema(request=s.DisputeSerializer, responses=ANSWER)
    def post(self, request, pk: int):
        require_signed_in(request)
        game_for(request, pk)
        reason = validated(s.DisputeSerializer, request)["reason"]
        game = results.dispute(actor_of(request), pk, reason)
        return Response({"status": game.status, "game": game.pk})


EXTRAS_PARAM = OpenApiParameter("extras", str, enum=["with", "without"], required=False,
                                description="rank with (default) or without awards and penalties")


class StandingsView(APIView):
    """GET: the standings; ``?extras=without`` ranks on games only. Each row's ``extras`` gives
    the awards and penalties (``points`` includes those counted)."""

    @extend_schema(parameters=[EXTRAS_PARAM], responses=ANSWER)
    def get(self, request, slug: str):
        tournament = standings_event(request, slug)
        ranked = ranked_with_extras(request)
        cached = event_cache.for_event(tournament.pk)
        # The answer as sent, cached until the event changes (events.event_cache).
        body = cached.get_or_build(f"api-standings:{ranked}", lambda: JSONRenderer().render(
            standings_data(standings.ranking(tournament, ranked_with_extras=ranked, cached=cached))))
        return HttpResponse(body, content_type="application/json")


def standings_event(request, slug: str) -> Tournament:
    """``get_tournament`` without what the standings do not read (the player count)."""
    qs = Tournament.objects.filter(slug=slug)
    if not actor_of(request).is_staff:
        qs = qs.exclude(status=Tournament.Status.DRAFT)
    tournament = qs.first()
    if tournament is None:
        raise NotFound(_("No such tournament."), "tournament_not_found")
    return tournament


def standings_data(ranking: standings.Ranking) -> list[dict]:
    ranked = ranking.ranked_with_extras
    return [
        {"rank": row.rank, "player": {"id": player.pk, "name": player.name}, "points": row.points,
         "wins": row.wins, "draws": row.draws, "losses": row.losses, "byes": row.byes,
         "dropped": player.dropped, "tiebreakers": dict(row.tiebreakers),
         "extras": extras_data(ranking.extras, player.pk, row.extra, ranked)}
        for row, player in ranking.rows
    ]


def ranked_with_extras(request) -> bool:
    value = request.query_params.get("extras", "with")
    if value not in ("with", "without"):
        raise Invalid(_("extras is “with” or “without”."), "extras_invalid")
    return value == "with"


def extras_data(extras: awards.Extras, player_id: int, counted: int, ranked: bool) -> dict:
    """The row's awards and penalties: the points counted in ``points`` and each component."""
    return {"points": counted, "components": [
        {"id": s.component.id, "name": s.component.name, "kind": s.component.kind,
         "value": s.value, "points": s.points, "counted": s.counted}
        for s in extras.scores(player_id, ranked=ranked)]}
