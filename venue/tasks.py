"""The venue's background work: e-mailing a walk-in's invitation."""
from celery import shared_task

from notices import outbox
from venue import notice_letters

RETRY_SECONDS = 120


@shared_task(name="league.send_invitation", bind=True, max_retries=5)
def send_invitation(self, player_id: int, email: str, stamp: str,
                    queued: int | None = None) -> dict[str, int]:
    """E-mail a walk-in the link that ties their registration to an account; sent once."""
    outcome = notice_letters.send_invitation(player_id, email, stamp)
    if outcome.failed and not self.request.is_eager:
        raise self.retry(countdown=RETRY_SECONDS)
    outbox.done(queued)
    return outcome.as_dict()
