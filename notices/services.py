"""E-mail notices: the dispatcher that sends the letters the contexts registered.

The contexts queue a notice inside their transaction (``notices.outbox.queue``: a row, queued
by name after the commit); the task ``league.send_notices`` calls ``send``, which asks the
builder registered for the kind (``notices.letters``) for its letters, skips players without
an account, without an address or who turned notices off, and claims a ``Notice`` row per
recipient before sending: the row's unique constraint makes a task delivered twice, or run by
two workers, send each e-mail once. A send that fails marks its row failed, and a later retry
may claim it again. A worker that dies between the claim and the send leaves the row
"sending": that e-mail is not sent (at most once, never twice).
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from email.mime.image import MIMEImage

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from accounts.models import Profile
from notices import texts as texts
from notices.letters import Letter, absolute, builder_of, profile_link, stamp_of
from notices.models import Notice

__all__ = ["Letter", "Outcome", "absolute", "claim", "message", "profile_link", "send",
           "send_claimed", "stamp_of"]
Kind = Notice.Kind
logger = logging.getLogger(__name__)


@dataclass
class Outcome:
    sent: int = 0
    skipped: int = 0
    failed: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"sent": self.sent, "skipped": self.skipped, "failed": self.failed}


def send(kind: str, object_id: int, stamp: str = "") -> Outcome:
    """Send the notices of one event; safe to run any number of times."""
    builder = builder_of(kind)
    if builder is None:
        raise ValueError(f"unknown notice kind {kind!r}")
    letters = builder(object_id, stamp)
    outcome = Outcome()
    if not letters:
        return outcome
    preferences = _preferences(letter.recipient.pk for letter in letters)
    with get_connection() as connection:  # one connection to the mail server for the batch
        for letter in letters:
            language, wanted = preferences.get(letter.recipient.pk, ("", True))
            if not wanted or not letter.recipient.email:
                outcome.skipped += 1
                continue
            language = language or letter.tournament.language or settings.LANGUAGE_CODE
            _send_one(connection, kind, letter, language, letter.recipient.email, outcome)
    return outcome


def _send_one(connection, kind: str, letter: Letter, language: str, address: str,
              outcome: Outcome) -> None:
    notice = claim(letter.tournament.pk, letter.recipient.pk, kind, letter.key)
    if notice is None:
        outcome.skipped += 1  # sent (or being sent) by an earlier delivery
        return
    send_claimed(notice, letter, language, address, outcome, connection)


def send_claimed(notice: Notice, letter: Letter, language: str, address: str,
                 outcome: Outcome, connection=None) -> None:
    """Write and send a claimed notice in ``language``; the row records how it went."""
    try:
        with translation.override(language):
            written = texts.elided(letter.compose())
        message(written, address, connection).send()
    except Exception as exc:  # noqa: BLE001  (any mail error: recorded, the task retries)
        logger.warning("notice %s (%s) failed: %s", notice.kind, notice.key, exc)
        Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.FAILED,
                                                   error=str(exc)[:500], language=language)
        outcome.failed += 1
        return
    Notice.objects.filter(pk=notice.pk).update(status=Notice.Status.SENT, sent_at=timezone.now(),
                                               language=language)
    outcome.sent += 1


def message(written: texts.Letter | texts.Mail, address: str, connection=None) -> EmailMessage:
    """The e-mail to send: plain text, or with an HTML part and its inline images (a
    multipart/related message whose images the HTML shows through ``cid:`` links)."""
    if not isinstance(written, texts.Mail):
        subject, body = written
        return EmailMessage(subject, body, None, [address], connection=connection)
    mail = EmailMultiAlternatives(written.subject, written.body, None, [address],
                                  connection=connection)
    if written.html:
        mail.attach_alternative(written.html, "text/html")
    if written.images:
        mail.mixed_subtype = "related"  # the images belong to the HTML, not beside it
    for image in written.images:
        part = MIMEImage(image.png, "png")
        part.add_header("Content-ID", f"<{image.cid}>")
        part.add_header("Content-Disposition", "inline", filename=image.filename)
        mail.attach(part)
    return mail


def claim(tournament_id: int, recipient_id: int | None, kind: str, key: str) -> Notice | None:
    """The notice row, newly taken by this run, or None when another run has it (sent, or being
    sent). The insert is the claim: the database's uniqueness lets only one run through. A
    failed notice is taken back by a conditional update, which only one run can win as well."""
    try:
        with transaction.atomic():
            return Notice.objects.create(tournament_id=tournament_id, recipient_id=recipient_id,
                                         kind=kind, key=key)
    except IntegrityError:
        pass
    whom = {"recipient__isnull": True} if recipient_id is None else {"recipient_id": recipient_id}
    rows = Notice.objects.filter(tournament_id=tournament_id, kind=kind, key=key, **whom)
    if rows.filter(status=Notice.Status.FAILED).update(status=Notice.Status.SENDING, error=""):
        return rows.first()
    return None


def _preferences(user_ids: Iterable[int]) -> dict[int, tuple[str, bool]]:
    """Account -> (language, notices wanted); accounts without a profile want them."""
    rows = Profile.objects.filter(user_id__in=set(user_ids)).values_list(
        "user_id", "language", "notices")
    return {user_id: (language, notices) for user_id, language, notices in rows}
