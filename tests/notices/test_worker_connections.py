"""A Celery worker keeps its database connection from one task to the next, as a web process
keeps its own from one request to the next (issue #23 item 9): Celery's Django fix-up used to
close it around every task, so each notice of a round's end paid for a new PostgreSQL backend.
A connection that failed or outlived CONN_MAX_AGE is still dropped between tasks."""
from __future__ import annotations

import time

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from config.celery import _recycle_connections
from config.celery import app as celery_app
from notices.tasks import send_notices

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),  # autocommit, as in a worker
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="SQLite's in-memory test database is never closed"),
]


def run_task_signals(fixup: DjangoWorkerFixup) -> None:
    """What a worker does around one task: the fix-up's handlers and Muster's."""
    for handler in (fixup.on_task_prerun, _recycle_connections, _recycle_connections,
                    fixup.on_task_postrun):
        handler(sender=send_notices)


def test_a_worker_keeps_its_connection_between_tasks():
    fixup = DjangoWorkerFixup(celery_app)
    connection.ensure_connection()
    kept = connection.connection
    for _ in range(5):
        run_task_signals(fixup)
        connection.ensure_connection()
    assert connection.connection is kept


def test_a_connection_older_than_conn_max_age_is_dropped_between_tasks():
    fixup = DjangoWorkerFixup(celery_app)
    connection.ensure_connection()
    connection.close_at = time.monotonic() - 1  # CONN_MAX_AGE has run out
    run_task_signals(fixup)
    assert connection.connection is None
