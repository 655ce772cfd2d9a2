"""``GET /healthz/``: is this process serving; with ``?deep=1``, can it reach what it needs.

Shallow: 200 ``{"status": "ok", "node"}`` as long as the process answers (a liveness probe).
Deep: the database, the cache, the broker, the media storage and the migrations, checked at
once in threads (the two database checks share one) with ``CHECK_SECONDS`` to answer; 200 when every value is ``"ok"``, else
503 with each check's value: ``"pending"`` for unapplied migrations, a short reason otherwise
(``"unreachable"``, ``"timeout"``, ``"bucket missing"``, ...). The details go to the log, never
into the answer, which needs no authentication.

The embedded default has no broker (tasks run eagerly in the web process): nothing can fail
there, so the broker check says ``"ok"``. A check's thread opens its own database connection
and closes it when done: a deep probe costs one short database connection per node."""
from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import DatabaseError, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from kombu.exceptions import OperationalError as BrokerError

from config.cache_outage import CACHE_ERRORS
from config.celery import app as celery_app

logger = logging.getLogger(__name__)

OK = "ok"
PENDING = "pending"
TIMEOUT = "timeout"
UNREACHABLE = "unreachable"
CHECK_SECONDS = 2.0
Check = Callable[[], str]
# Checks run one after the other in one thread: the database's two share its connection, so a
# deep check opens one short connection, not two.
SHARED_THREADS = (("database", "migrations"),)


def respond(request: HttpRequest, node: str) -> JsonResponse:
    body: dict[str, Any] = {"status": "ok", "node": node}
    status = 200
    if request.GET.get("deep") not in (None, "", "0", "false"):
        checks = run_checks(CHECKS)
        body["checks"] = checks
        if any(value != OK for value in checks.values()):
            body["status"], status = "failing", 503
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def run_checks(checks: Mapping[str, Check], seconds: float = CHECK_SECONDS) -> dict[str, str]:
    """Every check at once, in threads of their own (``SHARED_THREADS`` share one); a check
    still running after ``seconds`` says ``"timeout"`` (its thread ends on its own, a daemon)."""
    results: dict[str, str] = {}
    lock = threading.Lock()

    def run(group: tuple[str, ...]) -> None:
        try:
            for name in group:
                value = outcome(name, checks[name])
                with lock:
                    results[name] = value
        finally:
            connections.close_all()  # this thread's own connections only

    threads = [threading.Thread(target=run, args=(group,), name=f"healthz-{group[0]}",
                                daemon=True) for group in thread_groups(checks)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with lock:
        return {name: results.get(name, TIMEOUT) for name in checks}


def thread_groups(names: Iterable[str]) -> list[tuple[str, ...]]:
    """The checks of ``names`` by thread: those of a SHARED_THREADS group together, in order."""
    names = list(names)
    shared = [tuple(name for name in group if name in names) for group in SHARED_THREADS]
    grouped = {name for group in shared for name in group}
    return [group for group in shared if group] + [(n,) for n in names if n not in grouped]


def outcome(name: str, check: Check) -> str:
    try:
        return check()
    except Exception as error:  # noqa: BLE001  (a failing check is an answer, not an error)
        logger.warning("health check %s failed: %r", name, error)
        return reason(error)


def reason(error: BaseException) -> str:
    """A short, fixed word for what went wrong: nothing of the error's own text."""
    if isinstance(error, TimeoutError):
        return TIMEOUT
    if isinstance(error, (DatabaseError, BrokerError, *CACHE_ERRORS)):
        return UNREACHABLE
    return "error"


def database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return OK


def migrations() -> str:
    """``"pending"`` while the code has migrations the database has not (a release whose
    ``migrate`` step has not run yet)."""
    executor = MigrationExecutor(connection)
    return PENDING if executor.migration_plan(executor.loader.graph.leaf_nodes()) else OK


def cache_check() -> str:
    """Write then read a value: a cache that drops writes (out of memory) fails too."""
    key, value = "muster:healthz", uuid.uuid4().hex
    cache.set(key, value, 30)
    return OK if cache.get(key) == value else "not stored"


def broker() -> str:
    if celery_app.conf.task_always_eager:
        return OK  # embedded: no broker, tasks run in the process that queues them
    with celery_app.connection_for_write(connect_timeout=CHECK_SECONDS) as conn:
        conn.ensure_connection(max_retries=0, timeout=CHECK_SECONDS)
    return OK


def storage() -> str:
    return storage_state(default_storage)


def storage_state(store: Any) -> str:
    """An object store's bucket must exist (the operator creates it); a folder on disk must be
    writable or creatable."""
    bucket = getattr(store, "bucket_name", None)
    if bucket is not None:
        return bucket_state(store, bucket)
    location = Path(store.location)
    while not location.exists() and location != location.parent:
        location = location.parent  # FileSystemStorage creates the missing folders
    return OK if os.access(location, os.W_OK) else "not writable"


def bucket_state(store: Any, bucket: str) -> str:
    # botocore only comes with MEDIA_STORAGE=s3: imported here, the embedded default skips it.
    from botocore.exceptions import ClientError, EndpointConnectionError

    try:
        store.connection.meta.client.head_bucket(Bucket=bucket)
    except ClientError as error:
        code = str(error.response.get("Error", {}).get("Code", ""))
        logger.warning("media storage: bucket %r: %s", bucket, error)
        if code in ("404", "NoSuchBucket"):
            return "bucket missing"
        if code in ("401", "403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch"):
            return "access denied"
        return "error"
    except EndpointConnectionError as error:
        logger.warning("media storage: %s", error)
        return UNREACHABLE
    return OK


CHECKS: dict[str, Check] = {
    "database": database,
    "cache": cache_check,
    "broker": broker,
    "storage": storage,
    "migrations": migrations,
}


def main() -> int:
    """``python -m config.health``: the deep check where no HTTP server runs (a Celery worker's
    readiness probe). Prints the checks; exit status 0 when every one is "ok"."""
    import django

    django.setup()
    checks = run_checks(CHECKS)
    print(json.dumps(checks, sort_keys=True))
    return 0 if all(value == OK for value in checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
