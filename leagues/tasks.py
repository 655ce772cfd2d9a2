"""The league's periodic task: announce the weeks that opened (leagues.services.announcements)."""
from celery import shared_task


@shared_task(name="leagues.announce_weeks")
def announce_weeks() -> int:
    from leagues.services.announcements import announce_open_weeks

    return announce_open_weeks()
