"""`manage.py sweep_queue`: queue again what a broker outage left as rows (notices, packs).

The worker runs the same sweeps every minute and when it starts (config/celery.py); this
command is for cron, or for a site run without a worker, or after an outage by hand.
"""
from django.core.management.base import BaseCommand

from config.celery import run_sweeps


class Command(BaseCommand):
    help = "Queue again the notices and packs the broker did not take."

    def handle(self, *args, **options) -> None:
        for name, count in run_sweeps().items():
            self.stdout.write(f"{name}: {count} queued")
