"""`manage.py sweep_queue`: run the periodic sweeps once (config/celery.py ``SWEEPS``): queue again
what a broker outage left as rows (notices, packs), announce the league weeks that opened, make
the draft auto-picks that are due.

The worker runs the same sweeps every minute and when it starts (config/celery.py); this
command is for cron, or for a site run without a worker, or after an outage by hand.
"""
from django.core.management.base import BaseCommand

from config.celery import run_sweeps


class Command(BaseCommand):
    help = "Run the periodic sweeps once: notices and packs the broker did not take, league weeks, draft auto-picks."

    def handle(self, *args, **options) -> None:
        for name, count in run_sweeps().items():
            self.stdout.write(f"{name}: {count}")  # rows queued again, weeks announced, moves made
