"""Shared fixtures: a clean cache per test, eager Celery by default, a real worker on demand,
the staff and anonymous clients; and what keeps pytest-xdist's workers apart.

Per-worker isolation (``make test`` runs ``pytest -n auto``): pytest-django suffixes the test
database with the worker id (``test_muster_ci_gw1``; SQLite files live in the worker's own temp
dir; on PostgreSQL one worker migrates and the others clone its database: tests/template_db.py);
each worker moves the Redis databases of CACHE_URL and CELERY_BROKER_URL down by one block
(gw0 keeps 14/15, gw1 takes 12/13, ...), before any cache or broker connection is made; the real
Celery workers it starts inherit those URLs and its test database; live servers bind port 0
(a port fixed by DJANGO_LIVE_TEST_SERVER_ADDRESS moves up by the worker number).
"""
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db import connection
from django.utils import translation
from whitenoise.middleware import WhiteNoiseMiddleware

from config.celery import app as celery_app
from events.audit import Actor
from tests import quick_flush, serialized_rollback, template_db
from tests.browser.events import organiser
from tests.tournament_fixtures import client_for, make_user

ROOT = Path(__file__).resolve().parent.parent
REDIS_DATABASES = 16  # Redis's default `databases`


def worker_index() -> int:
    """0 outside pytest-xdist and on gw0, 1 on gw1, ..."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") else 0


def redis_database(url: str) -> int | None:
    """The database number of a redis:// URL (0 when it names none), None for other caches."""
    parts = urlsplit(url)
    if not parts.scheme.startswith("redis"):
        return None
    return int(parts.path.strip("/") or 0)


def with_redis_database(url: str, number: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


def _redis_per_worker() -> None:
    """Give this xdist worker Redis databases no other worker uses.

    `cache.clear()` runs FLUSHDB around every test, so two workers on one cache database would
    wipe each other's entries (event caches are keyed by tournament id, which both reuse). The
    block of databases the run names (CI: 14 and 15) moves down by its size per worker; the
    environment is updated too, so Celery workers and `manage.py` subprocesses agree.
    """
    urls = {name: os.environ.get(name, "") for name in ("CACHE_URL", "CELERY_BROKER_URL")}
    numbers = {name: redis_database(url) for name, url in urls.items() if url}
    numbers = {name: number for name, number in numbers.items() if number is not None}
    index = worker_index()
    if not numbers or index == 0:
        return
    shift = index * (max(numbers.values()) - min(numbers.values()) + 1)
    if min(numbers.values()) - shift < 0:
        raise pytest.UsageError(
            f"Redis has {REDIS_DATABASES} databases: too few for worker gw{index} below "
            f"{sorted(numbers.values())}; run fewer workers (-n) or use higher database numbers")
    moved = {name: with_redis_database(urls[name], number - shift)
             for name, number in numbers.items()}
    os.environ.update(moved)
    if "CACHE_URL" in moved:
        settings.CACHES["default"]["LOCATION"] = with_redis_database(
            settings.CACHES["default"]["LOCATION"], numbers["CACHE_URL"] - shift)
        # Django's own handler (django.test.signals) drops any cache connection already made.
        setting_changed.send(sender=type(settings), setting="CACHES", value=settings.CACHES,
                             enter=True)
    if "CELERY_BROKER_URL" in moved:
        broker = moved["CELERY_BROKER_URL"]
        if settings.CELERY_RESULT_BACKEND == settings.CELERY_BROKER_URL:
            settings.CELERY_RESULT_BACKEND = broker
            celery_app.conf.result_backend = broker
        settings.CELERY_BROKER_URL = broker
        celery_app.conf.broker_url = broker


def _live_server_per_worker() -> None:
    """pytest-django's live server binds port 0 (a free port the system picks) unless
    DJANGO_LIVE_TEST_SERVER_ADDRESS names one: then each worker takes the next port up."""
    address = os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS", "")
    host, _, port = address.rpartition(":")
    if host and port.isdigit() and worker_index():
        os.environ["DJANGO_LIVE_TEST_SERVER_ADDRESS"] = f"{host}:{int(port) + worker_index()}"


def _cheap_password_hasher() -> None:
    """MD5 first: the default PBKDF2 (a million rounds) made every account with a password and
    every login cost about half a CPU-second. No test is about hashing; the defaults stay listed
    after it, so a hash made outside the tests (demo data) still checks."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                                 *settings.PASSWORD_HASHERS]
    setting_changed.send(sender=type(settings), setting="PASSWORD_HASHERS",
                         value=settings.PASSWORD_HASHERS, enter=True)


def _static_files_listed_once() -> None:
    """WhiteNoise lists and stats every static file its finders know (the admin's, Swagger's...)
    each time its middleware is made: once per gunicorn worker, but once per test client here,
    since every new client loads the middleware again, which cost some 7 % of the suite. The
    first listing is kept for the others; the files do not change while the tests run."""
    listing = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict = {}

    def add_files_from_finders(self) -> None:
        if not listed:
            listing(self)
            listed.update(self.files)
        else:
            self.files.update(listed)

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders


_redis_per_worker()
_live_server_per_worker()
_cheap_password_hasher()
_static_files_listed_once()
# Each transactional test restores the reference data in a few upserts (not ~900 queries) and
# empties the tables with DELETE (not a TRUNCATE of every table, ~1.5 s of PostgreSQL each time).
serialized_rollback.install()
quick_flush.install()


def _flushes_the_reference_data(item) -> bool:
    """A transactional test flushes every table afterwards; without serialized_rollback the
    rules catalogue (data migrations) is gone for the tests after it on that worker, and the
    next serialized test fails on the content types post_migrate made again."""
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")
                and not marker.kwargs.get("serialized_rollback"))


def pytest_configure(config):
    # PostgreSQL under xdist: one worker migrates, the others clone its database.
    template_db.configure(config)


def pytest_collection_modifyitems(config, items):
    careless = [item.nodeid for item in items if _flushes_the_reference_data(item)]
    if careless:
        raise pytest.UsageError("transactional tests need serialized_rollback=True:\n"
                                + "\n".join(careless))
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
def _default_language():
    """Each test starts in the site's default language: a request's LocaleMiddleware (or a
    French e-mail) leaves its language active in the thread, which made a later test that
    reads a sentence outside a request see it in French, depending on the tests' order."""
    translation.deactivate()
    yield
    translation.deactivate()


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
    # CELERY_SKIP_CHECKS: Django's system checks (a tenth of a worker's start-up) are not what
    # a worker in a test is for; tests/site/test_project.py runs them.
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "CELERY_SKIP_CHECKS": "1", **env}
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


# --- who acts: one name per kind of thing ------------------------------------------------------
# `staff_user` is an account, `staff_client` an API client, `staff_actor` what the services take;
# `admin_actor` is pytest-django's superuser (`admin_user`, whose Django client is `admin_client`).

@pytest.fixture
def staff_user(db):
    """A staff account: the organiser."""
    return make_user("organiser", staff=True)


@pytest.fixture
def staff_client(staff_user):
    """An API client signed in as the organiser."""
    return client_for(staff_user)


@pytest.fixture
def staff_actor(db) -> Actor:
    """The organiser as the services take him (a staff account with a password, for the pages)."""
    return organiser()


@pytest.fixture
def admin_actor(admin_user) -> Actor:
    """pytest-django's superuser as the services take him (the admin site's own user)."""
    return Actor(user=admin_user)


@pytest.fixture
def anon():
    """An API client signed in as nobody."""
    return client_for(None)
