"""Campaign words for templates: a side's key ("west", "east") as the reader reads it, and the
campaign an event serves (the event page's link to its map and orders)."""
from django import template

from campaigns.models import Campaign
from campaigns.words import SIDES
from systems.registry import game_system

register = template.Library()


@register.filter
def side_name(side: str) -> str:
    return str(SIDES.get(side, side))


@register.simple_tag
def campaign_of(tournament) -> dict[str, str] | None:
    """The campaign a tournament serves (its slug and name), or None: the event page then links to
    the map and orders instead of the Swiss parts. The registry says which game systems are played
    as campaigns, so a Swiss event costs no query (core pages never name a system)."""
    system = game_system(tournament.game_system.slug)
    if system is None or not system.campaign_chart:
        return None
    return Campaign.objects.filter(tournament_id=tournament.pk).values("slug", "name").first()
