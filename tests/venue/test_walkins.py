"""Walk-ins and mistakes: an invitation links a registration made without an account to one, and
the admin finishes an event only once its name is typed (the API's status endpoint does not ask)."""
from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events.audit import SYSTEM, Actor
from events.errors import Conflict, Forbidden
from events.models import AuditEntry, Player, Tournament
from events.services import tournaments
from notices.models import Notice
from tests.browser.events import open_event, organiser, user
from tests.tournament_fixtures import client_for, expect, post
from venue.services import invitations

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return open_event(organiser(), name="Les Loups", language="en")  # the texts read are English


def walk_in(event: Tournament, name: str = "Anne Martin") -> Player:
    return tournaments.register_player(SYSTEM, event, name=name)


def link_path(message) -> str:
    match = re.search(re.escape(settings.SITE_URL) + r"(/invitations/[^/\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_staff_invite_a_walk_in_from_the_admin(admin_client, event, mailoutbox,
                                               django_capture_on_commit_callbacks):
    anne = walk_in(event)
    walk_in(event, "Bruno Petit")
    page = admin_client.get(reverse("admin:league_tournament_invite", args=[event.pk]))
    assert page.status_code == 200
    assert "Anne Martin" in page.content.decode() and "Bruno Petit" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:league_tournament_invite", args=[event.pk]),
                                     {"player": anne.pk, "email": "anne@example.org"})
    assert response.status_code == 302
    (message,) = mailoutbox
    assert message.to == ["anne@example.org"] and "[Les Loups]" in message.subject
    assert "Anne Martin" in message.body and "14 days" in message.body
    entry = AuditEntry.objects.get(action="player_invited")
    assert entry.actor.username == "admin" and entry.data == {"player": anne.pk}
    assert "anne@example.org" not in str(entry.data)  # no address in the audit log
    notice = Notice.objects.get(kind=Notice.Kind.INVITATION)
    assert notice.recipient is None and notice.status == Notice.Status.SENT
    page = admin_client.get(reverse("admin:league_tournament_invite", args=[event.pk]))
    assert "Invite again" in page.content.decode()


def test_the_invited_player_signs_up_and_links_the_registration(client, event, mailoutbox,
                                                                django_capture_on_commit_callbacks):
    anne = walk_in(event)
    with django_capture_on_commit_callbacks(execute=True):
        invitations.invite(organiser("desk"), anne, "anne@example.org")
    path = link_path(mailoutbox[0])
    page = client.get(path).content.decode()
    assert "registered you as Anne Martin" in page
    assert f"{reverse('signup')}?next=" in page and f"{reverse('login')}?next=" in page
    assert client.post(path).status_code == 200  # not signed in: nothing happens
    response = client.post(reverse("signup"), {
        "username": "anne", "email": "anne@example.org", "password1": "a-long-pass-9876",
        "password2": "a-long-pass-9876", "next": path})
    assert response.status_code == 302 and response.url == path
    assert Player.objects.get(pk=anne.pk).user is None  # opening the link changes nothing
    linked = client.post(path, follow=True)
    assert linked.redirect_chain[-1][0] == reverse("tournament", args=[event.slug])
    account = get_user_model().objects.get(username="anne")
    assert Player.objects.get(pk=anne.pk).user == account
    assert AuditEntry.objects.get(action="player_linked").actor == account
    again = client.get(path).content.decode()
    assert "already linked to this registration" in again
    assert client.post(path).status_code == 302  # the same account again: harmless


def test_an_account_already_registered_is_refused(client, event, mailoutbox):
    anne = walk_in(event)
    bob = user("bob")
    tournaments.register_player(Actor(user=bob), event, name="Bob")
    token = invitations.make_token(anne, "anne@example.org")
    with pytest.raises(Conflict) as refused:
        invitations.accept(Actor(user=bob), token)
    assert refused.value.code == "already_registered"
    client.force_login(bob)
    page = client.post(reverse("invitation", args=[token]), follow=True).content.decode()
    assert "Your account is already registered for this event." in page
    assert Player.objects.get(pk=anne.pk).user is None


def test_a_used_invitation_is_refused_to_another_account(event):
    anne = walk_in(event)
    token = invitations.make_token(anne, "anne@example.org")
    invitations.accept(Actor(user=user("anne")), token)
    with pytest.raises(Conflict) as refused:
        invitations.accept(Actor(user=user("mallory")), token)
    assert refused.value.code == "invitation_used"
    with pytest.raises(Forbidden):
        invitations.accept(Actor(), token)


def test_expired_and_forged_links(client, event, monkeypatch):
    anne = walk_in(event)
    days = settings.MUSTER_INVITATION_DAYS
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() - (days + 1) * 86400)
    old = invitations.make_token(anne, "anne@example.org")
    monkeypatch.setattr(signing.time, "time", real)
    client.force_login(user("anne"))
    expired = client.get(reverse("invitation", args=[old]))
    assert expired.status_code == 400 and "expired" in expired.content.decode()
    assert client.post(reverse("invitation", args=[old])).status_code == 400
    forged = old[:-3] + ("abc" if not old.endswith("abc") else "xyz")
    assert client.get(reverse("invitation", args=[forged])).status_code == 404
    assert Player.objects.get(pk=anne.pk).user is None


def test_inviting_is_for_staff_and_walk_ins_only(event):
    anne = walk_in(event)
    with pytest.raises(Forbidden):
        invitations.invite(Actor(user=user("someone")), anne, "anne@example.org")
    linked = tournaments.register_player(Actor(user=user("bob")), event, name="Bob")
    with pytest.raises(Conflict):
        invitations.invite(SYSTEM, linked, "bob@example.org")
    with pytest.raises(Exception, match="valid e-mail"):
        invitations.invite(SYSTEM, anne, "not an address")


def test_the_invitation_is_sent_once_even_when_the_task_runs_twice(event, mailoutbox):
    from venue import tasks

    anne = walk_in(event)
    first = tasks.send_invitation.apply(args=[anne.pk, "anne@example.org", "42"]).get()
    second = tasks.send_invitation.apply(args=[anne.pk, "anne@example.org", "42"]).get()
    assert (first["sent"], second["sent"]) == (1, 0) and len(mailoutbox) == 1


# --- finishing from the admin -------------------------------------------------------------------

def running_event(name: str = "Coupe d'Automne") -> Tournament:
    event = open_event(organiser("orga"), name=name, rounds=1)
    event = tournaments.transition(SYSTEM, event, Tournament.Status.LISTS_LOCKED)
    return tournaments.transition(SYSTEM, event, Tournament.Status.RUNNING)


def test_finishing_asks_for_the_name_typed(admin_client):
    event = running_event()
    finish = reverse("admin:league_tournament_finish", args=[event.pk])
    page = admin_client.get(finish)
    assert page.status_code == 200 and "Coupe d&#x27;Automne" in page.content.decode()
    wrong = admin_client.post(finish, {"confirmation": "Coupe"})
    assert wrong.status_code == 200 and "to confirm" in wrong.content.decode()
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.RUNNING
    # The cockpit's status action refuses it without the name, too.
    admin_client.post(reverse("admin:league_tournament_action", args=[event.pk, "status"]),
                      {"target": "finished"})
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.RUNNING
    done = admin_client.post(finish, {"confirmation": "coupe  d'automne"})
    assert done.status_code == 302
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.FINISHED
    assert AuditEntry.objects.filter(action="status_changed", data__to="finished").exists()


def test_there_is_no_bulk_finish(admin_client):
    running_event()
    page = admin_client.get(reverse("admin:league_tournament_changelist")).content.decode()
    assert "make_finished" not in page


def test_the_api_still_finishes_with_the_status_alone():
    event = running_event()
    staff = client_for(get_user_model().objects.create_user("api-staff", is_staff=True))
    body = expect(post(staff, f"/tournaments/{event.slug}/status/", {"status": "finished"}), 200)
    assert body["status"] == "finished"
