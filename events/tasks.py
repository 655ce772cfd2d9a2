"""The events' background work: building an event's page sections before its readers ask."""
from celery import shared_task

from events.models import Tournament
from events.views import event_sections


@shared_task(name="league.warm_event")
def warm_event(tournament_id: int) -> int:
    """Build the event page's shared sections at the event's current version
    (``events.event_cache.warm_up``, queued when a round is published or completed); safe to
    run twice: what is cached is not built again. How many languages were warmed (0: the
    event is gone)."""
    try:
        return event_sections.warm(tournament_id)
    except Tournament.DoesNotExist:
        return 0
