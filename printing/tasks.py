"""Printing's background work: building a pack (it beats while it builds), and the sweep that
starts again the packs whose worker died and queues again those the broker did not take."""
from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded

from config.gc_pause import young_objects_only
from printing.services import packs


class PackTask(Task):
    # Embedded mode (eager, no broker): a build takes seconds, so it runs in a thread of its
    # own after the commit, never inside the request that asked for it (config.celery.queue).
    aside_when_eager = True

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        # The hard time limit kills the pool child before it can record anything; the
        # worker's main process runs this, so the pack fails visibly instead of hanging.
        if isinstance(exc, TimeLimitExceeded) and args:
            packs.fail_timed_out(int(args[0]))


@shared_task(name="league.build_mission_pack", base=PackTask)
def build_mission_pack(pack_id: int, chunk_tables: int | None = None) -> str:
    """Render and store a round's pack; safe to run twice (see packs.build_pack).

    Acknowledged late and given back when its worker is lost (config/settings.py, Celery), so
    a worker that dies mid-build leaves the task to be delivered again; the new run takes the
    pack over and builds it from the start. The soft time limit ends a hung build as failed.
    """
    with young_objects_only():  # the garbage collector skips the worker's own objects
        return packs.build_pack(pack_id, chunk_tables)


@shared_task(name="league.sweep_packs")
def sweep_packs() -> int:
    """Start again the interrupted packs (no heartbeat: their worker died) and queue again the
    pending packs the broker did not take (packs.sweep)."""
    return packs.sweep()
