"""A kept PostgreSQL connection checked at the start of each request or task without a round trip.

With ``CONN_HEALTH_CHECKS``, Django asks the server ``SELECT 1`` before the first query of every
request that reuses a connection: a round trip per request, a sixth of a draft read's time in a
gunicorn worker (benchmarks/teams.py). Between requests an idle connection receives nothing
unless the server is closing it (a restart, ``pg_terminate_backend``: an error message then end
of file), so a socket with nothing to read is one the server still holds: it counts as checked.
A socket with something to read, or any doubt, leaves Django's own check to run as before.
"""
from __future__ import annotations

import select
from collections.abc import Iterable
from typing import Any

from django.core.signals import request_started
from django.db import connections
from psycopg.pq import TransactionStatus


def _quiet(wrapper: Any) -> bool:
    """An open, idle PostgreSQL connection outside any transaction with nothing to read."""
    raw = wrapper.connection
    if wrapper.vendor != "postgresql" or raw is None or raw.closed or wrapper.in_atomic_block:
        return False
    if raw.info.transaction_status != TransactionStatus.IDLE:
        return False
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable


def check_kept_connections(wrappers: Iterable[Any] | None = None, **_signal: Any) -> None:
    """Mark each quiet connection as checked for this request, so Django sends no ``SELECT 1``."""
    for wrapper in connections.all(initialized_only=True) if wrappers is None else wrappers:
        if wrapper.health_check_enabled and not wrapper.health_check_done and _quiet(wrapper):
            wrapper.health_check_done = True


def connect() -> None:
    # After Django's own close_old_connections (connected when django.db loads), which drops
    # the connections past CONN_MAX_AGE and asks for a new check of the others.
    request_started.connect(check_kept_connections, dispatch_uid="muster-db-health")
