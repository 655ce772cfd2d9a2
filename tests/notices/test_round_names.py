"""The players' e-mails name a round as the event's format does (events.formats.round_name): a
league's game is of "week 2", another event's of "round 1", in each reader's language; and the
league's "week open" notice has a readable kind in the admin."""
from __future__ import annotations

import pytest
from django.utils import translation

from accounts.models import Profile
from events.audit import Actor
from events.services import results
from notices.models import Notice
from tests.browser.events import open_event, register, user
from tests.leagues.league_fixtures import build_league, ids, report_game
from tests.notices.test_notices import by_address, publish, two_player_game
from tests.tournament_fixtures import expect

pytestmark = pytest.mark.django_db


def in_language(user, language: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": language})


@pytest.mark.parametrize(("language", "where", "title"), [
    ("en", "Week 2, table 1, against Player 0.", "Week 2: Player 0 reported your result"),
    ("fr", "Semaine 2, table 1, contre Player 0.",
     "Semaine 2\u00a0: Player 0 a déclaré votre résultat"),
])
def test_a_league_games_result_e_mail_names_its_week(staff_user, mailoutbox, language, where,
                                                     title, django_capture_on_commit_callbacks):
    event = build_league(staff_user, players=2)  # week 2 is open now
    first, second = ids(event)
    for account in event.users.values():
        account.email = f"{account.username}@example.org"
        account.save(update_fields=["email"])
        in_language(account, language)
    with django_capture_on_commit_callbacks(execute=True):
        expect(report_game(event, first, second, 2, first), 201)
    (message,) = mailoutbox
    assert message.to == [event.users[second].email]
    assert where in message.body and title in message.subject
    assert "Round" not in message.body and "Ronde" not in message.body


@pytest.mark.parametrize(("language", "where", "title"), [
    ("en", "Round 1, table 1, against Alice.", "Round 1: Alice reported your result"),
    ("fr", "Ronde 1, table 1, contre Alice.", "Ronde 1\u00a0: Alice a déclaré votre résultat"),
])
def test_another_events_result_e_mail_still_names_its_round(staff_actor, mailoutbox, language,
                                                            where, title,
                                                            django_capture_on_commit_callbacks):
    game, a, b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    in_language(b.user, language)
    mailoutbox.clear()
    content = results.ResultInput(winner=a.pk, victory_points={a.pk: 12, b.pk: 5})
    with django_capture_on_commit_callbacks(execute=True):
        results.report(Actor(user=a.user), game.pk, content)
    (message,) = mailoutbox
    assert where in message.body and title in message.subject


def test_a_published_round_is_named_and_elided_in_the_e_mail(staff_actor, mailoutbox,
                                                             django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Automne", language="fr")
    for name in ("Alice", "Bob"):
        register(event, user(name.lower()), name)
    publish(staff_actor, event, django_capture_on_commit_callbacks)
    body = by_address(mailoutbox)["alice@example.org"].body
    assert "Ronde 1 d'Automne est publiée." in body and "de Automne" not in body


def test_the_league_week_notice_has_a_readable_kind():
    notice = Notice(kind=Notice.Kind.LEAGUE_WEEK_OPEN)
    assert Notice.Kind.LEAGUE_WEEK_OPEN == "league_week_open"
    with translation.override("fr"):
        assert notice.get_kind_display() == "semaine de ligue ouverte"
    with translation.override("en"):
        assert notice.get_kind_display() == "league week open"
