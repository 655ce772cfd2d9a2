"""What the event page and the standings API keep in the Django cache, and how it goes stale.

Every change the services make to an event is audited (``events.audit.record``), and recording
it calls ``changed``, which moves the event's version on at once and again when the transaction
commits. The version is a counter in the cache itself, so with CACHE_URL (Redis) every process
and machine sees the same one; with the default process-local cache only one web process may
run (as for the rate limits). Every entry is keyed by the version read before its data, so once
a change is committed and its last bump done, every reader builds or finds entries from data at
least as new as that change; entries of older versions are never asked for again and expire.

The cache may be down (config.cache_outage): a page is then built from the database, and a
change goes through without its bump. A bump that failed is retried by this process before it
next reads the cache, and until it succeeds this process reads that event uncached; other
processes may show entries of the version before the change until the bump is done or their
TIMEOUT ends (a Redis restarted without persistence has lost every entry anyway).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

from config.cache_outage import CACHE_ERRORS, failed

T = TypeVar("T")
# Bounds the memory entries of old versions hold, and what a lost bump (the process died between
# the commit and the bump) or reference data edited in the admin (faction and mission names)
# can leave stale.
TIMEOUT = 600

# Events whose version bump failed in this process: bumped again before the next read.
_unbumped: set[int] = set()
_unbumped_lock = threading.Lock()


def _version_key(tournament_id: int) -> str:
    return f"muster:event:{tournament_id}:version"


def changed(tournament_id: int | None) -> None:
    """The event changes: move its version on now, so that what is read later in this
    transaction (or in a test, which never commits) is not an older entry, and again once the
    transaction commits, so that what was cached meanwhile from the data as it was before the
    commit is never read."""
    if tournament_id is not None:
        _bump(tournament_id)
        transaction.on_commit(lambda: _bump(tournament_id))


def _bump(tournament_id: int) -> None:
    """Move the version on; if the cache fails, remember to do it later (never raises: the
    change it follows is saved, or about to be)."""
    try:
        _incr(tournament_id)
    except CACHE_ERRORS as error:
        failed("an event change", error)
        with _unbumped_lock:
            _unbumped.add(tournament_id)


def _incr(tournament_id: int) -> None:
    key = _version_key(tournament_id)
    try:
        cache.incr(key)
    except ValueError:  # never read yet, or evicted: start afresh (see ``_fresh``)
        cache.add(key, _fresh(), timeout=None)


def _retry_bumps() -> None:
    """Do the bumps that failed; stop at the first that fails again."""
    with _unbumped_lock:
        pending = sorted(_unbumped)
    for tournament_id in pending:
        _incr(tournament_id)  # CACHE_ERRORS: the caller reads uncached
        with _unbumped_lock:
            _unbumped.discard(tournament_id)


def _fresh() -> int:
    """A starting version unlike any earlier one of the same event, even after an eviction:
    earlier versions started from an earlier clock reading and grew by one per change."""
    return time.time_ns()


@dataclass(frozen=True)
class EventCache:
    """One event's entries under the version read when a request began; with no version (the
    cache is down, or this process owes the event a bump), nothing is read or kept."""

    tournament_id: int
    version: int | None

    def key(self, name: str) -> str:
        return f"muster:event:{self.tournament_id}:{self.version}:{name}"

    def get_many(self, names: list[str]) -> dict[str, Any]:
        """The entries found among ``names`` (one round trip)."""
        if self.version is None:
            return {}
        try:
            found = cache.get_many([self.key(name) for name in names])
        except CACHE_ERRORS as error:
            failed("an event page", error)
            return {}
        return {name: found[self.key(name)] for name in names if self.key(name) in found}

    def set_many(self, entries: Mapping[str, Any]) -> None:
        if self.version is None or not entries:
            return
        try:
            cache.set_many({self.key(name): value for name, value in entries.items()}, TIMEOUT)
        except CACHE_ERRORS as error:
            failed("an event page", error)

    def get_or_build(self, name: str, build: Callable[[], T]) -> T:
        found = self.get_many([name]).get(name)
        if found is not None:
            return found
        value = build()
        self.set_many({name: value})
        return value


def for_event(tournament_id: int) -> EventCache:
    """The event's cache at its current version (one round trip, two the first time), or an
    uncached one while the cache fails or the event's bump is still owed."""
    try:
        _retry_bumps()
        return EventCache(tournament_id, _version(tournament_id))
    except CACHE_ERRORS as error:
        failed("an event page", error)
        return EventCache(tournament_id, None)


def _version(tournament_id: int) -> int:
    key = _version_key(tournament_id)
    version = cache.get(key)
    if version is None:
        fresh = _fresh()
        cache.add(key, fresh, timeout=None)
        version = cache.get(key, fresh)
    return version
