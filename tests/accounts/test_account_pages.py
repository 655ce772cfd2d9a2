"""Account pages: password reset, profile (my events and games), the remembered language, and
the error pages in both languages (the 500 page without the database)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.db import OperationalError, connection
from django.shortcuts import resolve_url
from django.test import Client, override_settings
from django.urls import include, path, reverse

from accounts.models import Profile
from config import urls as project_urls
from config.mail import email_settings
from events.audit import Actor
from events.models import AuditEntry, Game, Player, Round
from events.services import results, tournaments
from tests.browser.events import lock_and_pair, open_event, register, user

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
NEW_PASSWORD = "a-brand-new-pass-9876"
COOKIE = django_settings.LANGUAGE_COOKIE_NAME


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def alice():
    return user("alice")


# --- password reset ----------------------------------------------------------------------------

def without_csrf(page: str) -> str:
    """The page with its CSRF token blanked (masked anew on every response)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def reset_link(message) -> str:
    match = re.search(r"http://testserver(/password-reset/[^/\s]+/[^/\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_login_page_links_to_the_reset_form_which_labels_its_input(client):
    assert reverse("password_reset") in text(client.get(reverse("login")))
    form = text(client.get(reverse("password_reset")))
    assert '<label for="id_email">' in form and 'id="id_email"' in form


def test_reset_flow_end_to_end(client, alice, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.org"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.org"] and "alice" in message.body
    assert "\n" not in message.subject and message.subject
    link = reset_link(message)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'name="new_password1"' in text(form)
    assert '<label for="id_new_password1">' in text(form)
    done = client.post(form.redirect_chain[-1][0],
                       {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # The link works once.
    assert "name=\"new_password1\"" not in text(client.get(link, follow=True))
    fresh = Client()
    assert fresh.post(reverse("login"), {"username": "alice", "password": "player-pass-1234"}
                      ).status_code == 200  # the old password is refused
    logged = fresh.post(reverse("login"), {"username": "alice", "password": NEW_PASSWORD})
    assert logged.status_code == 302 and "_auth_user_id" in fresh.session


def test_unknown_address_gets_the_same_done_page_and_no_mail(client, alice, mailoutbox):
    known = client.post(reverse("password_reset"), {"email": "alice@example.org"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain
    assert without_csrf(text(known)) == without_csrf(text(unknown))
    assert [m.to for m in mailoutbox] == [["alice@example.org"]]


def test_reset_requests_are_limited_per_address(client, alice, settings, mailoutbox):
    settings.MUSTER_RATE_LIMITS = "password_reset_email=2/hour"
    codes = [client.post(reverse("password_reset"), {"email": email}).status_code
             for email in ("alice@example.org", "Alice@Example.org", "alice@example.org")]
    assert codes == [302, 302, 429]
    assert len(mailoutbox) == 2
    limited = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert limited.status_code == 429
    page = text(limited)
    assert "Too many password-reset requests" in page and 'name="email"' in page
    # Unknown addresses are limited the same way, so the limit tells nothing about accounts.
    unknown = [client.post(reverse("password_reset"), {"email": "ghost@example.org"}).status_code
               for _ in range(3)]
    assert unknown == [302, 302, 429]


def test_reset_requests_are_limited_per_ip(client, alice, settings, mailoutbox):
    settings.MUSTER_RATE_LIMITS = "password_reset=3/hour"
    codes = [client.post(reverse("password_reset"), {"email": email}).status_code
             for email in ("not-an-address", "a@example.org", "b@example.org",
                           "alice@example.org")]
    assert codes == [200, 302, 302, 429]
    assert mailoutbox == []
    other_ip = client.post(reverse("password_reset"), {"email": "alice@example.org"},
                           REMOTE_ADDR="10.0.0.9")
    assert other_ip.status_code == 302 and len(mailoutbox) == 1


def test_reset_form_in_french(client):
    page = text(client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE="fr"))
    assert '<html lang="fr">' in page and "Adresse e-mail" in page


# --- EMAIL_URL ---------------------------------------------------------------------------------

def test_email_url_parsing():
    assert email_settings("") == {} and email_settings("  ") == {}
    smtp = email_settings("smtp+tls://user%40club:p%3Ass%2Fw@mail.example.org:587")
    assert smtp == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org", "EMAIL_PORT": 587, "EMAIL_HOST_USER": "user@club",
        "EMAIL_HOST_PASSWORD": "p:ss/w", "EMAIL_USE_TLS": True,
    }
    ssl = email_settings("smtp+ssl://mail.example.org:465")
    assert ssl["EMAIL_USE_SSL"] is True and "EMAIL_USE_TLS" not in ssl
    assert "EMAIL_HOST_USER" not in ssl  # Django's default (no log-in) stays
    assert email_settings("consolemail://")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    with pytest.raises(ImproperlyConfigured):
        email_settings("carrier-pigeon://loft")


def test_email_url_overrides_the_settings():
    env = {"EMAIL_URL": "smtp+tls://muster:secret@mail.example.org:2525",
           "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
           "PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "manage.py", "diffsettings", "--all"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "EMAIL_BACKEND = 'django.core.mail.backends.smtp.EmailBackend'" in out
    assert "EMAIL_HOST = 'mail.example.org'" in out and "EMAIL_PORT = 2525" in out
    assert "EMAIL_USE_TLS = True" in out and "EMAIL_HOST_USER = 'muster'" in out


# --- profile -----------------------------------------------------------------------------------

def test_profile_requires_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('profile')}"


def _game(round_: Round, table: int | None, a: Player, b: Player | None) -> Game:
    return Game.objects.create(round=round_, table=table, player_a=a, player_b=b)


def test_profile_shows_my_events_and_games_only(client, staff_actor, alice):
    bob, carol = user("bob"), user("carol")
    event = open_event(staff_actor, name="Ligue de Lyon")
    me, opponent, other, fourth = (Player.objects.create(tournament=event, user=account, name=name)
                                   for account, name in ((alice, "Alice A."), (bob, "Bob B."),
                                                         (carol, "Carol C."), (None, "Dan D.")))
    first = Round.objects.create(tournament=event, number=1, status=Round.Status.COMPLETED)
    second = Round.objects.create(tournament=event, number=2, status=Round.Status.PUBLISHED)
    draft = Round.objects.create(tournament=event, number=3, status=Round.Status.DRAFT)
    played = _game(first, 4, me, opponent)
    bye = _game(second, None, me, None)
    hidden = _game(draft, 1, opponent, me)
    theirs = _game(second, 2, other, fourth)
    secret = tournaments.create_tournament(staff_actor, name="Brouillon secret", chart=event.chart,
                                           points_limit=500, level=event.level, rounds=1)
    Player.objects.create(tournament=secret, user=alice, name="Alice")
    bobs = open_event(staff_actor, name="Tournoi de Bob")
    Player.objects.create(tournament=bobs, user=bob, name="Bob")

    client.force_login(alice)
    page = text(client.get(reverse("profile")))
    assert "alice@example.org" in page and ">alice<" in page
    assert reverse("password_change") in page
    assert reverse("tournament", args=[event.slug]) in page and "registration open" in page
    assert reverse("player_list", args=[event.slug, me.pk]) in page
    assert reverse("game", args=[played.pk]) in page and "Bob B." in page
    assert reverse("game", args=[bye.pk]) in page and "bye" in page
    for absent in (reverse("game", args=[hidden.pk]), reverse("game", args=[theirs.pk]),
                   "Carol C.", secret.name, bobs.name, reverse("tournament", args=[bobs.slug])):
        assert absent not in page
    assert page.index(reverse("game", args=[played.pk])) < page.index(reverse("game", args=[bye.pk]))


@pytest.fixture
def in_play(staff_actor, alice):
    """A running event whose round 1 is in play: Alice against Bob; returns (game, bob)."""
    bob = user("bob")
    event = open_event(staff_actor, name="Ligue en cours")
    for account, name in ((alice, "Alice"), (bob, "Bob")):
        register(event, account, name)
    game = lock_and_pair(staff_actor, event).games.get()
    return game, bob


def log_in(client, account) -> str:
    response = client.post(reverse("login"), {"username": account.username,
                                              "password": "player-pass-1234"})
    assert response.status_code == 302
    return response.url


def test_profile_says_what_waits_for_me(client, alice, in_play):
    game, bob = in_play
    client.force_login(alice)
    page = text(client.get(reverse("profile")))
    waiting = page[page.index('id="waiting-title"'):page.index('id="events-title"')]
    assert "Report the result of your game against Bob" in waiting
    assert f'href="{reverse("game", args=[game.pk])}"' in waiting
    results.report(Actor(user=bob), game.pk, results.ResultInput(winner=None))
    page = text(client.get(reverse("profile")))
    assert "Confirm or dispute the result Bob reported" in page
    client.force_login(bob)  # the reporter waits for Alice: nothing for him to do
    assert 'id="waiting-title"' not in text(client.get(reverse("profile")))


def test_log_in_during_an_event_lands_on_the_current_game(client, alice, in_play):
    game, bob = in_play
    game_url = reverse("game", args=[game.pk])
    assert log_in(client, alice) == game_url
    client.logout()
    response = client.post(f"{reverse('login')}?next={reverse('profile')}",
                           {"username": "alice", "password": "player-pass-1234"})
    assert response.url == reverse("profile")  # an explicit next wins
    client.logout()
    results.report(Actor(user=bob), game.pk, results.ResultInput(winner=None))
    assert log_in(client, alice) == game_url  # a confirmation waits there
    results.confirm(Actor(user=alice), game.pk)
    client.logout()
    assert log_in(client, alice) == resolve_url(django_settings.LOGIN_REDIRECT_URL)


def test_log_in_outside_an_event_goes_where_it_did(client, alice):
    assert log_in(client, alice) == resolve_url(django_settings.LOGIN_REDIRECT_URL)


def test_profile_without_events_invites_to_the_home_page(client, alice):
    client.force_login(alice)
    page = text(client.get(reverse("profile")))
    assert "You are not registered for any event yet." in page


def test_nav_links_to_the_profile_when_signed_in(client, alice):
    assert reverse("profile") not in text(client.get(reverse("home")))
    client.force_login(alice)
    assert f'href="{reverse("profile")}"' in text(client.get(reverse("home")))


def test_email_change_is_validated_and_audited(client, alice):
    client.force_login(alice)
    bad = client.post(reverse("profile"), {"email": "not-an-address", "language": ""})
    assert bad.status_code == 200 and 'class="errorlist' in text(bad)
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert client.post(reverse("profile"), {"email": "", "language": ""}).status_code == 200
    good = client.post(reverse("profile"), {"email": "alice@club.example", "language": ""})
    assert good.status_code == 302 and good.url == reverse("profile")
    alice.refresh_from_db()
    assert alice.email == "alice@club.example"
    entry = AuditEntry.objects.get(action="account.email")
    assert entry.actor == alice and "example" not in str(entry.data)
    assert "Your profile is saved." in text(client.get(reverse("profile")))


def test_unknown_language_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("profile"), {"email": alice.email, "language": "de"})
    assert response.status_code == 200 and 'class="errorlist' in text(response)
    assert not Profile.objects.filter(user=alice).exists()


def test_language_saved_on_profile_applies_at_next_log_in(client, alice):
    client.force_login(alice)
    saved = client.post(reverse("profile"), {"email": alice.email, "language": "fr"})
    assert saved.cookies[COOKIE].value == "fr"
    assert Profile.objects.get(user=alice).language == "fr"
    # Another browser, asking for English: the account's French wins once signed in.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "Se connecter" not in text(other.get(reverse("login")))
    response = other.post(reverse("login"), {"username": "alice", "password": "player-pass-1234"},
                          follow=True)
    assert response.redirect_chain[-1][1] == 302
    assert other.cookies[COOKIE].value == "fr"
    assert "Se déconnecter" in text(response) and '<html lang="fr">' in text(response)


def test_log_in_without_a_preference_keeps_the_browser_language(alice):
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = browser.post(reverse("login"), {"username": "alice", "password": "player-pass-1234"})
    assert response.status_code == 302 and COOKIE not in response.cookies


def test_header_language_switch_updates_the_account(client, alice):
    anonymous = client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert anonymous.status_code == 302 and anonymous.cookies[COOKIE].value == "fr"
    assert not Profile.objects.exists()
    assert reverse("set_language") == "/i18n/setlang/"
    client.force_login(alice)
    switched = client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert switched.status_code == 302 and Profile.objects.get(user=alice).language == "fr"
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert Profile.objects.get(user=alice).language == "fr"
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert Profile.objects.get(user=alice).language == "en"
    page = text(client.get(reverse("profile")))
    assert '<option value="en" selected>' in page


def test_password_change_from_the_profile(client, alice):
    assert client.get(reverse("password_change")).status_code == 302  # signed out: log in first
    client.force_login(alice)
    form = text(client.get(reverse("password_change")))
    for field in ("old_password", "new_password1", "new_password2"):
        assert f'<label for="id_{field}">' in form
    wrong = client.post(reverse("password_change"), {"old_password": "nope",
                        "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200
    done = client.post(reverse("password_change"), {"old_password": "player-pass-1234",
                       "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("password_change_done")
    assert reverse("profile") in text(done)
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def _season(staff_actor, account, events: int, rounds: int) -> int:
    """``events`` events where ``account`` plays every round; returns the number of games."""
    for index in range(events):
        event = open_event(staff_actor, name=f"Saison {index}")
        me = Player.objects.create(tournament=event, user=account, name="Moi")
        foes = Player.objects.bulk_create(
            [Player(tournament=event, name=f"Adversaire {n}") for n in range(rounds)])
        for number, foe in enumerate(foes, start=1):
            round_ = Round.objects.create(tournament=event, number=number,
                                          status=Round.Status.PUBLISHED)
            _game(round_, number, me, foe)
    return events * rounds


@pytest.mark.parametrize(("events", "rounds"), [(1, 1), (4, 3)])
def test_profile_queries_do_not_grow_with_events_and_games(client, staff_actor, alice, events, rounds,
                                                           django_assert_max_num_queries):
    games = _season(staff_actor, alice, events, rounds)
    client.force_login(alice)
    # session, user, profile, my registrations, my games, my circuits
    with django_assert_max_num_queries(6):
        page = text(client.get(reverse("profile")))
    waiting, listed = page.split('id="events-title"')
    assert listed.count('href="/games/') == games
    assert waiting.count("Report the result of your game against") == games  # all in play
    assert page.count('<article class="my-event">') == events


# --- error pages -------------------------------------------------------------------------------

def _explode(request):
    raise OperationalError("the database is down")


def _forbidden(request):
    raise PermissionDenied


# This module is also the URLconf of the error-page tests: the project's URLs plus two that fail.
urlpatterns = [
    path("test-errors/boom/", _explode),
    path("test-errors/forbidden/", _forbidden),
    path("", include(project_urls)),
]
handler403 = project_urls.handler403
handler404 = project_urls.handler404
handler500 = project_urls.handler500

ERRORS = {
    404: ("/test-errors/missing/", {"en": "This page does not exist.",
                                    "fr": "Cette page n&#x27;existe pas."}),
    403: ("/test-errors/forbidden/", {"en": "You may not see this page.",
                                      "fr": "Vous n&#x27;avez pas accès à cette page."}),
    500: ("/test-errors/boom/", {"en": "Something went wrong on our side.",
                                 "fr": "Une erreur s&#x27;est produite de notre côté."}),
}
HOME_LINK = {"en": "Back to the home page", "fr": "Retour à l'accueil"}


def _fail_every_query(execute, sql, params, many, context):
    raise OperationalError("the database is down")


@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
@pytest.mark.parametrize("status", [404, 403, 500])
@pytest.mark.parametrize(("language", "how"), [("en", "header"), ("fr", "header"),
                                               ("fr", "cookie")])
def test_error_pages_are_friendly_in_both_languages(status, language, how):
    url, details = ERRORS[status]
    browser = Client(raise_request_exception=False)
    if how == "cookie":
        browser.cookies[COOKIE] = language
        response = browser.get(url, HTTP_ACCEPT_LANGUAGE="en")
    else:
        response = browser.get(url, HTTP_ACCEPT_LANGUAGE=language)
    page = text(response)
    assert response.status_code == status
    assert details[language] in page and HOME_LINK[language] in page
    assert f'<html lang="{language}">' in page and 'href="/"' in page


@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_server_error_page_renders_with_the_database_down(alice, django_assert_num_queries):
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="fr")
    browser.force_login(alice)  # a signed-in visitor: the page must not load the session
    with django_assert_num_queries(0), connection.execute_wrapper(_fail_every_query):
        response = browser.get("/test-errors/boom/")
    assert response.status_code == 500
    assert ERRORS[500][1]["fr"] in text(response) and HOME_LINK["fr"] in text(response)
