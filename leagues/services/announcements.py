"""Telling the players a week is open: each week once, after it opens (while it is open).

``announce_open_weeks`` is run by the task ``leagues.announce_weeks`` (leagues/tasks.py) on the
sweep schedule; the e-mails go through the notices outbox (sent after the commit)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from leagues.models import Week
from leagues.notice_letters import queue_week_open

BATCH = 100


@transaction.atomic
def announce_open_weeks(now=None) -> int:
    """Queue the notice of every week now open and not yet announced; how many."""
    now = now or timezone.now()
    weeks = list(Week.objects.select_for_update(skip_locked=True)
                 .filter(announced_at__isnull=True, opens__lte=now, closes__gt=now)
                 .order_by("opens", "pk")[:BATCH])
    for week in weeks:
        week.announced_at = now
        week.save(update_fields=["announced_at"])
        queue_week_open(week)
    return len(weeks)
