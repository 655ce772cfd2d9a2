"""The Celery app: `celery -A config worker` starts a worker with Django's settings.

Crash safety (see the Celery part of config/settings.py): tasks are acknowledged late, given
back when a pool child dies, and delivered again by Redis after the visibility timeout when a
whole worker dies; the timeout must outlast the hard time limit, which is checked at start-up.
"""
import logging
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
logger = logging.getLogger(__name__)


def redelivery_problem(conf) -> str | None:
    """Why a task could be delivered twice while it still runs, or None."""
    visibility = (conf.broker_transport_options or {}).get("visibility_timeout")
    limit = conf.task_time_limit
    if visibility is not None and limit is not None and visibility <= limit:
        return (f"visibility_timeout ({visibility} s) <= task_time_limit ({limit} s): a task "
                "still running when the timeout expires is delivered to a second worker")
    return None


@signals.worker_init.connect
def _warn_on_short_visibility(sender=None, **kwargs) -> None:
    problem = redelivery_problem(app.conf)
    if problem:
        logger.warning("MUSTER_TASK_VISIBILITY_TIMEOUT: %s", problem)
