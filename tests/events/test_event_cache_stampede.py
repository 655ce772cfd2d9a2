"""A change does not make every reader rebuild the event page (issue #27): one process rebuilds
each section under its lock while the others serve the copy built just before, never an empty
page; a reader's own change and staff are never served a copy older than it; publishing a round
builds the sections once after the commit; without the cache everything still works.

The concurrent tests run on the configured database and cache: PostgreSQL and Redis when
DATABASE_URL and CACHE_URL point to them, else the SQLite file and the process's own cache (the
threads share it as they share Redis)."""
from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.dispatch import Signal
from django.test import Client, override_settings
from django.urls import reverse

from config import celery
from events import event_cache
from events.audit import Actor
from events.models import Game, Tournament
from events.services import results, rounds, tournaments
from events.views import event_sections
from tests.browser.events import open_event, organiser, register, user
from tests.site.own_redis import free_port

REPORTED = "reported, to be confirmed"
TRANSACTIONAL = pytest.mark.django_db(transaction=True, serialized_rollback=True)
BUILD_SECONDS = 0.4  # each section's build is this slow: every thread arrives while it runs


def make_event(name: str, staff: Actor | None = None) -> Tournament:
    """Four players with accounts, round 1 published, no result yet."""
    staff = staff or organiser()
    event = open_event(staff, name=name)
    for player in ("Alice", "Bob", "Chloé", "Dan"):
        register(event, user(player.casefold()), player)
    event = tournaments.transition(staff, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff, event)
    event.refresh_from_db()
    return event


class Renders:
    """Counts the sections rendered (``event_sections._Builder.render``), each ``delay`` slow."""

    def __init__(self) -> None:
        self.counted: Counter[str] = Counter()
        self.delay = 0.0
        self._lock = threading.Lock()

    @property
    def total(self) -> int:
        return sum(self.counted.values())

    def reset(self) -> None:
        self.counted.clear()


@pytest.fixture
def renders(monkeypatch) -> Renders:
    counter = Renders()
    real = event_sections._Builder.render

    def render(builder, section: str) -> str:
        with counter._lock:
            counter.counted[section] += 1
        time.sleep(counter.delay)
        return real(builder, section)

    monkeypatch.setattr(event_sections._Builder, "render", render)
    return counter


def page(event: Tournament, client: Client | None = None) -> str:
    response = (client or Client()).get(reverse("tournament", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def tables(html: str) -> str:
    """The shared list of the round's tables (the reader's own table is above it)."""
    return html.split('id="round-title"', 1)[1].split("</section>", 1)[0].split(
        'class="pairings">', 2)[-1]


def at_once(calls: list[Callable[[], str]]) -> list[str]:
    """Run ``calls`` in threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[str | None] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], str]) -> None:
        try:
            barrier.wait(timeout=30)
            answers[index] = call()
        except BaseException as exc:  # surfaced below: a crash in a thread fails the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return [answer for answer in answers if answer is not None]


def first_game(event: Tournament) -> Game:
    return Game.objects.filter(round__tournament=event).select_related(
        "player_a__user", "player_b__user").order_by("table").first()


def report_first_game(event: Tournament) -> Game:
    game = first_game(event)
    results.report(Actor(user=game.player_a.user), game.pk,
                   results.ResultInput(winner=game.player_a_id))
    return game


def shown_keys() -> list[str]:
    """The entries of the page an anonymous English reader sees first."""
    return list(event_sections.Shown(language="en", staff=False, asked=None, with_extras=True,
                                     tables_page=1, standings_page=1, players_page=1)
                .keys().values())


def held_elsewhere(event: Tournament, names: list[str]) -> None:
    """Another process is rebuilding ``names`` (it holds their locks)."""
    for name in names:
        assert cache.add(f"muster:event:{event.pk}:building:{name}", "elsewhere", 60)


# --- concurrent readers after a change ----------------------------------------------------------

@TRANSACTIONAL
def test_readers_after_a_change_rebuild_once_and_serve_the_copy_meanwhile(renders, monkeypatch):
    event = make_event("Ruée après le rapport")
    assert REPORTED not in tables(page(event))  # built and cached
    report_first_game(event)  # committed: the version moved on
    renders.reset()
    renders.delay = BUILD_SECONDS
    monkeypatch.setattr(event_cache, "STALE_SECONDS", 60.0)  # however slow this machine is
    answers = at_once([lambda: page(event)] * 6)
    assert renders.counted == dict.fromkeys(("pairings", "standings", "factions", "players"), 1)
    fresh = [html for html in answers if REPORTED in tables(html)]
    # The builder's (and a reader's late enough to find it built); the others had the copy of
    # before the report rather than building it again.
    assert 1 <= len(fresh) < len(answers) == 6
    assert all("Standings" in html and "Players (4)" in html for html in answers)
    renders.reset()
    assert REPORTED in tables(page(event)) and renders.total == 0  # kept for everyone now


@TRANSACTIONAL
def test_with_no_recent_copy_readers_wait_for_the_builder(renders, monkeypatch):
    event = make_event("Ruée sans copie")
    page(event)
    report_first_game(event)
    renders.reset()
    renders.delay = BUILD_SECONDS
    monkeypatch.setattr(event_cache, "STALE_SECONDS", 0.0)  # the copy is too old to serve
    monkeypatch.setattr(event_cache, "WAIT_SECONDS", 30.0)  # however slow this machine is
    answers = at_once([lambda: page(event)] * 4)
    assert renders.total == 4  # one build of each section, by one reader
    assert len(answers) == 4 and all(REPORTED in tables(html) for html in answers)
    cache.clear()  # nothing at all: still one build, nobody gets an empty page
    renders.reset()
    answers = at_once([lambda: page(event)] * 4)
    assert renders.total == 4
    assert all(REPORTED in tables(html) and "Players (4)" in html for html in answers)


# --- whom a copy is served to -------------------------------------------------------------------

@pytest.mark.django_db
def test_a_copy_is_served_while_another_process_rebuilds(renders):
    event = make_event("Copie servie")
    page(event)
    event_cache.changed(event.pk)
    held_elsewhere(event, shown_keys())
    renders.reset()
    assert "Players (4)" in page(event) and renders.total == 0


@pytest.mark.django_db
def test_a_player_and_staff_never_get_a_copy_older_than_their_own_change(renders, monkeypatch,
                                                                       staff_actor):
    monkeypatch.setattr(event_cache, "WAIT_SECONDS", 0.1)
    event = make_event("Ma propre table", staff_actor)
    page(event)
    game = report_first_game(event)
    held_elsewhere(event, shown_keys())
    renders.reset()
    assert REPORTED not in tables(page(event)) and renders.total == 0  # anyone: the copy
    opponent = Client()
    opponent.force_login(game.player_b.user)  # the report is on their game: built for them
    assert REPORTED in tables(page(event, opponent)) and renders.total == 4
    staff = Client()
    staff.force_login(staff_actor.user)
    event_cache.changed(event.pk)
    renders.reset()
    page(event, staff)
    assert renders.total == 4  # staff sections are their own, and never a copy


@pytest.mark.django_db
def test_a_copy_of_other_published_rounds_is_never_served(renders, staff_actor):
    event = make_event("Nouvelle ronde", staff_actor)
    for game in Game.objects.filter(round__tournament=event):
        results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    page(event)  # round 1, all confirmed, cached
    rounds.pair_next_round(staff_actor, event)  # round 2 published (the warm-up waits a commit)
    held_elsewhere(event, shown_keys())
    renders.reset()
    shown = page(event)
    assert "Round 2" in shown and renders.total == 4  # round 1's tables are no copy for it


# --- publication warms the sections up ----------------------------------------------------------

@pytest.mark.django_db
def test_publishing_a_round_builds_the_sections_once_after_the_commit(
        renders, staff_actor, django_capture_on_commit_callbacks, django_assert_num_queries,
        monkeypatch):
    queued: list[str] = []
    real_queue = celery.queue
    monkeypatch.setattr(celery, "queue", lambda name, *a, **k: (queued.append(name),
                                                                 real_queue(name, *a, **k)))
    event = make_event("Échauffement", staff_actor)
    for game in Game.objects.filter(round__tournament=event, round__number=1):
        results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    event.refresh_from_db()
    draft = rounds.pair_next_round(staff_actor, event, draft=True)
    renders.reset()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(staff_actor, event, draft.number)
    assert queued.count(event_cache.WARM_UP_TASK) == 1
    assert renders.total == 8  # four sections in English and in French, once
    renders.reset()
    with django_assert_num_queries(1):  # the event's id: everything else was built
        shown = page(event)
    assert "Round 2" in shown and renders.total == 0
    french = Client().get(reverse("tournament", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Classement" in french.content.decode() and renders.total == 0


@pytest.mark.django_db
def test_without_a_broker_a_request_warms_up_once_its_response_is_sent(
        renders, staff_actor, django_capture_on_commit_callbacks):
    event = make_event("Après la réponse", staff_actor)
    renders.reset()
    as_the_test_client(request_started)
    with django_capture_on_commit_callbacks(execute=True):  # a publication's commit
        event_cache.warm_up(event.pk)
        event_cache.warm_up(event.pk)
    assert renders.total == 0  # the response is not sent yet
    as_the_test_client(request_finished)  # the server closes the sent response
    assert renders.total == 8  # once, whatever the request published
    as_the_test_client(request_finished)
    assert renders.total == 8


def as_the_test_client(signal: Signal) -> None:
    """Send a request's signal as Django's test client does: the test's connection stays."""
    signal.disconnect(close_old_connections)
    try:
        signal.send(sender=None)
    finally:
        signal.connect(close_old_connections)


@pytest.mark.django_db
def test_a_warm_up_that_fails_to_queue_leaves_the_publication_done(
        staff_actor, django_capture_on_commit_callbacks, monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(celery, "queue", refuse)
    event = make_event("Courtier absent", staff_actor)
    for game in Game.objects.filter(round__tournament=event, round__number=1):
        with django_capture_on_commit_callbacks(execute=True):  # the last completes round 1
            results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.pair_next_round(staff_actor, event)
    assert "Round 2" in page(event)


# --- without the cache --------------------------------------------------------------------------

@contextmanager
def cache_down() -> Iterator[None]:
    """The cache is a Redis nobody listens on (refused at once)."""
    caches = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    event_cache._unbumped.clear()
    try:
        with override_settings(CACHES=caches):  # Django drops its cache connections both ways
            yield
    finally:
        event_cache._unbumped.clear()


@pytest.mark.django_db
def test_without_the_cache_publication_and_pages_still_work(
        staff_actor, django_capture_on_commit_callbacks):
    event = make_event("Sans cache", staff_actor)
    for game in Game.objects.filter(round__tournament=event):
        results.report(staff_actor, game.pk, results.ResultInput(winner=game.player_a_id))
    event.refresh_from_db()
    with cache_down():
        with django_capture_on_commit_callbacks(execute=True):
            rounds.pair_next_round(staff_actor, event)  # published, warm-up run: no error
        assert event_cache.for_event(event.pk).version is None
        assert "Round 2" in page(event) and "Players (4)" in page(event)
        read_before = event_cache.EventCache(event.pk, 1)  # its version read before the fall
        assert read_before.build_missing({"probe": lambda: "built"}) == {"probe": "built"}
