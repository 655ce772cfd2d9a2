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
Packs do not wait for that timeout: a build beats while it runs (printing/heartbeat.py), and the
packs sweep starts again a pack whose heartbeat stopped; a starting worker sweeps once more when
the packs of a worker that died just before it count as interrupted.
"""
import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from celery import Celery, signals
from kombu import serialization

from config.metrics import record_task_queued

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
logger = logging.getLogger(__name__)
# The periodic sweeps, by task name (notices/tasks.py, printing/tasks.py; leagues/tasks.py
# announces the weeks that opened; teams/tasks.py makes the auto-picks of overdue drafts).
SWEEPS = ("league.sweep_notices", "league.sweep_packs", "leagues.announce_weeks",
          "teams.draft_auto_picks")
app.conf.beat_schedule = {
    name: {"task": name, "schedule": float(os.environ.get("MUSTER_SWEEP_SECONDS", 60))}
    for name in SWEEPS
}


def queue(name: str, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None,
          countdown: float | None = None, keep_result: bool = True) -> None:
    """Queue task ``name`` by its registered name, to run in ``countdown`` seconds or as soon as
    a worker takes it; in the embedded mode (no broker, eager) it runs here and now, or in a
    thread of its own when it is long (``run_aside``). Raises whatever the broker raises:
    callers that have committed catch it. ``keep_result=False``: nobody will ask for the
    result, so the worker stores none and this process does not subscribe to it (with a Redis
    result backend every kept result costs a SUBSCRIBE here, a SET and a PUBLISH there)."""
    if name not in app.tasks:
        app.loader.import_default_modules()  # the tasks modules (autodiscovery is lazy)
    signature = app.signature(name, args=list(args), kwargs=dict(kwargs or {}))
    if not app.conf.task_always_eager:
        signature.apply_async(countdown=countdown, **({} if keep_result else {"ignore_result": True}))
        record_task_queued(name)
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
    record_task_queued(name)
    if getattr(signature.type, "aside_when_eager", False) and not _in_transaction():
        run_aside(signature.type, sent_args, sent_kwargs)
        return
    signature.type.apply(sent_args, sent_kwargs)


# Embedded mode, long tasks (``aside_when_eager`` on the task's class: a pack build takes
# seconds): a request that queues one must not wait for it, so it runs in a thread of its own,
# which the progress page then watches. The thread has its own database connection, which sees
# committed rows only: queued inside an open transaction (a caller that has not committed yet,
# a test's transaction) the task runs here and now as any other.
_aside: set[threading.Thread] = set()
_aside_lock = threading.Lock()


def _in_transaction() -> bool:
    from django.db import connection

    return connection.in_atomic_block


def run_aside(task: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> threading.Thread:
    """Run eager ``task`` in a daemon thread, its connections closed at the end; a process that
    stops mid-task leaves what a dead worker leaves (a pack's sweep starts it again)."""
    thread = threading.Thread(target=_run, args=(task, args, kwargs), daemon=True,
                              name=f"eager {task.name}")
    with _aside_lock:
        _aside.add(thread)
    thread.start()
    return thread


def _run(task: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    from django.db import connections

    try:
        task.apply(args, kwargs, throw=False)  # a failure is the task's to record
    except Exception:  # noqa: BLE001  (a thread's exception would only reach stderr)
        logger.exception("eager task %s failed", task.name)
    finally:
        connections.close_all()  # this thread's own connections
        with _aside_lock:
            _aside.discard(threading.current_thread())


def wait_aside(timeout: float = 60.0) -> bool:
    """Wait for the eager tasks running aside (tests, a graceful stop); True when none is left."""
    with _aside_lock:
        running = list(_aside)
    for thread in running:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in running)


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


def heartbeat_problem(heartbeat: float, interrupted: float) -> str | None:
    """Why a live build could be taken for interrupted (and started again), or None."""
    if heartbeat * 2 > interrupted:
        return (f"MUSTER_PACK_HEARTBEAT_SECONDS ({heartbeat:g} s) is more than half of "
                f"MUSTER_PACK_INTERRUPTED_SECONDS ({interrupted:g} s): one late heartbeat and a "
                "live build counts as interrupted")
    return None


@signals.task_prerun.connect
@signals.task_postrun.connect
def _recycle_connections(sender=None, **kwargs) -> None:
    """Around each task in a worker, what Django does around each request: drop a database
    connection that failed or is older than CONN_MAX_AGE, keep the others (CELERY_DB_REUSE_MAX
    stops Celery's fix-up from closing them all). Never in the embedded mode: an eager task may
    run inside its caller's transaction."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    from config.db_health import check_kept_connections

    close_old_connections()
    check_kept_connections()


@signals.worker_init.connect
def _warn_on_short_visibility(sender=None, **kwargs) -> None:
    from django.conf import settings

    problem = redelivery_problem(app.conf)
    if problem:
        logger.warning("MUSTER_TASK_VISIBILITY_TIMEOUT: %s", problem)
    problem = heartbeat_problem(float(settings.MUSTER_PACK_HEARTBEAT_SECONDS),
                                float(settings.MUSTER_PACK_INTERRUPTED_SECONDS))
    if problem:
        logger.warning("%s", problem)


def run_sweeps() -> dict[str, int]:
    """Run every sweep here and now, in this process (``manage.py sweep_queue``)."""
    app.loader.import_default_modules()
    done = {name: int(app.tasks[name]()) for name in SWEEPS}
    wait_aside(float(app.conf.task_time_limit or 1200))  # embedded: the builds it started
    return done


def sweep_again_after() -> float:
    """When a starting worker sweeps a second time: once the builds of a worker that died just
    before it started have gone without a heartbeat long enough to count as interrupted."""
    from django.conf import settings

    return float(settings.MUSTER_PACK_INTERRUPTED_SECONDS) + 1


@signals.worker_ready.connect
def _sweep_on_start(sender=None, **kwargs) -> None:
    # What an outage or a dead worker left behind is queued again as soon as a worker is up,
    # and what a worker killed just before (a restart) left, as soon as it counts as interrupted
    # (sooner than the periodic sweep would).
    for countdown in (None, sweep_again_after()):
        for name in SWEEPS:
            try:
                queue(name, countdown=countdown)
            except Exception:  # noqa: BLE001  (the periodic sweep tries again)
                logger.warning("could not queue %s at start-up", name, exc_info=True)
