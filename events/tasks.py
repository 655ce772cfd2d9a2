"""Background work for the league: printing mission packs, e-mailing notices."""
from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded

from config.gc_pause import young_objects_only
from notices import services as notices
from printing.services import packs


class PackTask(Task):
    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        # The hard time limit kills the pool child before it can record anything; the
        # worker's main process runs this, so the pack fails visibly instead of hanging.
        if isinstance(exc, TimeLimitExceeded) and args:
            packs.fail_timed_out(int(args[0]))


@shared_task(name="league.build_mission_pack", base=PackTask)
def build_mission_pack(pack_id: int, chunk_tables: int | None = None) -> str:
    """Render and store a round's mission pack; safe to run twice (see packs.build_pack).

    Acknowledged late and given back when its worker is lost (config/settings.py, Celery), so
    a worker that dies mid-build leaves the task to be delivered again; the new run takes the
    pack over and builds it from the start. The soft time limit ends a hung build as failed.
    """
    with young_objects_only():  # the garbage collector skips the worker's own objects
        return packs.build_pack(pack_id, chunk_tables)


NOTICE_RETRY_SECONDS = 120


@shared_task(name="league.send_notices", bind=True, max_retries=5)
def send_notices(self, kind: str, object_id: int, stamp: str = "") -> dict[str, int]:
    """E-mail the notices of one event (notices.services.send); safe to run twice: each
    recipient's notice is claimed under a unique constraint before it is sent. Failed sends,
    or a mail server that cannot be reached, are retried later (not in the embedded eager
    mode, where a retry would only repeat the failure at once)."""
    try:
        outcome = notices.send(kind, object_id, stamp)
    except OSError as exc:  # the mail server refused the connection: nothing was claimed
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=NOTICE_RETRY_SECONDS) from exc
    if outcome.failed and not self.request.is_eager:
        raise self.retry(countdown=NOTICE_RETRY_SECONDS)
    return outcome.as_dict()


@shared_task(name="league.send_invitation", bind=True, max_retries=5)
def send_invitation(self, player_id: int, email: str, stamp: str) -> dict[str, int]:
    """E-mail a walk-in the link that ties their registration to an account; sent once."""
    outcome = notices.send_invitation(player_id, email, stamp)
    if outcome.failed and not self.request.is_eager:
        raise self.retry(countdown=NOTICE_RETRY_SECONDS)
    return outcome.as_dict()
