"""Walk-ins: staff invite a player registered without an account to link it to one.

The invitation is a signed link (``django.core.signing``, its own salt) naming the player; it
expires after ``MUSTER_INVITATION_DAYS`` and is spent once the registration has an account.
Whoever opens it signs in (or signs up) and confirms: the registration becomes theirs, unless
that account is already registered for the event."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.audit import Actor, record
from events.errors import Conflict, Forbidden, Invalid, NotFound
from events.models import Player
from events.notice_letters import queue_registered
from events.services.tournaments import require_staff
from notices.letters import stamp_of
from notices.outbox import SEND_INVITATION, enqueue

SALT = "league.invitation"


def make_token(player: Player, email: str) -> str:
    return signing.dumps({"player": player.pk, "email": email}, salt=SALT, compress=True)


def max_age() -> timedelta:
    return timedelta(days=settings.MUSTER_INVITATION_DAYS)


@transaction.atomic
def invite(actor: Actor, player: Player, email: str) -> Player:
    """Staff send ``player`` (no account yet) an invitation at ``email``, after the commit.

    The audit entry says who was invited, not at which address (as for account changes)."""
    require_staff(actor)
    locked = Player.objects.select_for_update().select_related("tournament").get(pk=player.pk)
    if locked.user_id is not None:
        raise Conflict(_("This registration is already linked to an account."), "already_linked")
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise Invalid(_("Enter a valid e-mail address."), "email_invalid") from None
    enqueue(SEND_INVITATION, [locked.pk, email, stamp_of(timezone.now())])  # after the commit
    record(actor, "player_invited", locked.tournament, locked, {"player": locked.pk})
    return locked


def invited_player(token: str) -> Player:
    """The player a valid, unexpired token names; 404 otherwise (the reasons are not told apart
    for strangers, but an expired link says so)."""
    try:
        data: Any = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise Invalid(_("This invitation has expired: ask an organiser for a new one."),
                      "invitation_expired") from None
    except signing.BadSignature:
        raise NotFound(_("No such invitation."), "invitation_not_found") from None
    player = Player.objects.select_related("tournament").filter(pk=data.get("player")).first()
    if player is None:
        raise NotFound(_("No such invitation."), "invitation_not_found")
    return player


@transaction.atomic
def accept(actor: Actor, token: str) -> Player:
    """Link the invited registration to the signed-in account (the player row is locked, so two
    accounts opening the same link cannot both take it)."""
    if actor.user_id is None:
        raise Forbidden(_("Sign in to accept the invitation."), "not_authenticated")
    found = invited_player(token)
    player = Player.objects.select_for_update().select_related("tournament").get(pk=found.pk)
    if player.user_id == actor.user_id:
        return player  # the same link opened twice
    if player.user_id is not None:
        raise Conflict(_("This invitation has already been used."), "invitation_used")
    if Player.objects.filter(tournament_id=player.tournament_id, user_id=actor.user_id).exists():
        raise Conflict(_("Your account is already registered for this event."),
                       "already_registered")
    player.user = actor.user
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:  # another invitation of this event linked the account meanwhile
        raise Conflict(_("Your account is already registered for this event."),
                       "already_registered") from None
    record(actor, "player_linked", player.tournament, player,
           {"player": player.pk, "user": actor.user_id})
    queue_registered(player)  # now that it has an address: the check-in code
    return player
