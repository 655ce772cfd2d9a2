"""Awards and penalties on the event page: the standings' extra columns and players' votes."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from events.audit import Actor
from events.errors import Invalid
from events.models import Player, Tournament
from events.services import tournaments
from events.views.common import attempt, visible_tournament
from venue.services import awards


def ranked_with_extras(request) -> bool:
    """The event page ranks with the awards and penalties unless ``?extras=without``."""
    return request.GET.get("extras") != "without"


def standings_context(request, extras: awards.Extras, ranked: bool) -> dict[str, Any]:
    """The extra columns and the link that ranks the other way (keeping the round shown)."""
    counting = any(c.counts for c in extras.components)
    query = {k: v for k, v in request.GET.items() if k == "round"}
    if ranked:
        query["extras"] = "without"
    return {"extra_columns": extras.components, "ranked_with_extras": ranked,
            "extras_toggle": ("?" + urlencode(query)) if counting else None}


def vote_forms(event: Tournament, me: Player | None, extras: awards.Extras,
               players: list[Player]) -> list[dict[str, Any]]:
    """One form per component players vote on, for a registered player while the event runs
    (one query, only then: my current votes)."""
    if me is None or event.status != Tournament.Status.RUNNING:
        return []
    votable = [c for c in extras.components if c.players_vote]
    if not votable:
        return []
    mine = awards.votes_of(me)
    others = [p for p in players if p.pk != me.pk]
    return [{"component": c, "choice": mine.get(c.id), "candidates": others} for c in votable]


def vote(request, slug: str):
    """POST: give my vote in one component to another player, then back to the event page."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    event = visible_tournament(request, slug)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('tournament', args=[slug])}")
    done = attempt(request, lambda: awards.cast_vote(
        Actor.of(request), awards.get_component(event, _number(request.POST, "component")),
        tournaments.get_player(event, _number(request.POST, "player"))))
    if done is not None:
        messages.success(request, _("Your vote is saved."))
    return redirect(reverse("tournament", args=[slug]) + "#votes-title")


def _number(data, key: str) -> int:
    try:
        return int(data.get(key, ""))
    except (TypeError, ValueError):
        raise Invalid(_("Choose a player."), "vote_incomplete") from None
