"""A kept PostgreSQL connection is checked at each request without a round trip
(config/db_health.py), and one the server has closed is still noticed and replaced."""
from __future__ import annotations

import select
import time

import pytest
from django.db import connection, connections

from config.db_health import check_kept_connections

pytestmark = pytest.mark.django_db


def last_query(pid: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0]


@pytest.fixture
def kept():
    """A second connection as a web worker keeps it between requests (outside any transaction)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    kept_settings = {**connections["default"].settings_dict, "CONN_MAX_AGE": 60, "CONN_HEALTH_CHECKS": True}
    wrapper = type(connections["default"])(kept_settings, "default")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def new_request(wrapper) -> None:
    wrapper.close_if_unusable_or_obsolete()  # what Django does as a request starts
    check_kept_connections([wrapper])


def test_a_quiet_kept_connection_needs_no_select_1(kept):
    with kept.cursor() as cursor:
        cursor.execute("SELECT 'before the request'")
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    new_request(kept)
    assert kept.health_check_done
    kept.close_if_health_check_failed()  # what the request's first query asks
    assert last_query(pid) == "SELECT pg_backend_pid()"  # nothing sent: no SELECT 1


def test_a_connection_the_server_closed_is_replaced_before_the_request_uses_it(kept):
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with connection.cursor() as cursor:  # as a PostgreSQL restart does to every session
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 10
    while not select.select([kept.connection.fileno()], [], [], 0.05)[0]:
        assert time.monotonic() < deadline, "the server never closed the connection"
    new_request(kept)
    assert not kept.health_check_done  # left to Django's own check, which finds it closed
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid  # a new session, no error
