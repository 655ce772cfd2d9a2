"""Check-in at the door: personal codes, the service (by code, by name, by the player at the
venue), the API, the organisers' page, the self check-in page, the cockpit's missing list, the
player's card with its QR code, and the query budget of each new page at two sizes."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

import events.admin  # noqa: F401  (registers the admin before the URLs load)
from events.audit import Actor
from events.errors import Conflict, Forbidden, NotFound
from events.models import AuditEntry, Player, Tournament
from events.services import backup, restore, tournaments
from tests.browser.events import open_event, organiser, user
from venue.checkin_codes import ALPHABET, LENGTH, new_checkin_code, read_code, shown, well_formed
from venue.services import checkin

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(staff_actor) -> Tournament:
    return open_event(staff_actor, name="Cité en flammes")


def players(event: Tournament, count: int, prefix: str = "Joueur") -> list[Player]:
    return [tournaments.register_player(SYSTEM_STAFF, event, name=f"{prefix} {i:02d}")
            for i in range(count)]


SYSTEM_STAFF = Actor(system=True)


def text(response) -> str:
    return response.content.decode()


# --- codes ---------------------------------------------------------------------------------------

def test_codes_are_long_unambiguous_and_different():
    codes = {new_checkin_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(c) == LENGTH >= 10 and set(c) <= set(ALPHABET) for c in codes)
    assert not set("01IOL") & set(ALPHABET)


def test_a_code_is_read_from_what_staff_type_or_scan():
    code = "ABCD2345EFGH"
    assert shown(code) == "ABCD-2345-EFGH"
    for typed in ("abcd-2345-efgh", " ABCD 2345 EFGH ", "ABCD2345EFGH",
                  f"https://muster.example/admin/league/tournament/3/check-in/?code={code}"):
        assert read_code(typed) == code
    assert not well_formed(read_code("ABCD-2345")) and not well_formed("ABCD2345EFG0")


def test_every_registration_has_its_own_code(event):
    walk_in = Player.objects.create(tournament=event, name="Sans compte")
    bulk = Player.objects.bulk_create([Player(tournament=event, name=f"B{i}") for i in range(5)])
    registered = players(event, 3)
    codes = [p.checkin_code for p in [walk_in, *bulk, *registered]]
    assert len(set(codes)) == len(codes) and all(well_formed(c) for c in codes)


# --- the service ---------------------------------------------------------------------------------

def test_check_in_by_code_says_who_when_and_writes_the_audit(staff_actor, event):
    alice = players(event, 1)[0]
    done = checkin.check_in_by_code(staff_actor, event, shown(alice.checkin_code).lower())
    assert not done.already and done.player.checked_in
    alice.refresh_from_db()
    assert alice.checked_in and alice.checked_in_at and alice.checked_in_by == staff_actor.user
    entry = AuditEntry.objects.get(action="player_checked_in")
    assert entry.data == {"player": alice.pk, "how": "code"} and entry.actor == staff_actor.user

    again = checkin.check_in_by_code(organiser("second-desk"), event, alice.checkin_code)
    assert again.already and again.player.checked_in_by == staff_actor.user  # nothing changed
    assert checkin.who_text(again.player)["by"] == "organiser"
    assert AuditEntry.objects.filter(action="player_checked_in").count() == 1


def test_a_wrong_code_or_one_of_another_event_is_refused(staff_actor, event):
    other = open_event(staff_actor, name="Autre tournoi")
    stranger = players(other, 1)[0]
    with pytest.raises(NotFound) as wrong:
        checkin.check_in_by_code(staff_actor, event, "NOPE-NOPE-NOPE")
    assert wrong.value.code == "check_in_code_unknown"
    with pytest.raises(NotFound) as elsewhere:
        checkin.check_in_by_code(staff_actor, event, stranger.checkin_code)
    assert elsewhere.value.code == "check_in_code_other_event"
    stranger.refresh_from_db()
    assert not stranger.checked_in


def test_only_staff_check_in_by_code(event):
    alice = players(event, 1)[0]
    with pytest.raises(Forbidden):
        checkin.check_in_by_code(Actor(user=user("bob")), event, alice.checkin_code)


def test_dropped_players_come_back_first_and_late_arrivals_still_check_in(staff_actor, event):
    late, gone = players(event, 2)
    tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    tournaments.transition(staff_actor, event, Tournament.Status.RUNNING)
    assert checkin.check_in_by_code(staff_actor, event, late.checkin_code).player.checked_in
    tournaments.update_player(staff_actor, gone, dropped=True)
    with pytest.raises(Conflict) as refused:
        checkin.check_in_player(staff_actor, gone)
    assert refused.value.code == "player_dropped"
    tournaments.update_player(staff_actor, gone, dropped=False)
    assert checkin.check_in_player(staff_actor, gone).player.checked_in


def test_no_check_in_once_the_event_is_finished(staff_actor, event):
    alice = players(event, 1)[0]
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(Conflict) as refused:
        checkin.check_in_by_code(staff_actor, event, alice.checkin_code)
    assert refused.value.code == "tournament_finished"


def test_update_player_keeps_when_and_by_whom(staff_actor, event):
    alice = players(event, 1)[0]
    checked = tournaments.update_player(staff_actor, alice, checked_in=True)
    assert checked.checked_in_at is not None and checked.checked_in_by == staff_actor.user
    undone = tournaments.update_player(staff_actor, alice, checked_in=False)
    assert undone.checked_in_at is None and undone.checked_in_by is None


def test_self_check_in_only_while_the_window_is_open(staff_actor, event):
    account = user("alice")
    me = tournaments.register_player(Actor(user=account), event, name="Alice")
    player = Actor(user=account)
    with pytest.raises(Conflict):
        checkin.self_check_in(player, event, "anything")
    window = checkin.open_window(staff_actor, event)
    with pytest.raises(Conflict):
        checkin.self_check_in(player, event, "a-token-from-an-old-photo")
    with pytest.raises(NotFound):
        checkin.self_check_in(Actor(user=user("stranger")), event, window.token)
    with pytest.raises(Forbidden):
        checkin.self_check_in(Actor(), event, window.token)
    done = checkin.self_check_in(player, event, window.token)
    me.refresh_from_db()
    assert not done.already and me.checked_in and me.checked_in_by == account
    assert checkin.who_text(done.player)["by"] == "the player"
    assert checkin.self_check_in(player, event, window.token).already

    old_token = window.token
    checkin.close_window(staff_actor, event)
    with pytest.raises(Conflict):
        checkin.self_check_in(player, event, old_token)
    reopened = checkin.open_window(staff_actor, event)
    assert reopened.token != old_token  # an earlier QR code stops working
    actions = list(AuditEntry.objects.filter(action__startswith="self_check_in").values_list(
        "action", flat=True).order_by("pk"))
    assert actions == ["self_check_in_opened", "self_check_in_closed", "self_check_in_opened"]


def test_missing_players_are_those_registered_not_dropped_not_checked_in(staff_actor, event):
    here, gone, waited = players(event, 3)
    checkin.check_in_player(staff_actor, here)
    tournaments.update_player(staff_actor, gone, dropped=True)
    assert checkin.missing_players(event) == [waited]


def test_a_backup_keeps_the_codes_and_a_copy_beside_the_event_gets_new_ones(staff_actor, event):
    alice = players(event, 1)[0]
    document = json.loads(json.dumps(backup.event_document(event)))
    # Restored elsewhere, the player keeps the code their registration e-mail carries; a copy in
    # the same database cannot share it (a code belongs to one event).
    assert document["players"][0]["checkin_code"] == alice.checkin_code
    restored = restore.restore_event(staff_actor, document, slug="copie")
    imported = restored.tournament.players.get()
    assert imported.name == alice.name and well_formed(imported.checkin_code)
    assert imported.checkin_code != alice.checkin_code
    assert restored.warnings == ["1 player gets a new check-in code: this database already uses "
                                 "theirs."]


# --- the API -------------------------------------------------------------------------------------

def api(account=None) -> APIClient:
    client = APIClient()
    if account is not None:
        client.force_authenticate(account)
    return client


def test_api_checks_in_by_code(staff_actor, event):
    alice = players(event, 1)[0]
    url = f"/api/v1/tournaments/{event.slug}/check-in/"
    client = api(staff_actor.user)
    response = client.post(url, {"code": shown(alice.checkin_code)}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == alice.pk and body["name"] == alice.name and body["checked_in"] is True
    assert body["already_checked_in"] is False and body["checked_in_by"] == "organiser"
    again = client.post(url, {"code": alice.checkin_code}, format="json").json()
    assert again["already_checked_in"] is True and again["checked_in_at"] == body["checked_in_at"]

    wrong = client.post(url, {"code": "ZZZZ-ZZZZ-ZZZZ"}, format="json")
    assert wrong.status_code == 404 and wrong.json()["code"] == "check_in_code_unknown"
    other = players(open_event(staff_actor, name="Ailleurs"), 1)[0]
    elsewhere = client.post(url, {"code": other.checkin_code}, format="json")
    assert elsewhere.status_code == 404 and elsewhere.json()["code"] == "check_in_code_other_event"
    assert client.post(url, {}, format="json").status_code == 400
    assert client.post("/api/v1/tournaments/nowhere/check-in/", {"code": "x"},
                       format="json").status_code == 404
    outsider = api(user("bob"))
    assert outsider.post(url, {"code": alice.checkin_code}, format="json").status_code == 403
    assert api().post(url, {"code": alice.checkin_code}, format="json").status_code == 401


# --- the organisers' page ------------------------------------------------------------------------

def desk(client, staff_actor):
    """The organiser at the door, with the admin's permissions."""
    staff_actor.user.is_superuser = True
    staff_actor.user.save(update_fields=["is_superuser"])
    client.force_login(staff_actor.user)
    return client


def test_staff_page_checks_in_by_code_and_says_what_happened(client, staff_actor, event):
    alice, bob = players(event, 2)
    desk(client, staff_actor)
    url = reverse("admin:league_tournament_check_in", args=[event.pk])
    page = text(client.get(url))
    assert 'name="code"' in page and "autofocus" in page and "2 missing" in page
    done = client.post(url, {"code": alice.checkin_code.lower()}, follow=True)
    assert done.redirect_chain[-1][0] == url
    assert f"{alice.name} is checked in." in text(done)
    again = text(client.post(url, {"code": alice.checkin_code}, follow=True))
    assert f"{alice.name} was already checked in (" in again and "by organiser" in again
    wrong = text(client.post(url, {"code": "pas un code"}, follow=True))
    assert "This is not a check-in code" in wrong
    by_name = text(client.post(url, {"player": bob.pk}, follow=True))
    assert f"{bob.name} is checked in." in by_name and "Everybody is here" in by_name


def test_the_link_of_a_players_qr_code_fills_the_field(client, staff_actor, event):
    alice = players(event, 1)[0]
    desk(client, staff_actor)
    url = reverse("admin:league_tournament_check_in", args=[event.pk])
    page = text(client.get(f"{url}?code={alice.checkin_code}"))
    assert f'value="{alice.checkin_code}"' in page
    alice.refresh_from_db()
    assert not alice.checked_in  # opening the link checks nobody in: the button does


def test_staff_open_and_close_self_check_in_with_a_venue_qr_code(client, staff_actor, event):
    desk(client, staff_actor)
    url = reverse("admin:league_tournament_check_in", args=[event.pk])
    window_url = reverse("admin:league_tournament_check_in_window", args=[event.pk])
    assert "Open self check-in" in text(client.get(url))
    assert client.get(window_url).status_code == 405
    opened = text(client.post(window_url, {"window": "open"}, follow=True))
    token = checkin.window(event).token
    assert 'svg role="img"' in opened
    assert f"/tournaments/{event.slug}/check-in/?venue={token}" in opened
    closed = text(client.post(window_url, {"window": "close"}, follow=True))
    assert "Self check-in is closed." in closed and 'svg role="img"' not in closed


def test_the_page_is_for_staff_only(client, event):
    url = reverse("admin:league_tournament_check_in", args=[event.pk])
    client.force_login(user("bob"))
    assert client.get(url).status_code == 302  # to the admin's log-in


def test_cockpit_lists_who_is_missing(admin_client, staff_actor, event):
    here, gone, waited = players(event, 3)
    checkin.check_in_player(staff_actor, here)
    tournaments.update_player(staff_actor, gone, dropped=True)
    page = text(admin_client.get(reverse("admin:league_tournament_change", args=[event.pk])))
    assert "1 player missing:" in page and waited.name in page
    assert reverse("admin:league_tournament_check_in", args=[event.pk]) in page


@pytest.mark.parametrize("size", [5, 40])
def test_staff_page_queries_do_not_grow(client, staff_actor, size, django_assert_num_queries):
    event = open_event(staff_actor, name=f"Tournoi {size}")
    players(event, size)
    checkin.open_window(staff_actor, event)
    desk(client, staff_actor)
    url = reverse("admin:league_tournament_check_in", args=[event.pk])
    # session, user, event, counts, window, missing players
    with django_assert_num_queries(6):
        page = text(client.get(url))
    assert page.count('name="player"') == size


# --- the player's side ---------------------------------------------------------------------------

def test_my_event_page_and_profile_show_my_code_and_qr_code(client, event):
    account = user("alice")
    me = tournaments.register_player(Actor(user=account), event, name="Alice")
    client.force_login(account)
    code = shown(me.checkin_code)
    for url in (reverse("tournament", args=[event.slug]), reverse("profile")):
        page = text(client.get(url))
        assert code in page and '<svg role="img"' in page, url
        assert f"QR code of your check-in code {code}" in page
    checkin.check_in_player(organiser("door"), me)
    page = text(client.get(reverse("tournament", args=[event.slug])))
    assert code not in page and "You are checked in (" in page


def test_the_qr_code_holds_the_desk_link_with_the_code():
    from venue.templatetags.checkin_tags import staff_link

    class Request:
        @staticmethod
        def build_absolute_uri(path):
            return f"https://muster.example{path}"

    player = Player(tournament_id=7, checkin_code="ABCD2345EFGH")
    link = staff_link(Request, player)
    assert link == "https://muster.example/admin/league/tournament/7/check-in/?code=ABCD2345EFGH"
    assert read_code(link) == "ABCD2345EFGH"


def test_a_png_of_the_qr_code_for_e_mails():
    from venue.qr import qr_png

    assert qr_png("https://muster.example/x").startswith(b"\x89PNG\r\n")


def test_no_code_once_dropped_or_finished(client, staff_actor, event):
    account = user("alice")
    me = tournaments.register_player(Actor(user=account), event, name="Alice")
    client.force_login(account)
    assert shown(me.checkin_code) in text(client.get(reverse("profile")))
    tournaments.update_player(staff_actor, me, dropped=True)
    assert shown(me.checkin_code) not in text(client.get(reverse("profile")))
    tournaments.update_player(staff_actor, me, dropped=False)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    assert shown(me.checkin_code) not in text(client.get(reverse("profile")))


def test_self_check_in_page(client, staff_actor, event):
    account = user("alice")
    tournaments.register_player(Actor(user=account), event, name="Alice")
    url = reverse("self_check_in", args=[event.slug])
    anonymous = client.get(f"{url}?venue=abc")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    client.force_login(account)
    closed = text(client.get(f"{url}?venue=abc"))
    assert "Self check-in is not open" in closed and "Check me in" not in closed
    token = checkin.open_window(staff_actor, event).token
    page = text(client.get(f"{url}?venue={token}"))
    assert "Check me in" in page and Player.objects.get(user=account).checked_in is False
    done = client.post(url, {"venue": token}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("tournament", args=[event.slug])
    assert "You are checked in, Alice." in text(done)
    assert "you are checked in" in text(client.get(f"{url}?venue={token}"))
    refused = client.post(url, {"venue": "old"}, follow=True)
    assert "Self check-in is not open" in text(refused)


def test_self_check_in_page_for_someone_not_registered(client, staff_actor, event):
    token = checkin.open_window(staff_actor, event).token
    client.force_login(user("zoe"))
    page = text(client.get(reverse("self_check_in", args=[event.slug]) + f"?venue={token}"))
    assert "You are not registered for this event." in page and "Check me in" not in page


@pytest.mark.parametrize("size", [5, 40])
def test_self_check_in_page_queries_do_not_grow(client, staff_actor, size, django_assert_num_queries):
    event = open_event(staff_actor, name=f"Ligue {size}")
    players(event, size)
    account = user("alice")
    tournaments.register_player(Actor(user=account), event, name="Alice")
    token = checkin.open_window(staff_actor, event).token
    client.force_login(account)
    url = reverse("self_check_in", args=[event.slug]) + f"?venue={token}"
    # session, user, event, my registration, the window
    with django_assert_num_queries(5):
        assert "Check me in" in text(client.get(url))


def test_an_account_only_checks_in_its_own_registration(client, staff_actor, event):
    alice, bob = user("alice"), user("bob")
    tournaments.register_player(Actor(user=alice), event, name="Alice")
    tournaments.register_player(Actor(user=bob), event, name="Bob")
    token = checkin.open_window(staff_actor, event).token
    client.force_login(alice)
    client.post(reverse("self_check_in", args=[event.slug]), {"venue": token})
    assert dict(event.players.values_list("name", "checked_in")) == {"Alice": True, "Bob": False}
