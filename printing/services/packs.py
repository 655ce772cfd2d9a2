"""Packs: ask for a round's pack, build and store its PDF in the background, queue it again
when the broker lost it.

A pack's kind (``MissionPack.Kind``: the mission pack, the wall sheets, a campaign's turn
pack) is printed by the renderer its owner registered (printing/renderers.py); its file goes
to the media store under a new name per build, and the row switches to it under its lock
(printing/services/pack_files.py).

The task ``league.build_mission_pack`` (printing/tasks.py), queued by name after the commit,
calls ``build_pack``: it renders in chunks, reports progress after each one, and stores the
PDF only when complete. A broker that cannot be reached leaves the pack pending, never an
error for a request that was saved: ``sweep`` (the worker's periodic task, also run at its
start-up and by ``manage.py sweep_queue``) queues again the packs the broker did not take.

A worker may die mid-build (killed, out of memory). While a build runs, a thread of its
process beats (``heartbeat_at``, every MUSTER_PACK_HEARTBEAT_SECONDS, printing/heartbeat.py);
a pending or running pack with no heartbeat nor progress for MUSTER_PACK_INTERRUPTED_SECONDS is
interrupted (``stale`` in the API): the organiser sees so, and ``sweep`` starts it again (same
row, audit entry by the system) as soon as a worker runs it, so nobody has to click. Staff can
still retry it, and a new request for the round supersedes it. The broker also delivers the
dead run's task again (after its visibility timeout): that run finds the pack done, or being
built by a live process, and leaves it.

Each build run owns the pack through a token taken under the row lock (``attempt``); a run
that lost it (retried, superseded, restarted, taken over by a redelivery) stops at its next
write, stops beating and never stores its file. A pack started MAX_RUNS times (each earlier
run died) fails instead of starting again.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import BinaryIO

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.celery import queue, requeue
from config.metrics import record_pack_built
from events.audit import SYSTEM, Actor, record
from events.errors import Conflict, Invalid, NotFound
from events.models import Round, Tournament
from events.services.tournaments import require_staff
from printing import renderers
from printing.heartbeat import Heartbeat, owner_alive, this_process
from printing.models import MissionPack, interrupted_before, new_token
from printing.render import DEFAULT_CHUNK_TABLES
from printing.renderers import PackError
from printing.services.pack_files import replaced, store_atomically, stored, sweep_orphans

__all__ = ["PackError", "build_pack", "claim", "dispatch", "request_pack", "restart_interrupted",
           "retry_pack", "store_atomically", "stored", "sweep", "sweep_orphans"]
logger = logging.getLogger(__name__)
Status = MissionPack.Status
Kind = MissionPack.Kind
ACTIVE = (Status.PENDING, Status.RUNNING)
BUILD_TASK = "league.build_mission_pack"
# A pack found running this many times (each earlier run died mid-build) fails instead of
# starting again: a pack that kills its worker must not be redelivered for ever.
MAX_RUNS = 3
ERROR_MAX = 2000
QUEUE_GRACE_SECONDS = 30  # a pending pack younger than this may still be on its way
ORPHANS_KEY = "packs:orphans-swept"
ORPHANS_EVERY = 600


class LostOwnership(Exception):
    """This build run no longer owns its pack (retried, superseded or taken over)."""


# --- asking for a pack -------------------------------------------------------------------------

@transaction.atomic
def request_pack(actor: Actor, tournament: Tournament, number: int,
                 kind: str = Kind.MISSION_PACK) -> MissionPack:
    """A pack for round ``number`` (its mission pack, or the wall sheet ``kind``), built in
    the background once this transaction commits.

    A double click gets the pack of that kind already under way rather than a second one; a
    stale pack (its worker died) is superseded by a fresh one.
    """
    require_staff(actor)
    if kind not in Kind.values:
        raise Invalid(_("No such printout."), "pack_kind_unknown")
    round_ = Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise NotFound(_("No such round."), "round_not_found")
    renderers.check(kind, round_)  # the kind's owner refuses a round without such a pack
    # A draft round's mission pack may be printed ("as soon as the round is paired"): every
    # sheet then says it is a draft (printing/draft_mark.py). Wall sheets hang for the players,
    # so they wait for the published round.
    if round_.status == Round.Status.DRAFT and kind != Kind.MISSION_PACK:
        raise Conflict(_("Publish the round before printing its wall sheets."),
                       "round_not_published")
    # The round's lock serialises requests, so at most one live pack per round and kind.
    active = list(round_.mission_packs.select_for_update().filter(status__in=ACTIVE, kind=kind))
    live = next((pack for pack in active if not pack.stale), None)
    if live is not None:
        return live
    pack = MissionPack.objects.create(round=round_, kind=kind,
                                      requested_by=actor.user if actor.user_id else None)
    for old in active:
        _supersede(actor, old, pack)
    details = {"pack": pack.pk, "round": number}
    if kind != Kind.MISSION_PACK:
        details["kind"] = kind
    record(actor, "mission_pack_requested", tournament, round_, details)
    dispatch(pack)
    return pack


def _supersede(actor: Actor, old: MissionPack, new: MissionPack) -> None:
    """Fail a stale pack in favour of ``new``; clearing its token stops a run still alive."""
    now = timezone.now()
    old.status, old.attempt, old.finished_at, old.progress_at = Status.FAILED, "", now, now
    old.error = gettext("Stopped making progress; superseded by mission pack %(pack)d.") % {
        "pack": new.pk}
    old.save(update_fields=["status", "attempt", "finished_at", "progress_at", "error"])
    record(actor, "mission_pack_superseded", old.round.tournament, old.round,
           {"pack": old.pk, "by": new.pk})


@transaction.atomic
def retry_pack(actor: Actor, pack: MissionPack) -> MissionPack:
    """Start a failed or stale pack again (same row, new build)."""
    require_staff(actor)
    locked = MissionPack.objects.select_for_update().get(pk=pack.pk)
    if locked.status != Status.FAILED and not locked.stale:
        raise Conflict(_("Only a failed or stalled mission pack can be retried."), "pack_not_failed")
    was = locked.status
    # An empty token: a run of the stale build that is still alive stops at its next write.
    locked.status, locked.progress, locked.error, locked.attempt, locked.runs = (
        Status.PENDING, 0, "", "", 0)
    locked.progress_at, locked.started_at, locked.finished_at = timezone.now(), None, None
    locked.queued_at, locked.heartbeat_at, locked.heartbeat_by = None, None, ""
    locked.save(update_fields=["status", "progress", "error", "attempt", "runs", "progress_at",
                               "started_at", "finished_at", "queued_at", "heartbeat_at",
                               "heartbeat_by"])
    round_ = Round.objects.select_related("tournament").get(pk=locked.round_id)
    record(actor, "mission_pack_retried", round_.tournament, round_, {"pack": locked.pk, "was": was})
    dispatch(locked)
    return locked


def dispatch(pack: MissionPack) -> None:
    """Queue the build after commit (the worker must see the pack row); a broker that cannot be
    reached is logged, and the pack stays pending for the sweep."""
    pack_id = pack.pk
    transaction.on_commit(lambda: send(pack_id))


def send(pack_id: int) -> bool:
    """Queue pack ``pack_id``'s build by name; False (logged) when the broker refused it."""
    try:
        queue(BUILD_TASK, [pack_id])
    except Exception:  # noqa: BLE001  (the request is committed: an outage only delays it)
        logger.warning("mission pack %s not queued; the sweep will retry", pack_id, exc_info=True)
        return False
    MissionPack.objects.filter(pk=pack_id, status=Status.PENDING).update(queued_at=timezone.now())
    return True


def sweep() -> int:
    """Start again the interrupted running packs (``restart_interrupted``), then queue again
    the pending packs the broker never took (or lost), and delete the store's orphaned pack
    files (``sweep_orphans``, at most once per ORPHANS_EVERY seconds over all the workers,
    since it lists the whole folder); how many were queued."""
    restart_interrupted()
    try:
        if cache.add(ORPHANS_KEY, True, ORPHANS_EVERY):
            sweep_orphans()
    except Exception:  # noqa: BLE001  (a store outage must not keep packs from being queued)
        logger.warning("packs sweep: the store's orphans were not swept", exc_info=True)
    grace = timezone.now() - timedelta(seconds=QUEUE_GRACE_SECONDS)
    due = MissionPack.objects.filter(status=Status.PENDING).filter(
        Q(queued_at__isnull=True, requested_at__lt=grace) | Q(queued_at__lt=interrupted_before()))
    return requeue(due.order_by("pk").values_list("pk", flat=True)[:200], send)


def restart_interrupted() -> int:
    """Make every interrupted running pack pending again (``restart``); how many were."""
    before = interrupted_before()
    due = MissionPack.objects.filter(status=Status.RUNNING, progress_at__lt=before).filter(
        Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=before))
    return sum(restart(pk) for pk in due.order_by("pk").values_list("pk", flat=True)[:200])


@transaction.atomic
def restart(pack_id: int) -> bool:
    """Start interrupted pack ``pack_id`` again: pending on the same row, its dead run's token
    dropped (``runs`` is counted when the new run claims it), queued after the commit; a pack
    already started MAX_RUNS times fails instead. True when it was restarted."""
    pack = MissionPack.objects.select_for_update().filter(pk=pack_id).first()
    if pack is None or pack.status != Status.RUNNING or not pack.interrupted:
        return False  # it moved meanwhile
    if pack.runs >= MAX_RUNS:
        _give_up(pack)
        return False
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.PENDING, attempt="", progress=0, error="", progress_at=timezone.now(),
        started_at=None, queued_at=None, heartbeat_at=None, heartbeat_by="")
    round_ = Round.objects.select_related("tournament").get(pk=pack.round_id)
    record(SYSTEM, "mission_pack_restarted", round_.tournament, round_,
           {"pack": pack.pk, "progress": pack.progress, "runs": pack.runs})
    logger.warning("mission pack %s: no heartbeat since %s, started again", pack.pk,
                   pack.last_sign_of_life.isoformat())
    dispatch(pack)
    return True


def _give_up(pack: MissionPack) -> None:
    """The guard: a pack whose build was lost MAX_RUNS times fails, visibly."""
    now = timezone.now()
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.FAILED, attempt="", finished_at=now, progress_at=now,
        error=gettext("The build stopped %(count)d times before finishing (the worker was "
                      "lost each time).") % {"count": pack.runs})


# --- building it (the task's body) ---------------------------------------------------------------

def chunk_tables() -> int:
    return int(getattr(settings, "MUSTER_PACK_CHUNK_TABLES", DEFAULT_CHUNK_TABLES))


def build_pack(pack_id: int, chunk: int | None = None) -> str:
    """Render and store pack ``pack_id``; idempotent: a done pack with its file is left alone.

    Returns the final status ("missing", "superseded" or "busy" when there is nothing for
    this run to do). A failure is recorded on the pack, not raised.
    """
    claimed = claim(pack_id)
    if isinstance(claimed, str):
        return claimed
    pack, attempt = claimed
    started = time.monotonic()
    try:
        with Heartbeat(pack.pk, attempt):  # beats while this run renders and stores
            store_atomically(pack, _renderer(pack, chunk or chunk_tables(),
                                             _reporter(pack.pk, attempt)),
                             publish=_publisher(pack, attempt))
    except LostOwnership:
        logger.warning("mission pack %s: run %s lost the pack to a newer one", pack_id, attempt)
        return "superseded"
    except Exception as exc:  # recorded for the organisers; the worker stays up
        logger.exception("mission pack %s failed", pack_id)
        MissionPack.objects.filter(pk=pack.pk, attempt=attempt, status=Status.RUNNING).update(
            status=Status.FAILED, error=_error_text(exc), finished_at=timezone.now(),
            progress_at=timezone.now())
        return Status.FAILED
    record_pack_built(pack.kind, time.monotonic() - started)
    return Status.DONE


def _renderer(pack: MissionPack, chunk: int,
              progress: Callable[[int, int], None]) -> Callable[[BinaryIO], int]:
    """What writes the pack's PDF: the renderer the kind's owner registered."""
    return renderers.renderer_of(pack.kind).renderer(pack, chunk, progress)


@transaction.atomic
def claim(pack_id: int) -> tuple[MissionPack, str] | str:
    """Make this run the pack's owner (a new token), or say why there is nothing to build.

    A running pack is taken over when the process that built it is gone (the broker delivers
    a task again when its worker died), and the build starts over from nothing; while that
    process still beats (a second delivery, the sweep's and the broker's), it is left alone.
    """
    pack = MissionPack.objects.select_for_update().filter(pk=pack_id).first()
    if pack is None:
        return "missing"
    if pack.status == Status.DONE and stored(pack):
        return Status.DONE
    if pack.status == Status.FAILED:
        return Status.FAILED  # a leftover delivery: a retry makes the pack pending first
    if pack.status == Status.RUNNING and owner_alive(pack):
        return "busy"
    if pack.status == Status.RUNNING and pack.runs >= MAX_RUNS:
        _give_up(pack)
        return Status.FAILED
    now = timezone.now()
    attempt = new_token()
    MissionPack.objects.filter(pk=pack.pk).update(
        status=Status.RUNNING, progress=0, error="", started_at=now, finished_at=None,
        progress_at=now, heartbeat_at=now, heartbeat_by=this_process(), attempt=attempt,
        runs=F("runs") + 1)
    pack = MissionPack.objects.select_related(
        "round__tournament__level", "round__tournament__game_system", "round__mission",
    ).get(pk=pack.pk)
    return pack, attempt


def _reporter(pack_id: int, attempt: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        # 100 is kept for "stored": the merge and the write come after the last chunk.
        moved = MissionPack.objects.filter(pk=pack_id, status=Status.RUNNING, attempt=attempt).update(
            progress=min(99, done * 100 // total), progress_at=timezone.now())
        if not moved:
            raise LostOwnership(pack_id)
    return report


def _publisher(pack: MissionPack, attempt: str) -> Callable[[str, int], None]:
    """Switch the pack to its newly stored file ``name`` only while this run still owns it (the
    row lock); the file it named before is deleted once that is committed."""
    def publish(name: str, pages: int) -> None:
        with transaction.atomic():
            old = MissionPack.objects.select_for_update().filter(
                pk=pack.pk, status=Status.RUNNING, attempt=attempt).values_list(
                "file", flat=True).first()
            if old is None:
                raise LostOwnership(pack.pk)  # store_atomically deletes the upload
            now = timezone.now()
            MissionPack.objects.filter(pk=pack.pk).update(
                status=Status.DONE, progress=100, file=name, pages=pages, error="",
                finished_at=now, progress_at=now)
        replaced(old, name)
    return publish


def fail_timed_out(pack_id: int) -> None:
    """The hard time limit killed the build: say so on the pack (the run wrote nothing)."""
    now = timezone.now()
    MissionPack.objects.filter(pk=pack_id, status=Status.RUNNING).update(
        status=Status.FAILED, attempt="", finished_at=now, progress_at=now,
        error=gettext("The build took too long and was stopped."))


def _error_text(exc: Exception) -> str:
    if isinstance(exc, SoftTimeLimitExceeded):
        return gettext("The build took too long and was stopped.")
    text = str(exc) if isinstance(exc, PackError) else f"{type(exc).__name__}: {exc}"
    return text[:ERROR_MAX]
