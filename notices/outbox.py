"""Notices kept as rows until the broker has them: queued after the commit, swept when it failed.

``queue`` is called inside the action's transaction: it writes a ``QueuedNotice`` row, and
after the commit queues the task by name (``config.celery.queue``). A broker that cannot be
reached is logged, never raised: the action is saved and its answer is the success it is. The
row stays until the task has run, so ``sweep`` (run by the worker every minute, at start-up,
or by ``manage.py sweep_queue``) queues again what the broker did not take, and what a lost
task left behind; the task sends each e-mail once (its ``Notice`` claim), so a second queueing
costs nothing.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from config.celery import queue as queue_task
from config.celery import requeue
from notices.models import QueuedNotice

logger = logging.getLogger(__name__)
SEND_NOTICES = "league.send_notices"
SEND_INVITATION = "league.send_invitation"
GRACE_SECONDS = 30  # a row younger than this may still be on its way to the broker
REQUEUE_SECONDS = 30 * 60  # queued this long ago and still here: the task was lost
MAX_TRIES = 20
SWEEP_BATCH = 500


def queue(kind: str, object_id: int, stamp: str = "") -> None:
    """The notices of one event, sent after the commit (``league.send_notices``)."""
    enqueue(SEND_NOTICES, [str(kind), object_id, stamp])


def enqueue(task: str, args: Sequence[Any]) -> None:
    """Keep task ``task(*args)`` as a row and queue it once the transaction commits. The row
    counts the try made after the commit already: that saves the action a write."""
    row = QueuedNotice.objects.create(task=task, args=list(args), tries=1)
    transaction.on_commit(lambda: _queue_counted(row.pk, task, row.args))


def send_row(row_id: int, task: str, args: Sequence[Any]) -> bool:
    """Queue one row's task; False (logged) when the broker refused it: the sweep retries."""
    QueuedNotice.objects.filter(pk=row_id).update(tries=F("tries") + 1)
    return _queue_counted(row_id, task, args)


def _queue_counted(row_id: int, task: str, args: Sequence[Any]) -> bool:
    """``send_row`` once the try is counted."""
    try:
        # Nobody asks for a notice task's result: the worker keeps none (config.celery.queue).
        queue_task(task, args, {"queued": row_id}, keep_result=False)
    except Exception:  # noqa: BLE001  (the action is committed: an outage only delays it)
        logger.warning("notice task %s %s not queued; the sweep will retry", task, args,
                       exc_info=True)
        return False
    QueuedNotice.objects.filter(pk=row_id).update(queued_at=timezone.now())
    return True


def done(row_id: int | None) -> None:
    """The task has run: its row has nothing left to queue."""
    if row_id is not None:
        QueuedNotice.objects.filter(pk=row_id).delete()


def sweep() -> int:
    """Queue again the rows the broker did not take, or whose task was lost; how many."""
    now = timezone.now()
    due = QueuedNotice.objects.filter(
        Q(queued_at__isnull=True, created_at__lt=now - timedelta(seconds=GRACE_SECONDS))
        | Q(queued_at__lt=now - timedelta(seconds=REQUEUE_SECONDS)),
        tries__lt=MAX_TRIES)
    return requeue(due.order_by("pk")[:SWEEP_BATCH],
                   lambda row: send_row(row.pk, row.task, row.args))
