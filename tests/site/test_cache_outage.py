"""The cache Redis is not a hard dependency: with it stopped (a Redis of the test's own), event
pages and standings render uncached, results are reported and log-ins work, and the log-in
limits still hold, counted in the process. A version bump the cache refused is done later."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from config import ratelimit
from events import event_cache
from events.audit import Actor
from events.models import Game, Tournament
from events.services import results, rounds, tournaments
from tests.browser.events import open_event, organiser, register, user
from tests.site.own_redis import OwnRedis, django_cache_on
from tests.tournament_fixtures import API, client_for, expect, get

pytestmark = pytest.mark.django_db
PASSWORD = "player-pass-1234"  # tests.browser.events.user's
REPORTED = "reported, to be confirmed"


def forget_outages() -> None:
    """What the modules keep in the process about the cache's failures."""
    event_cache._unbumped.clear()
    ratelimit.IN_PROCESS.clear()


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    forget_outages()
    try:
        with django_cache_on(server):
            yield server
    finally:
        server.stop()
        forget_outages()


@pytest.fixture
def event(own_redis) -> Tournament:
    """Four players with accounts, round 1 published, no result yet (the cache up)."""
    staff = organiser()
    event = open_event(staff, name="Panne de cache")
    for name in ("Alice", "Bob", "Chloé", "Dan"):
        register(event, user(name.casefold()), name)
    event = tournaments.transition(staff, event, Tournament.Status.LISTS_LOCKED)
    rounds.pair_next_round(staff, event)
    event.refresh_from_db()
    return event


def page(event: Tournament) -> str:
    response = Client().get(reverse("tournament", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def first_game(event: Tournament) -> Game:
    return Game.objects.filter(round__tournament=event).select_related(
        "player_a__user", "player_b__user").order_by("table").first()


def standings(event: Tournament) -> dict[str, int]:
    rows = expect(get(client_for(None), f"/tournaments/{event.slug}/standings/"), 200)
    return {row["player"]["name"]: row["points"] for row in rows}


def test_pages_standings_and_reports_go_on_without_the_cache(own_redis, event):
    game = first_game(event)
    a, b = game.player_a, game.player_b
    assert REPORTED not in page(event) and standings(event)[a.name] == 0  # cached
    own_redis.stop()
    assert REPORTED not in page(event) and standings(event)[a.name] == 0  # built uncached
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    assert REPORTED in page(event)
    results.confirm(Actor(user=b.user), game.pk)
    assert f"{a.name} won</strong>" in page(event) and standings(event)[a.name] == 3
    own_redis.start()  # back, empty: the pages are cached again
    assert f"{a.name} won</strong>" in page(event) and standings(event)[a.name] == 3
    assert own_redis.client().dbsize() > 0


def test_reports_through_the_api_go_on_without_the_cache(own_redis, event):
    game = first_game(event)
    a = game.player_a
    own_redis.stop()
    response = client_for(a.user).post(f"{API}/games/{game.pk}/report/",
                                       {"result": {"winner": a.pk}}, format="json")
    assert response.status_code in (200, 201), response.content
    game.refresh_from_db()
    assert game.status == "reported"


def test_a_bump_the_cache_refused_is_done_later(own_redis, event):
    game = first_game(event)
    a = game.player_a
    version = event_cache.for_event(event.pk).version
    assert REPORTED not in page(event)  # cached at that version
    own_redis.refuse_writes()  # reads answer, the version cannot move
    results.report(Actor(user=a.user), game.pk, results.ResultInput(winner=a.pk))
    assert REPORTED in page(event)  # this process owes the bump: it reads uncached
    own_redis.refuse_writes(False)
    assert REPORTED in page(event)  # the bump done first, then cached afresh
    assert event_cache.for_event(event.pk).version > version
    assert not event_cache._unbumped


def test_log_ins_work_without_the_cache(own_redis):
    user("alice")
    own_redis.stop()
    client = Client()
    response = client.post("/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and client.session.get("_auth_user_id")
    token = client_for(None).post(f"{API}/auth/token/",
                                  {"username": "alice", "password": PASSWORD}, format="json")
    assert token.status_code == 200 and token.json()["token"]


def test_the_account_limit_holds_without_the_cache(own_redis, settings):
    settings.MUSTER_RATE_LIMITS = "login_account=2/15m"
    user("alice")
    own_redis.stop()
    for index in range(2):
        assert Client().post("/login/", {"username": "alice", "password": "wrong"},
                             REMOTE_ADDR=f"203.0.113.{index}").status_code == 200
    refused = client_for(None).post(f"{API}/auth/token/",
                                    {"username": "alice", "password": PASSWORD}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"


def test_the_address_limit_holds_without_the_cache(own_redis, settings):
    settings.MUSTER_RATE_LIMITS = "login=3/minute"
    own_redis.stop()
    codes = [client_for(None).post(f"{API}/auth/token/", {"username": f"guess{i}",
                                                         "password": "wrong"},
                                   format="json").status_code for i in range(4)]
    assert codes == [400, 400, 400, 429]
    site = Client().post("/login/", {"username": "x", "password": "wrong"})
    assert site.status_code == 429
