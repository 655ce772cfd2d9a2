"""The Celery app: `celery -A config worker -B` starts a worker with Django's settings.

Services queue tasks by name (``queue``), never importing a tasks module: each context keeps
its tasks beside it (``<app>/tasks.py``, found by ``autodiscover_tasks``). Work queued after a
commit is kept as rows (notices: ``QueuedNotice``; packs: ``MissionPack``), so a broker that
cannot be reached delays it: the sweeps of ``SWEEPS`` queue it again, every
``MUSTER_SWEEP_SECONDS`` (``beat_schedule``: the worker's ``-B`` or a ``celery beat``) and
when a worker starts; ``manage.py sweep_queue`` runs them by hand or from cron.

Crash safety (see the Celery part of config/settings.py): tasks are acknowledged late, given
back when a pool child dies, and delivered again by Redis after the visibility timeout when a
whole worker dies; the timeout must outlast the hard time limit, which is checked at start-up.
"""
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from celery import Celery, signals
from kombu import serialization

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
logger = logging.getLogger(__name__)
# The periodic sweeps, by task name (notices/tasks.py, printing/tasks.py).
SWEEPS = ("league.sweep_notices", "league.sweep_packs")
app.conf.beat_schedule = {
    name: {"task": name, "schedule": float(os.environ.get("MUSTER_SWEEP_SECONDS", 60))}
    for name in SWEEPS
}


def queue(name: str, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None) -> None:
    """Queue task ``name`` by its registered name; in the embedded mode (no broker, eager) it
    runs here and now. Raises whatever the broker raises: callers that have committed catch it."""
    if name not in app.tasks:
        app.loader.import_default_modules()  # the tasks modules (autodiscovery is lazy)
    signature = app.signature(name, args=list(args), kwargs=dict(kwargs or {}))
    if not app.conf.task_always_eager:
        signature.apply_async()
        return
    # Embedded mode: apply() what the eager apply_async() would, minus its toggle of Celery's
    # process-wide task_join_will_block flag, which is not thread safe: two requests queueing
    # at once (a threaded server, both players reporting) could leave it set for good, and any
    # later result.get() in the process then fails ("Never call result.get() within a task!").
    # The arguments still make the broker's round trip, so what a broker refuses fails here too.
    content_type, encoding, data = serialization.dumps(
        (signature.args, signature.kwargs), app.conf.task_serializer)
    sent_args, sent_kwargs = serialization.loads(data, content_type, encoding,
                                                 accept=[content_type])
    signature.type.apply(sent_args, sent_kwargs)


def requeue(due: Iterable[Any], send: Callable[[Any], bool]) -> int:
    """A sweep's loop: ``send`` each due item in order until the broker refuses one (it is still
    away: the next sweep goes on from there); how many were queued."""
    queued = 0
    for item in due:
        if not send(item):
            break
        queued += 1
    return queued


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


def run_sweeps() -> dict[str, int]:
    """Run every sweep here and now, in this process (``manage.py sweep_queue``)."""
    app.loader.import_default_modules()
    return {name: int(app.tasks[name]()) for name in SWEEPS}


@signals.worker_ready.connect
def _sweep_on_start(sender=None, **kwargs) -> None:
    # What an outage or a dead worker left behind is queued again as soon as a worker is up.
    for name in SWEEPS:
        try:
            queue(name)
        except Exception:  # noqa: BLE001  (the periodic sweep tries again)
            logger.warning("could not queue %s at start-up", name, exc_info=True)
