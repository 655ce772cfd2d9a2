"""Shared fixtures: a clean cache per test, eager Celery by default, a real worker on demand."""
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from config.celery import app as celery_app
from tests.tournament_fixtures import client_for, make_user

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config, items):
    real_services = bool(settings.CELERY_BROKER_URL) and connection.vendor == "postgresql"
    skip_worker = pytest.mark.skip(reason="needs CELERY_BROKER_URL and PostgreSQL (run .ci/run)")
    skip_pg = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "worker" in item.keywords and not real_services:
            item.add_marker(skip_worker)
        if "postgres" in item.keywords and connection.vendor != "postgresql":
            item.add_marker(skip_pg)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite tests run on a file rather than in memory, as `make run` does: threads (the
    concurrency tests) then share it through their own connections, WAL and busy waits."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3" and not db["TEST"].get("NAME"):
        db["TEST"]["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _eager_celery(request):
    """Tasks run in-process unless the test asked for the real worker."""
    eager = "worker" not in request.keywords
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager or previous
    yield
    celery_app.conf.task_always_eager = previous


def _test_database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(queue: str, *, pool: str = "solo", **env: str) -> subprocess.Popen:
    """`celery -A config worker` on the test database, consuming ``queue`` only.

    ``env`` adds settings for this worker alone (e.g. MUSTER_TASK_VISIBILITY_TIMEOUT).
    """
    env = {**os.environ, "DATABASE_URL": _test_database_url(), **env}
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}",
        "--without-heartbeat", "--without-gossip", "--without-mingle",
        "--loglevel=WARNING", "-Q", queue,
    ]
    if pool == "prefork":
        command.append("--concurrency=1")
    return subprocess.Popen(command, cwd=ROOT, env=env)


def stop_worker(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real `celery -A config worker` on the test database and a queue of its own."""
    queue = f"muster-test-{uuid.uuid4().hex[:8]}"
    celery_app.conf.task_default_queue = queue
    worker = start_worker(queue)
    yield worker
    stop_worker(worker)
    celery_app.conf.task_default_queue = "celery"


class Workers:
    """Workers a test starts, kills (SIGKILL, as a crash) and starts again on one queue."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.started: list[subprocess.Popen] = []

    def start(self, *, pool: str = "solo", **env: str) -> subprocess.Popen:
        worker = start_worker(self.queue, pool=pool, **env)
        self.started.append(worker)
        return worker

    def kill(self, worker: subprocess.Popen) -> None:
        """SIGKILL: no warm shutdown, so its unacknowledged task stays in Redis."""
        worker.kill()
        worker.wait()

    def stop_all(self) -> None:
        for worker in self.started:
            if worker.poll() is None:
                stop_worker(worker)


# One queue for every crash test of the session: a task a killed worker left unacknowledged is
# given back to this queue, so a later crash test's worker drains it (its pack is gone: no-op).
CRASH_QUEUE = f"muster-crash-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def restartable_workers(django_db_setup, django_db_blocker):
    """Workers for crash tests, on their own queue while the test runs.

    Tasks sent by the test (``.delay``) go to that queue; the session worker's queue is restored
    afterwards, so ``celery_worker_process`` behaves as before.
    """
    previous = celery_app.conf.task_default_queue
    workers = Workers(CRASH_QUEUE)
    celery_app.conf.task_default_queue = workers.queue
    yield workers
    workers.stop_all()
    celery_app.conf.task_default_queue = previous


@pytest.fixture
def staff_user(db):
    return make_user("organiser", staff=True)


@pytest.fixture
def staff(staff_user):
    """An API client signed in as an organiser."""
    return client_for(staff_user)


@pytest.fixture
def anon():
    return client_for(None)
