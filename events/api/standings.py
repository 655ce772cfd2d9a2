"""API: the standings, with or without awards and penalties (api-v1)."""
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from events import event_cache
from events.api.common import ANSWER, actor_of
from events.errors import Invalid, NotFound
from events.models import Tournament
from events.services import standings
from venue.services import awards

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
