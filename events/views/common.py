"""What the pages share: finding visible objects and turning service refusals into messages."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.http import Http404
from django.utils.translation import gettext as _

from events.audit import Actor
from events.errors import ServiceError
from events.models import Tournament

T = TypeVar("T")


def visible_tournament(request, slug: str) -> Tournament:
    """The event, or 404; drafts are for staff only (as in the API)."""
    qs = Tournament.objects.select_related("chart__game_system", "level", "game_system")
    if not Actor.of(request).is_staff:
        qs = qs.exclude(status=Tournament.Status.DRAFT)
    tournament = qs.filter(slug=slug).first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


def attempt(request, action: Callable[[], T]) -> T | None:
    """Run a service call; its refusal becomes an error message on the page, never a 500."""
    try:
        return action()
    except ServiceError as exc:
        messages.error(request, str(exc.message))
        return None
