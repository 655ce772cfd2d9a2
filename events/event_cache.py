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

A change does not make every reader rebuild (``build_missing``): one process at a time rebuilds a
given entry, under its lock in the cache (``cache.add``, LOCK_SECONDS), and keeps beside the
versioned entry a copy of the latest one built (``Copy``). While the lock is held elsewhere, a
reader serves that copy if it was built at most STALE_SECONDS ago, for the same published rounds
(``stamp``), and after the reader's own last change (``not_before``); else it waits up to
WAIT_SECONDS for the builder, then builds it itself: never an empty page. What is built inside a
build (the ranking a section reads) is never served stale, so a copy is as old as it says.
Publishing a round queues ``league.warm_event`` (``warm_up``), which builds the event's sections
once after the commit, before the players' phones ask for them.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connections, transaction
from django.dispatch import receiver
from redis.exceptions import NoScriptError

from config.cache_outage import CACHE_ERRORS, failed

logger = logging.getLogger(__name__)
T = TypeVar("T")
# Bounds the memory entries of old versions hold, and what a lost bump (the process died between
# the commit and the bump) or reference data edited in the admin (faction and mission names)
# can leave stale.
TIMEOUT = 600
# A rebuild holds its entry's lock this long at most: one whose process died lets another start.
LOCK_SECONDS = 10
# A copy older than this is not served in place of the entry being rebuilt: every change shows
# within this many seconds (a build takes under one).
STALE_SECONDS = 5.0
# With no copy to serve, a reader waits this long at most for the builder, then builds.
WAIT_SECONDS = 2.0
POLL_SECONDS = 0.05
# A reader's own change (a report on their game) is saved and committed within this long of its
# timestamp, clocks of several machines included: copies built sooner are not served to them.
OWN_CHANGE_SECONDS = 1.0
WARM_UP_TASK = "league.warm_event"

# Set while building an entry: what the build reads from the cache is never a stale copy.
_building: ContextVar[bool] = ContextVar("muster_event_building", default=False)

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
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        _redis_incr(backend, key)
        return
    try:
        cache.incr(key)
    except ValueError:  # never read yet, or evicted: start afresh (see ``_fresh``)
        cache.add(key, _fresh(), timeout=None)


# SET NX (a missing version starts afresh, see ``_fresh``, and never expires), then INCR: one
# command, where a MULTI pipeline sends and parses four (a bump follows every audited change).
_BUMP = "redis.call('SET', KEYS[1], ARGV[1], 'NX') return redis.call('INCR', KEYS[1])"
_BUMP_SHA = hashlib.sha1(_BUMP.encode()).hexdigest()


def _redis_incr(backend: RedisCache, key: str) -> None:
    """One round trip where Django's ``incr`` takes two (EXISTS, then INCR). The value is the
    plain integer Django's Redis serializer stores for an int, as ``incr`` needs."""
    key = backend.make_and_validate_key(key)
    # RedisCache's client (``_cache``), as Django's own methods reach it: the server for writes.
    client = backend._cache.get_client(key, write=True)
    try:
        client.evalsha(_BUMP_SHA, 1, key, _fresh())
    except NoScriptError:  # a restarted server has no script yet: send it whole once
        client.eval(_BUMP, 1, key, _fresh())


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


def anyone() -> float:
    """``not_before`` of a reader with no change of their own to see: any recent copy will do."""
    return 0.0


@dataclass(frozen=True)
class Copy:
    """The latest built value of an entry, whatever its version: served while it is rebuilt."""

    version: int
    built_at: float  # wall clock before its data was read: it shows every change saved before
    stamp: str  # what the entry was built for (the published rounds): another stamp is no copy
    value: Any

    def serves(self, version: int, stamp: str, floor: float) -> bool:
        return self.stamp == stamp and (version <= self.version or self.built_at >= floor)


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

    def get_or_build(self, name: str, build: Callable[[], T], *, stamp: str = "",
                     not_before: Callable[[], float] | None = anyone) -> T:
        found = self.get_many([name]).get(name)
        if found is not None:
            return found
        return self.build_missing({name: build}, stamp=stamp, not_before=not_before)[name]

    def build_missing(self, builds: Mapping[str, Callable[[], Any]], *, stamp: str = "",
                      not_before: Callable[[], float] | None = anyone) -> dict[str, Any]:
        """The entries ``builds`` makes, none found at this version: those whose lock this
        process takes are built and kept; the others, being rebuilt elsewhere, are their copy
        (see the module's docstring; ``not_before``: the reader's own last change, a wall-clock
        time, read only if a copy could be served; None: this reader takes no copy, it builds).
        Uncached, or inside a build, each entry is built here."""
        if self.version is None or _building.get():
            return self._build(builds, stamp)
        token = secrets.token_hex(8)
        mine = self._lock(sorted(builds), token)
        try:
            got = self.get_many(mine) if mine else {}  # stored while we took the lock
            got.update(self._build({name: builds[name] for name in mine if name not in got},
                                   stamp))
        finally:
            self._unlock(mine, token)
        others = [name for name in builds if name not in got]
        if others and not_before is not None:
            got.update(self._copies(others, stamp, not_before))
        got.update(self._build({name: builds[name] for name in builds if name not in got}, stamp))
        return got

    def _lock_key(self, name: str) -> str:
        return f"muster:event:{self.tournament_id}:building:{name}"

    def _latest_key(self, name: str) -> str:
        return f"muster:event:{self.tournament_id}:latest:{name}"

    def _lock(self, names: list[str], token: str) -> list[str]:
        """The names whose rebuild lock this process takes, in order, up to the first held
        elsewhere: readers asking for the same entries leave them all to the first one. The
        cache failing: every name (nobody else can build them from the cache either)."""
        taken: list[str] = []
        try:
            for name in names:
                if not cache.add(self._lock_key(name), token, LOCK_SECONDS):
                    break
                taken.append(name)
        except CACHE_ERRORS as error:
            failed("an event page", error)
            return names
        return taken

    def _unlock(self, names: list[str], token: str) -> None:
        if not names:
            return
        try:
            held = cache.get_many([self._lock_key(name) for name in names])
            # A lock that outlived LOCK_SECONDS may be someone else's now: theirs stays.
            cache.delete_many([key for key, value in held.items() if value == token])
        except CACHE_ERRORS as error:
            failed("an event page", error)

    def _build(self, builds: Mapping[str, Callable[[], Any]], stamp: str) -> dict[str, Any]:
        if not builds:
            return {}
        built_at = time.time()
        inside = _building.set(True)
        try:
            values = {name: build() for name, build in builds.items()}
        finally:
            _building.reset(inside)
        self._keep(values, built_at, stamp)
        return values

    def _keep(self, values: Mapping[str, Any], built_at: float, stamp: str) -> None:
        """Each value under this version, and as its entry's latest copy."""
        if self.version is None:
            return
        entries = {self.key(name): value for name, value in values.items()}
        entries.update({self._latest_key(name): Copy(self.version, built_at, stamp, value)
                        for name, value in values.items()})
        try:
            cache.set_many(entries, TIMEOUT)
        except CACHE_ERRORS as error:
            failed("an event page", error)

    def _copies(self, names: list[str], stamp: str,
                not_before: Callable[[], float]) -> dict[str, Any]:
        """The entries another process is rebuilding: their version once stored, else their
        latest copy if it serves this reader, waiting up to WAIT_SECONDS for either."""
        assert self.version is not None  # noqa: S101  (build_missing's caller checks)
        got: dict[str, Any] = {}
        own: float | None = None
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            wanted = [name for name in names if name not in got]
            try:
                found = cache.get_many([self.key(name) for name in wanted]
                                       + [self._latest_key(name) for name in wanted])
            except CACHE_ERRORS as error:
                failed("an event page", error)
                return got
            floor = time.time() - STALE_SECONDS
            for name in wanted:
                copy = found.get(self._latest_key(name))
                if self.key(name) in found:
                    got[name] = found[self.key(name)]
                elif copy is not None and copy.serves(self.version, stamp, floor):
                    if own is None and copy.version < self.version:
                        own = not_before()
                    if copy.version >= self.version or copy.built_at >= (own or 0.0):
                        got[name] = copy.value
            if len(got) == len(names) or time.monotonic() >= deadline:
                return got
            time.sleep(POLL_SECONDS)


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


def warm_up(tournament_id: int) -> None:
    """Once the transaction commits (after its version bump), queue ``league.warm_event``,
    which builds the event's sections once, before the players' phones ask for them. Without a
    broker (tasks run eagerly) a request's warm-ups run once its response is sent."""
    transaction.on_commit(lambda: _after_commit(tournament_id))


# The warm-ups a request of this thread left for after its response (eager tasks only).
_deferred = threading.local()


def _after_commit(tournament_id: int) -> None:
    from config.celery import app  # the Celery app, only once something is queued

    waiting: set[int] | None = getattr(_deferred, "events", None)
    if waiting is not None and app.conf.task_always_eager:
        waiting.add(tournament_id)
    else:
        _queue_warm_up(tournament_id)


def _queue_warm_up(tournament_id: int) -> None:
    from config.celery import queue

    try:
        queue(WARM_UP_TASK, [tournament_id])
    except Exception:  # noqa: BLE001  (the change is saved: readers build the sections)
        logger.warning("event %s: warm-up not done", tournament_id, exc_info=True)


@receiver(request_started, dispatch_uid="muster-event-warm-up-start")
def _request_started(sender, **kwargs) -> None:
    _deferred.events = set()


@receiver(request_finished, dispatch_uid="muster-event-warm-up-finish")
def _request_finished(sender, **kwargs) -> None:
    """The response is sent (the server closes it): the staff member who published waited
    for the commit only, not for the sections."""
    waiting: set[int] = getattr(_deferred, "events", None) or set()
    _deferred.events = None
    for tournament_id in sorted(waiting):
        _queue_warm_up(tournament_id)
    if waiting and not any(db.in_atomic_block for db in connections.all()):
        close_old_connections()  # as the request's own end did (runserver keeps none)
