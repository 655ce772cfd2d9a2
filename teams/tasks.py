"""Team events' periodic task: the auto-picks of overdue drafts (teams.services.auto_picks)."""
from celery import shared_task


@shared_task(name="teams.draft_auto_picks")
def draft_auto_picks() -> int:
    from teams.services.auto_picks import sweep

    return sweep()
