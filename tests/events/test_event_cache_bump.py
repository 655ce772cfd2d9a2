"""An event's version bump (events.event_cache): the first one creates the version, none is lost
to a concurrent one, and on Redis each is one round trip (Django's ``incr`` takes two)."""
from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings
from redis.connection import AbstractConnection

from events import event_cache

EVENT = 987_654  # no row: the version lives in the cache only
THREADS, BUMPS = 4, 25


@pytest.fixture
def version_key():
    key = event_cache._version_key(EVENT)
    cache.delete(key)
    yield key
    cache.delete(key)


@pytest.fixture
def redis_cache(version_key):
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("needs CACHE_URL=redis://…")
    return caches["default"]


@pytest.fixture
def round_trips(monkeypatch):
    """Writes to a Redis socket: one per command sent alone, one per pipeline."""
    sent: list[bytes] = []
    send = AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        sent.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    return sent


def test_the_first_bump_creates_the_version_then_each_adds_one(version_key):
    before = time.time_ns()
    event_cache._incr(EVENT)
    first = cache.get(version_key)
    assert first is not None and first >= before  # a fresh start, unlike any earlier version
    event_cache._incr(EVENT)
    assert cache.get(version_key) == first + 1
    assert event_cache.for_event(EVENT).version == first + 1


def _bump_concurrently() -> None:
    def bumps() -> None:
        for _ in range(BUMPS):
            event_cache._incr(EVENT)

    threads = [threading.Thread(target=bumps) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_concurrent_bumps_are_none_lost(version_key):
    start = event_cache.for_event(EVENT).version  # read first: the version exists
    _bump_concurrently()
    assert cache.get(version_key) == start + THREADS * BUMPS


def test_on_redis_a_bump_is_one_round_trip(redis_cache, version_key, round_trips):
    event_cache._incr(EVENT)  # creates the version (and the connection: SELECT, CLIENT SETINFO)
    created = cache.get(version_key)
    round_trips.clear()
    event_cache._incr(EVENT)
    assert len(round_trips) == 1
    assert cache.get(version_key) == created + 1
    cache.delete(version_key)
    round_trips.clear()
    event_cache._incr(EVENT)  # missing again (evicted): still one
    assert len(round_trips) == 1
    assert cache.get(version_key) > created
    # Kept for good, as the version read first is (``_version``): only eviction drops it.
    client = redis_cache._cache.get_client(write=True)
    assert client.ttl(redis_cache.make_and_validate_key(version_key)) == -1


def test_on_redis_concurrent_first_bumps_start_once_and_none_is_lost(redis_cache, version_key):
    before = time.time_ns()
    _bump_concurrently()
    after = time.time_ns()
    start = cache.get(version_key) - THREADS * BUMPS  # one thread's fresh start, the rest added
    assert before <= start <= after


def test_on_redis_a_bump_writes_under_djangos_key(redis_cache, version_key, settings):
    prefixed = {**settings.CACHES["default"], "KEY_PREFIX": "h4-prefix", "VERSION": 3}
    with override_settings(CACHES={**settings.CACHES, "default": prefixed}):
        try:
            event_cache._incr(EVENT)
            event_cache._incr(EVENT)
            backend = caches["default"]
            raw = backend.make_and_validate_key(version_key)
            assert raw.startswith("h4-prefix:3:")
            assert int(backend._cache.get_client(write=True).get(raw)) == cache.get(version_key)
            assert event_cache.for_event(EVENT).version == cache.get(version_key)
        finally:
            cache.delete(version_key)
