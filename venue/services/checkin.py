"""Check-in at the door: by the player's personal code (staff scan or type it), by name
(staff), or by the players themselves from the venue's QR code while the organiser keeps the
self check-in window open.

Every check-in takes the player's row lock and writes the audit log; checking in someone
already checked in changes nothing and says when and by whom. Late arrivals check in at any
time before the end; a dropped player is brought back first (``tournaments.update_player``).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, NotFound
from events.models import Player, Tournament
from events.services.tournaments import locked_tournament, require_staff
from venue.checkin_codes import read_code, well_formed
from venue.checkin_models import VenueCheckIn, new_venue_token

STAFF, CODE, SELF = "staff", "code", "self"


@dataclass(frozen=True)
class CheckIn:
    """The player as checked in; ``already``: nothing changed, they were checked in before."""

    player: Player
    already: bool = False


def _lock(player_pk: int) -> Player:
    """The player's row only (``of``): the event and the accounts it joins stay free."""
    return Player.objects.select_for_update(of=("self",)).select_related(
        "tournament", "checked_in_by").get(pk=player_pk)


def _check_in(actor: Actor, player: Player, how: str) -> CheckIn:
    """Check ``player`` (locked by the caller) in, unless they already are."""
    if player.checked_in:
        return CheckIn(player, already=True)
    if player.tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    if player.dropped:
        raise Conflict(_("%(name)s has dropped out: bring them back on the players page first.")
                       % {"name": player.name}, "player_dropped")
    player.checked_in, player.checked_in_at = True, timezone.now()
    player.checked_in_by = actor.user if actor.user_id else None
    player.save(update_fields=["checked_in", "checked_in_at", "checked_in_by"])
    record(actor, "player_checked_in", player.tournament, player, {"player": player.pk, "how": how})
    return CheckIn(player)


@transaction.atomic
def check_in_by_code(actor: Actor, tournament: Tournament, text: str) -> CheckIn:
    """Staff: the player whose code ``text`` holds (the code, or the link of its QR code)."""
    require_staff(actor)
    code = read_code(text)
    found = Player.objects.filter(checkin_code=code).values("pk", "tournament_id").first() \
        if well_formed(code) else None
    if found is None:
        raise NotFound(_("This is not a check-in code: check it and type it again."),
                       "check_in_code_unknown")
    if found["tournament_id"] != tournament.pk:
        raise NotFound(_("This check-in code belongs to another event."),
                       "check_in_code_other_event")
    return _check_in(actor, _lock(found["pk"]), CODE)


@transaction.atomic
def check_in_player(actor: Actor, player: Player) -> CheckIn:
    """Staff: check a player in by name (no code at hand)."""
    require_staff(actor)
    return _check_in(actor, _lock(player.pk), STAFF)


@transaction.atomic
def self_check_in(actor: Actor, tournament: Tournament, token: str) -> CheckIn:
    """A signed-in player checks themself in with the venue's link, while the window is open."""
    if actor.user_id is None:
        raise Forbidden(_("Log in to check in."), "not_authenticated")
    if not window_accepts(tournament, token):
        raise Conflict(_("Self check-in is not open for this event. Ask an organiser."),
                       "self_check_in_closed")
    mine = tournament.players.filter(user_id=actor.user_id).values_list("pk", flat=True).first()
    if mine is None:
        raise NotFound(_("You are not registered for this event."), "not_registered")
    return _check_in(actor, _lock(mine), SELF)


# --- the self check-in window ---------------------------------------------------------------------

def window(tournament: Tournament) -> VenueCheckIn | None:
    return VenueCheckIn.objects.filter(tournament=tournament).first()


def window_accepts(tournament: Tournament, token: str) -> bool:
    """The window is open and ``token`` is its current one (compared in constant time)."""
    current = window(tournament)
    return bool(current is not None and current.is_open and token
                and secrets.compare_digest(current.token.encode(), str(token).encode()))


@transaction.atomic
def open_window(actor: Actor, tournament: Tournament) -> VenueCheckIn:
    """Open self check-in with a new venue token (an older QR code stops working)."""
    require_staff(actor)
    locked = locked_tournament(tournament)  # one window per event, opened once at a time
    if locked.status == Tournament.Status.FINISHED:
        raise Conflict(_("This tournament is finished."), "tournament_finished")
    current, _created = VenueCheckIn.objects.get_or_create(tournament=locked)
    if current.is_open:
        return current
    current.is_open, current.token = True, new_venue_token()
    current.opened_at, current.closed_at = timezone.now(), None
    current.opened_by = actor.user if actor.user_id else None
    current.save()
    record(actor, "self_check_in_opened", locked, locked)
    return current


@transaction.atomic
def close_window(actor: Actor, tournament: Tournament) -> VenueCheckIn | None:
    require_staff(actor)
    locked = locked_tournament(tournament)
    current = window(locked)
    if current is None or not current.is_open:
        return current
    current.is_open, current.closed_at = False, timezone.now()
    current.save(update_fields=["is_open", "closed_at"])
    record(actor, "self_check_in_closed", locked, locked)
    return current


# --- who is missing -------------------------------------------------------------------------------

def missing_players(tournament: Tournament) -> list[Player]:
    """Registered, not dropped, not checked in: whom the organisers are waiting for (one query)."""
    return list(tournament.players.filter(checked_in=False, dropped=False).order_by("name", "pk"))


def desk_path(player: Player) -> str:
    """What a player's QR code holds (made absolute by the page or e-mail showing it): the
    organisers' check-in page with the code filled in, so a phone's camera app opens it; typed
    or scanned into that page's field, the link works as the code itself."""
    path = reverse("admin:league_tournament_check_in", args=[player.tournament_id])
    return f"{path}?{urlencode({'code': player.checkin_code})}"


def who_text(player: Player) -> dict[str, Any]:
    """When and by whom, for the messages: the player themself, an organiser, or nobody known."""
    by = player.checked_in_by
    if by is None:
        name = ""
    elif by.pk == player.user_id:
        name = str(_("the player"))
    else:
        name = by.get_username()
    return {"name": player.name, "at": player.checked_in_at, "by": name}
