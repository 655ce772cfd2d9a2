"""What the events' API views share, and other apps' views with them: who asks, the tournament
or game a path names (hidden drafts are a 404), the sign-in check."""
from django.db.models import Count
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework.exceptions import NotAuthenticated

from events.audit import Actor
from events.errors import NotFound
from events.models import Game, Tournament

ANSWER = OpenApiResponse(description="see api-v1.md")


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


def game_for(request, pk: int) -> Game:
    game = Game.objects.select_related("round__tournament__game_system", "mission").filter(pk=pk).first()
    actor = actor_of(request)
    hidden = game is None or (
        (game.round.status == "draft" or game.round.tournament.status == Tournament.Status.DRAFT)
        and not actor.is_staff)
    if hidden:
        raise NotFound(_("No such game."), "game_not_found")
    return game
