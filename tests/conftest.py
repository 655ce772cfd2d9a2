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


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real `celery -A config worker` on the test database and a queue of its own."""
    queue = f"muster-test-{uuid.uuid4().hex[:8]}"
    celery_app.conf.task_default_queue = queue
    env = {**os.environ, "DATABASE_URL": _test_database_url()}
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
        "--without-heartbeat", "--without-gossip", "--without-mingle",
        "--loglevel=WARNING", "-Q", queue,
    ]
    worker = subprocess.Popen(command, cwd=ROOT, env=env)
    yield worker
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
    celery_app.conf.task_default_queue = "celery"
