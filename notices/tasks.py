"""The notices' background work: sending one event's e-mails, and the sweep of queued rows."""
from celery import shared_task

from notices import outbox, services

NOTICE_RETRY_SECONDS = 120


@shared_task(name="league.send_notices", bind=True, max_retries=5)
def send_notices(self, kind: str, object_id: int, stamp: str = "",
                 queued: int | None = None) -> dict[str, int]:
    """E-mail the notices of one event (notices.services.send); safe to run twice: each
    recipient's notice is claimed under a unique constraint before it is sent. Failed sends,
    or a mail server that cannot be reached, are retried later (not in the embedded eager
    mode, where a retry would only repeat the failure at once). ``queued`` is the outbox row,
    removed once the notices are sent."""
    try:
        outcome = services.send(kind, object_id, stamp)
    except OSError as exc:  # the mail server refused the connection: nothing was claimed
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=NOTICE_RETRY_SECONDS) from exc
    if outcome.failed and not self.request.is_eager:
        raise self.retry(countdown=NOTICE_RETRY_SECONDS)
    outbox.done(queued)
    return outcome.as_dict()


@shared_task(name="league.sweep_notices")
def sweep_notices() -> int:
    """Queue again the notices the broker did not take (notices.outbox.sweep)."""
    return outbox.sweep()
