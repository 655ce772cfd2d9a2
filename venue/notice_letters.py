"""The venue's e-mail notices: a registration's confirmation with its check-in QR code, and a
walk-in's invitation to link their registration to an account.

``register`` hands the confirmation letters to the notices dispatcher (VenueConfig.ready);
``send_invitation`` (task ``league.send_invitation``) sends an invitation, which has no account
yet: its claim has no recipient and its address comes with the task.
"""
from __future__ import annotations

from functools import partial

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation

from events.models import Player, Tournament
from notices import letters as registry
from notices import texts
from notices.letters import Letter, absolute, profile_link
from notices.models import Notice
from notices.services import Outcome, claim, send_claimed
from venue.checkin_codes import shown
from venue.qr import qr_png
from venue.services import checkin, invitations

Kind = Notice.Kind
QR_CID = "check-in-qr@muster"


def registered_letters(player_id: int, stamp: str) -> list[Letter]:
    player = Player.objects.select_related("tournament", "user").filter(pk=player_id).first()
    if (player is None or player.user is None or player.dropped
            or player.tournament.status == Tournament.Status.FINISHED):
        return []  # gone, unlinked, dropped or over meanwhile: nothing left to confirm
    event = player.tournament
    return [Letter(event, player.user, str(player.pk), partial(_compose_registered, event, player))]


def _compose_registered(event: Tournament, player: Player) -> texts.Mail:
    """In the recipient's language (active here): the words, and the QR code of the same link
    as the one on their profile (the organisers' check-in page with the code filled in)."""
    words = texts.registered(texts.Registration(
        event=event.name, player=player.name,
        date=formats.date_format(event.starts_on, "DATE_FORMAT") if event.starts_on else "",
        code=shown(player.checkin_code),
        event_link=absolute(reverse("tournament", args=[event.slug])),
        profile_link=profile_link()))
    png = qr_png(absolute(checkin.desk_path(player)))
    size = int.from_bytes(png[16:20], "big")  # the PNG header's width (the image is square)
    html = render_to_string("league/email/registered.html", {
        "words": words, "cid": QR_CID, "size": size, "language": translation.get_language()})
    return texts.Mail(words.subject, words.body, html,
                      (texts.Image(QR_CID, png, "check-in.png"),))


def send_invitation(player_id: int, email: str, stamp: str) -> Outcome:
    """The invitation e-mail of a walk-in (no account yet: the claim has no recipient)."""
    outcome = Outcome()
    player = Player.objects.select_related("tournament").filter(pk=player_id).first()
    if player is None or player.user_id is not None or not email:
        outcome.skipped += 1  # linked meanwhile: the invitation has no object any more
        return outcome
    event = player.tournament
    notice = claim(event.pk, None, Kind.INVITATION, f"{player.pk}@{stamp}")
    if notice is None:
        outcome.skipped += 1
        return outcome
    link = absolute(reverse("invitation", args=[invitations.make_token(player, email)]))
    language = event.language or settings.LANGUAGE_CODE
    letter = Letter(event, None, notice.key, partial(
        texts.invitation, event.name, player.name, link, settings.MUSTER_INVITATION_DAYS))
    send_claimed(notice, letter, language, email, outcome)
    return outcome


def register() -> None:
    """Hand the venue's letters to the notices dispatcher (VenueConfig.ready)."""
    registry.register(Kind.REGISTERED, registered_letters)
