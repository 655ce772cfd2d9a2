"""E-mail notices: a round published, an opponent's report, a dispute settled, lists locked.

Sent after the commit through the task queue (eager here, the real worker in CI), in the
recipient's language, once per event and recipient (the task delivered twice sends once), to
players with an account and an address who did not turn them off."""
from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.urls import reverse

from accounts.models import Profile
from events.audit import Actor
from events.models import AuditEntry, Game, Player, Round, Tournament
from events.services import results, rounds, tournaments
from notices import services as notices
from notices import tasks
from notices.models import Notice
from tests.browser.events import open_event, organiser, register, system_event, user

pytestmark = pytest.mark.django_db
Kind = Notice.Kind


def by_address(outbox) -> dict[str, mail.EmailMessage]:
    found = {}
    for message in outbox:
        (address,) = message.to
        assert address not in found, f"two e-mails to {address}"
        found[address] = message
    return found


def game_link(game: Game) -> str:
    return f"{settings.SITE_URL}{reverse('game', args=[game.pk])}"


def four_players(event: Tournament) -> list[Player]:
    """Alice, Bob, Carol (accounts with addresses) and a walk-in without account."""
    players = [register(event, user(name.lower()), name) for name in ("Alice", "Bob", "Carol")]
    players.append(tournaments.register_player(organiser("desk"), event, name="Walk-in"))
    return players


def publish(staff_actor: Actor, event: Tournament, capture) -> Round:
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    with capture(execute=True):
        return rounds.pair_next_round(staff_actor, event)


# --- a round published ---------------------------------------------------------------------------

def test_each_player_gets_their_table_opponent_and_mission(staff_actor, mailoutbox,
                                                          django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Cité en flammes", language="en")
    four_players(event)
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    mailoutbox.clear()  # the lists-locked notices
    with django_capture_on_commit_callbacks(execute=True):
        round_ = rounds.pair_next_round(staff_actor, event)
    sent = by_address(mailoutbox)
    assert set(sent) == {"alice@example.org", "bob@example.org", "carol@example.org"}
    for game in round_.games.select_related("player_a__user", "player_b__user", "mission"):
        sides = [(game.player_a, game.player_b), (game.player_b, game.player_a)]
        for me, them in sides:
            if me is None or me.user is None:
                continue
            message = sent[me.user.email]
            assert message.subject.startswith("[Cité en flammes] Round 1")
            assert "\n" not in message.subject
            assert game_link(game) in message.body
            assert f"Mission: {game.mission.name}" in message.body
            assert f"table {game.table}, against {them.name}" in message.body
            assert f"{settings.SITE_URL}{reverse('profile')}" in message.body  # how to opt out
            assert message.body == message.body.strip() and "<" not in message.body  # plain text
    assert Notice.objects.filter(kind=Kind.ROUND_PUBLISHED, status=Notice.Status.SENT).count() == 3


def test_a_draft_round_is_announced_when_it_is_published(staff_actor, mailoutbox,
                                                         django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    four_players(event)
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.pair_next_round(staff_actor, event, draft=True)
    assert mailoutbox == []
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(staff_actor, event, 1)
    assert len(mailoutbox) == 3


def test_the_task_delivered_twice_sends_once(staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    four_players(event)
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    round_.refresh_from_db()
    first = len(mailoutbox)
    assert first == 3
    again = tasks.send_notices.apply(
        args=[Kind.ROUND_PUBLISHED, round_.pk, notices.stamp_of(round_.published_at)]).get()
    assert again == {"sent": 0, "skipped": 3, "failed": 0}
    assert len(mailoutbox) == first
    assert Notice.objects.filter(kind=Kind.ROUND_PUBLISHED).count() == 3


def test_a_round_paired_again_is_a_new_notice(staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    four_players(event)
    publish(staff_actor, event, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.repair_published_round(staff_actor, event, 1, "1")
    assert len(mailoutbox) == 3
    assert Notice.objects.filter(kind=Kind.ROUND_PUBLISHED).count() == 6


def test_an_older_publication_is_not_sent_after_a_newer_one(staff_actor, mailoutbox,
                                                            django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    four_players(event)
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    stale = "1"  # a stamp that is not the round's publication any more
    assert notices.send(Kind.ROUND_PUBLISHED, round_.pk, stale).as_dict() == {
        "sent": 0, "skipped": 0, "failed": 0}


def test_nothing_is_sent_when_the_action_is_rolled_back(staff_actor, mailoutbox,
                                                        django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    four_players(event)
    with (django_capture_on_commit_callbacks(execute=True) as callbacks,
          pytest.raises(RuntimeError), transaction.atomic()):
        tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
        raise RuntimeError("a later step of the same action fails")
    assert callbacks == [] and mailoutbox == []
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.REGISTRATION_OPEN


def test_a_scenario_round_of_another_system(staff_actor, mailoutbox, django_capture_on_commit_callbacks):
    event = system_event(staff_actor, "whfb", "whfb-open", "Bataille de Nuln", points_limit=2000, language="en",
                         scoring={"mode": "vp_table", "preset": "oms-2011"})
    for name in ("Anna", "Boris"):
        tournaments.register_player(Actor(user=user(name.lower())), event, name=name)
    event = tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff_actor, event, draft=True)
    rounds.set_scenario(staff_actor, event, 1, "Hold the bridge\nuntil turn 6")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(staff_actor, event, 1)
    assert len(mailoutbox) == 2
    for message in mailoutbox:
        assert "Mission:" not in message.body
        assert "Scenario:\nHold the bridge\nuntil turn 6" in message.body


# --- the recipient: language, opt-out, no account or no address ---------------------------------

def test_each_recipient_reads_their_own_language(staff_actor, mailoutbox,
                                                 django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    players = four_players(event)
    Profile.objects.create(user=players[0].user, language="fr")
    Profile.objects.create(user=players[1].user, language="en")
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    sent = by_address(mailoutbox[-3:])
    games = {pid: g for g in round_.games.select_related("mission") for pid in g.player_ids}
    mission = games[players[0].pk].mission
    assert f": {mission.name_fr}" in sent["alice@example.org"].body
    assert f": {games[players[1].pk].mission.name_en}" in sent["bob@example.org"].body
    languages = dict(Notice.objects.filter(kind=Kind.ROUND_PUBLISHED)
                     .values_list("recipient__username", "language"))
    # No preference: the event's language.
    assert languages == {"alice": "fr", "bob": "en", "carol": "en"}


def test_without_preference_the_events_language(staff_actor, mailoutbox,
                                                django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="fr")
    players = four_players(event)
    round_ = publish(staff_actor, event, django_capture_on_commit_callbacks)
    mission = next(g for g in round_.games.all() if players[2].pk in g.player_ids).mission
    assert f": {mission.name_fr}" in by_address(mailoutbox[-3:])["carol@example.org"].body


def test_players_who_turned_notices_off_get_none(staff_actor, client, mailoutbox,
                                                 django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    players = four_players(event)
    bob = players[1].user
    client.force_login(bob)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="notices"' in page and "checked" in re.search(r'<input[^>]*name="notices"[^>]*>', page).group(0)
    response = client.post(reverse("profile"), {"email": bob.email, "language": "", "notices": ""})
    assert response.status_code == 302
    assert Profile.objects.get(user=bob).notices is False
    assert AuditEntry.objects.filter(action="account.notices", actor=bob).exists()
    page = client.get(reverse("profile")).content.decode()
    assert "checked" not in re.search(r'<input[^>]*name="notices"[^>]*>', page).group(0)
    publish(staff_actor, event, django_capture_on_commit_callbacks)
    assert "bob@example.org" not in {m.to[0] for m in mailoutbox}
    assert not Notice.objects.filter(recipient=bob).exists()
    client.post(reverse("profile"), {"email": bob.email, "language": "", "notices": "on"})
    assert Profile.objects.get(user=bob).notices is True


def test_an_account_without_address_is_skipped(staff_actor, mailoutbox,
                                               django_capture_on_commit_callbacks):
    event = open_event(staff_actor, language="en")
    players = four_players(event)
    get_user_model().objects.filter(pk=players[2].user_id).update(email="")
    publish(staff_actor, event, django_capture_on_commit_callbacks)
    assert "carol@example.org" not in {m.to[0] for m in mailoutbox}
    assert len(mailoutbox) == 2


# --- reports and disputes ---------------------------------------------------------------------------

def two_player_game(staff_actor, capture) -> tuple[Game, Player, Player]:
    event = open_event(staff_actor, name="Duel", language="en")
    a, b = (register(event, user(name.lower()), name) for name in ("Alice", "Bob"))
    round_ = publish(staff_actor, event, capture)
    return round_.games.get(), a, b


def test_the_opponent_is_told_to_confirm_or_dispute(staff_actor, mailoutbox,
                                                    django_capture_on_commit_callbacks):
    game, a, b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    content = results.ResultInput(winner=a.pk, victory_points={a.pk: 12, b.pk: 5})
    with django_capture_on_commit_callbacks(execute=True):
        results.report(Actor(user=a.user), game.pk, content)
    (message,) = mailoutbox
    assert message.to == ["bob@example.org"]
    assert "Alice reported" in message.subject
    assert "Confirm it or dispute it" in message.body and game_link(game) in message.body
    assert "Result: Alice won" in message.body
    assert re.search(r"Victory points: (Alice 12 – Bob 5|Bob 5 – Alice 12)\n", message.body)
    # Bob confirms: nobody is told anything more.
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm(Actor(user=b.user), game.pk)
    assert len(mailoutbox) == 1


def test_a_contradicting_report_says_the_game_is_disputed(staff_actor, mailoutbox,
                                                          django_capture_on_commit_callbacks):
    game, a, b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        results.report(Actor(user=b.user), game.pk, results.ResultInput(winner=b.pk))
    (message,) = mailoutbox
    assert message.to == ["alice@example.org"]
    assert "different result" in message.subject and "disputed" in message.body
    assert "Result: Bob won" in message.body


def test_the_same_result_from_both_players_needs_no_notice(staff_actor, mailoutbox,
                                                           django_capture_on_commit_callbacks):
    game, a, b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        results.report(Actor(user=b.user), game.pk, results.ResultInput(winner=a.pk))
    assert mailoutbox == []


def test_both_players_hear_that_a_dispute_is_settled(staff_actor, mailoutbox,
                                                     django_capture_on_commit_callbacks):
    game, a, b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    results.dispute(Actor(user=b.user), game.pk, "not what happened")
    mailoutbox.clear()
    settle = results.ResultInput(winner=None, victory_points={a.pk: 7, b.pk: 7})
    with django_capture_on_commit_callbacks(execute=True):
        results.report(staff_actor, game.pk, settle)
    sent = by_address(mailoutbox)
    assert set(sent) == {"alice@example.org", "bob@example.org"}
    for message in sent.values():
        assert "settled" in message.subject and "Result: a draw" in message.body
        assert game_link(game) in message.body


def test_a_staff_result_on_an_undisputed_game_is_no_settlement(staff_actor, mailoutbox,
                                                               django_capture_on_commit_callbacks):
    game, a, _b = two_player_game(staff_actor, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        results.report(staff_actor, game.pk, results.ResultInput(winner=a.pk))
    assert mailoutbox == []


# --- lists locked ------------------------------------------------------------------------------------

def test_locking_the_lists_tells_each_player_about_their_list(staff_actor, mailoutbox,
                                                             django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Verrou", language="en")
    alice = register(event, user("alice"), "Alice")
    bob = register(event, user("bob"), "Bob", units=None)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    sent = by_address(mailoutbox)
    assert set(sent) == {"alice@example.org", "bob@example.org"}
    assert sent["alice@example.org"].subject == "[Verrou] The lists are locked"
    assert "Your list is valid." in sent["alice@example.org"].body
    assert "You have not submitted a list" in sent["bob@example.org"].body
    link = settings.SITE_URL + reverse("player_list", args=[event.slug, alice.pk])
    assert link in sent["alice@example.org"].body
    assert bob.pk  # registered without a list, still told
    # Reopened and locked again: a new event, new e-mails.
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.transition(staff_actor, event, Tournament.Status.REGISTRATION_OPEN)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    assert len(mailoutbox) == 4


# --- failures ----------------------------------------------------------------------------------------

def test_a_failed_send_is_recorded_and_retried_once_it_works(staff_actor, mailoutbox, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    event = open_event(staff_actor, name="Panne", language="en")
    register(event, user("alice"), "Alice")

    def broken(self, *args, **kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr(mail.EmailMessage, "send", broken)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)
    notice = Notice.objects.get()
    assert notice.status == Notice.Status.FAILED and "mail server down" in notice.error
    monkeypatch.undo()
    outcome = notices.send(Kind.LISTS_LOCKED, event.pk, notice.key.split("@")[1])
    assert outcome.as_dict() == {"sent": 1, "skipped": 0, "failed": 0}
    assert Notice.objects.get().status == Notice.Status.SENT and len(mailoutbox) == 1


def test_a_claimed_notice_is_never_claimed_twice(staff_actor):
    event = open_event(staff_actor, language="en")
    account = user("alice")
    assert notices.claim(event.pk, account.pk, Kind.LISTS_LOCKED, "1@2") is not None
    assert notices.claim(event.pk, account.pk, Kind.LISTS_LOCKED, "1@2") is None
    assert notices.claim(event.pk, None, Kind.INVITATION, "3@4") is not None
    assert notices.claim(event.pk, None, Kind.INVITATION, "3@4") is None


def test_an_unknown_kind_is_an_error():
    with pytest.raises(ValueError):
        notices.send("telegram", 1)


# --- the real worker (CI) ------------------------------------------------------------------------

def wait_for_sent(count: int, timeout: float = 60) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = list(Notice.objects.values_list("status", flat=True))
        if len(statuses) >= count and all(s == Notice.Status.SENT for s in statuses):
            return statuses
        time.sleep(0.05)
    raise AssertionError(f"notices: {list(Notice.objects.values_list('status', flat=True))}")


@pytest.mark.worker
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_real_worker_sends_each_notice_once(celery_worker_process):
    staff_actor = organiser()
    event = open_event(staff_actor, name="Ouvrier", language="en")
    for name in ("Alice", "Bob", "Carol"):
        register(event, user(name.lower()), name)  # each registration is confirmed by e-mail
    wait_for_sent(3)
    tournaments.transition(staff_actor, event, Tournament.Status.LISTS_LOCKED)  # commits: queued
    wait_for_sent(6)
    round_ = rounds.pair_next_round(staff_actor, event)
    wait_for_sent(9)
    round_.refresh_from_db()
    # Delivered twice more, at once: the worker claims nothing new.
    stamp = notices.stamp_of(round_.published_at)
    first = tasks.send_notices.delay(Kind.ROUND_PUBLISHED, round_.pk, stamp)
    second = tasks.send_notices.delay(Kind.ROUND_PUBLISHED, round_.pk, stamp)
    assert first.get(timeout=60)["sent"] + second.get(timeout=60)["sent"] == 0
    assert Notice.objects.filter(kind=Kind.ROUND_PUBLISHED).count() == 3
    assert Notice.objects.filter(kind=Kind.LISTS_LOCKED).count() == 3
    assert Notice.objects.filter(kind=Kind.REGISTERED).count() == 3
