"""What the event page and the standings API keep in the Django cache, and how it goes stale.

Every change the services make to an event is audited (``events.audit.record``), and recording
it calls ``changed``, which moves the event's version on at once and again when the transaction
commits. The version is a counter in the cache itself, so with CACHE_URL (Redis) every process
and machine sees the same one; with the default process-local cache only one web process may
run (as for the rate limits). Every entry is keyed by the version read before its data, so once
a change is committed and its last bump done, every reader builds or finds entries from data at
least as new as that change; entries of older versions are never asked for again and expire.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

T = TypeVar("T")
# Bounds the memory entries of old versions hold, and what a lost bump (the process died between
# the commit and the bump) or reference data edited in the admin (faction and mission names)
# can leave stale.
TIMEOUT = 600


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
    key = _version_key(tournament_id)
    try:
        cache.incr(key)
    except ValueError:  # never read yet, or evicted: start afresh (see ``_fresh``)
        cache.add(key, _fresh(), timeout=None)


def _fresh() -> int:
    """A starting version unlike any earlier one of the same event, even after an eviction:
    earlier versions started from an earlier clock reading and grew by one per change."""
    return time.time_ns()


@dataclass(frozen=True)
class EventCache:
    """One event's entries under the version read when a request began."""

    tournament_id: int
    version: int

    def key(self, name: str) -> str:
        return f"muster:event:{self.tournament_id}:{self.version}:{name}"

    def get_many(self, names: list[str]) -> dict[str, Any]:
        """The entries found among ``names`` (one round trip)."""
        found = cache.get_many([self.key(name) for name in names])
        return {name: found[self.key(name)] for name in names if self.key(name) in found}

    def set_many(self, entries: Mapping[str, Any]) -> None:
        if entries:
            cache.set_many({self.key(name): value for name, value in entries.items()}, TIMEOUT)

    def get_or_build(self, name: str, build: Callable[[], T]) -> T:
        found = cache.get(self.key(name))
        if found is not None:
            return found
        value = build()
        cache.set(self.key(name), value, TIMEOUT)
        return value


def for_event(tournament_id: int) -> EventCache:
    """The event's cache at its current version (one round trip, two the first time)."""
    key = _version_key(tournament_id)
    version = cache.get(key)
    if version is None:
        fresh = _fresh()
        cache.add(key, fresh, timeout=None)
        version = cache.get(key, fresh)
    return EventCache(tournament_id, version)
