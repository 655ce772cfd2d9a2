"""The registration e-mail: once a player is registered (by themself, by staff with an account, by
a CSV import, or a walk-in once linked to an account), one e-mail in their language with the
event, its date, their check-in code and its QR code as an inline PNG, sent through the task
queue once per event and recipient, unless they turned notices off."""
from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date
from email.mime.image import MIMEImage

import pytest
import segno
from django.conf import settings
from django.core import mail
from django.urls import reverse
from PIL import Image

from accounts.models import Profile
from events.audit import Actor
from events.models import Player, Tournament
from events.services import imports, tournaments
from notices import services as notices
from notices import tasks
from notices.models import Notice
from tests.browser.events import open_event, register, user
from venue import notice_letters
from venue.checkin_codes import read_code, shown
from venue.services import checkin, invitations

pytestmark = pytest.mark.django_db
Kind = Notice.Kind
SCALE, BORDER = 6, 4  # venue.qr.qr_png's


def desk_link(player: Player) -> str:
    return settings.SITE_URL + checkin.desk_path(player)


def qr_image(message: mail.EmailMultiAlternatives) -> MIMEImage:
    (image,) = [part for part in message.attachments if isinstance(part, MIMEImage)]
    return image


def modules(png: bytes) -> list[list[bool]]:
    """The dark modules of a QR code PNG, read back from its pixels (one sample per module)."""
    picture = Image.open(io.BytesIO(png)).convert("L")
    width, height = picture.size
    assert width == height and width % SCALE == 0
    count = width // SCALE - 2 * BORDER
    return [[picture.getpixel(((BORDER + x) * SCALE + SCALE // 2,
                               (BORDER + y) * SCALE + SCALE // 2)) < 128 for x in range(count)]
            for y in range(count)]


def assert_qr_of(png: bytes, text: str) -> None:
    """``png`` is the QR code of ``text``: its pixels are exactly the symbol segno makes of it,
    and a decoder (zbarimg) reads ``text`` back when the machine has one."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    symbol = segno.make_qr(text, error="m")
    assert modules(png) == [[bool(cell) for cell in row] for row in symbol.matrix]
    if shutil.which("zbarimg"):
        decoded = subprocess.run(["zbarimg", "--raw", "-q", "-"], input=png, capture_output=True,
                                 check=True).stdout.decode().strip()
        assert decoded == text


def test_a_player_who_registers_gets_their_code_and_its_qr_code(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Cité en flammes", language="en", starts_on=date(2026, 3, 14))
    with django_capture_on_commit_callbacks(execute=True):
        alice = register(event, user("alice"), "Alice Martin", units=None)
    (message,) = mailoutbox
    code = shown(alice.checkin_code)
    assert message.to == ["alice@example.org"]
    assert message.subject == "[Cité en flammes] You are registered"
    body = message.body
    assert "You are registered for Cité en flammes as Alice Martin." in body
    assert "Date: 14 March 2026" in body  # day before month (config/formats/en)
    assert f"Your check-in code: {code}" in body
    assert settings.SITE_URL + reverse("tournament", args=[event.slug]) in body
    assert settings.SITE_URL + reverse("profile") in body  # the profile, and how to opt out
    assert "<" not in body
    (html, mimetype), = message.alternatives
    assert mimetype == "text/html"
    assert f'src="cid:{notice_letters.QR_CID}"' in html and code in html
    assert f'href="{settings.SITE_URL}{reverse("tournament", args=[event.slug])}"' in html
    image = qr_image(message)
    assert image.get_content_type() == "image/png"
    assert image["Content-ID"] == f"<{notice_letters.QR_CID}>"
    assert image["Content-Disposition"].startswith("inline")
    png = image.get_payload(decode=True)
    assert_qr_of(png, desk_link(alice))
    assert read_code(desk_link(alice)) == alice.checkin_code  # the link carries the code
    # The whole message as sent: the HTML and its image travel together (multipart/related).
    sent = message.message()
    assert sent.get_content_type() == "multipart/related"
    notice = Notice.objects.get(kind=Kind.REGISTERED)
    assert (notice.recipient, notice.status, notice.language) == (alice.user, "sent", "en")


def test_the_e_mail_is_in_the_players_language(staff_actor, mailoutbox,
                                               django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Verrou", language="en", starts_on=date(2026, 3, 14))
    account = user("bruno")
    Profile.objects.create(user=account, language="fr")
    with django_capture_on_commit_callbacks(execute=True):
        register(event, account, "Bruno", units=None)
    (message,) = mailoutbox
    assert "14 mars 2026" in message.body  # the date as French readers write it
    assert Notice.objects.get(kind=Kind.REGISTERED).language == "fr"
    assert 'lang="fr"' in message.alternatives[0][0]


def test_an_event_without_a_date_says_none(staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Sans date", language="en")
    with django_capture_on_commit_callbacks(execute=True):
        register(event, user("carol"), "Carol", units=None)
    (message,) = mailoutbox
    assert "Date:" not in message.body and "You are registered for Sans date" in message.body


def test_sent_once_per_registration_even_when_the_task_runs_twice(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        alice = register(event, user("alice"), "Alice", units=None)
    again = tasks.send_notices.apply(args=[Kind.REGISTERED, alice.pk, ""]).get()
    assert again == {"sent": 0, "skipped": 1, "failed": 0}
    assert len(mailoutbox) == 1 and Notice.objects.filter(kind=Kind.REGISTERED).count() == 1


def test_players_who_turned_notices_off_get_none(staff_actor, mailoutbox,
                                                 django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    account = user("dora")
    Profile.objects.create(user=account, notices=False)
    with django_capture_on_commit_callbacks(execute=True):
        register(event, account, "Dora", units=None)
    assert mailoutbox == [] and not Notice.objects.exists()


def test_staff_registrations_mail_the_accounts_and_not_the_walk_ins(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    user("erwan")
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.register_player(staff_actor, event, name="Erwan", username="erwan")
        tournaments.register_player(staff_actor, event, name="Walk-in")
    assert [m.to for m in mailoutbox] == [["erwan@example.org"]]


def test_a_csv_import_mails_each_account_once_and_a_refused_file_mails_nobody(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    user("fanny")
    user("gael")
    refused = b"name,username\nFanny,fanny\nNobody,no-such-account\n"
    with django_capture_on_commit_callbacks(execute=True):
        result = imports.import_players_csv(staff_actor, event, refused)
    assert result.errors and mailoutbox == []  # rolled back: nobody registered, nothing sent
    accepted = b"name,username\nFanny,fanny\nGael,gael\nWalk-in,\n"
    with django_capture_on_commit_callbacks(execute=True):
        result = imports.import_players_csv(staff_actor, event, accepted)
    assert not result.errors
    assert sorted(m.to[0] for m in mailoutbox) == ["fanny@example.org", "gael@example.org"]


def test_a_walk_in_linked_to_an_account_gets_the_e_mail_then(
        staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Les Loups", language="en")
    walk_in = tournaments.register_player(staff_actor, event, name="Anne Martin")
    token = invitations.make_token(walk_in, "anne@example.org")
    anne = user("anne")
    with django_capture_on_commit_callbacks(execute=True):
        invitations.accept(Actor(user=anne), token)
    (message,) = mailoutbox
    assert message.to == ["anne@example.org"] and message.subject == "[Les Loups] You are registered"
    assert_qr_of(qr_image(message).get_payload(decode=True), desk_link(walk_in))


def test_a_player_dropped_or_an_event_finished_before_the_task_gets_nothing(staff_actor, mailoutbox):
    event = open_event(staff_actor, language="en")
    alice = register(event, user("alice"), "Alice", units=None)  # callbacks not run
    Player.objects.filter(pk=alice.pk).update(dropped=True)
    assert notices.send(Kind.REGISTERED, alice.pk).as_dict() == {"sent": 0, "skipped": 0,
                                                                  "failed": 0}
    Player.objects.filter(pk=alice.pk).update(dropped=False)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    assert notices.send(Kind.REGISTERED, alice.pk).sent == 0
    assert mailoutbox == []
