"""The database's connections: `manage.py runserver` (a thread per request) closes its connection
after each request while gunicorn and Celery workers keep theirs; a database that refuses a
connection answers 503 with Retry-After, on pages and in the API, never 500."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client, RequestFactory

from config.errors import RETRY_AFTER_SECONDS, refused_connection, server_error
from tests.site.own_redis import free_port
from tests.tournament_fixtures import API, client_for

ROOT = Path(__file__).resolve().parents[2]
BUSY = "The site is busy or briefly unavailable."
# The connection is closed and reopened outside a test transaction; the flush afterwards keeps
# the serialized rows (content types) for the tests that restore them (serialized_rollback).
OWN_CONNECTIONS = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def conn_max_age(argv: list[str], **env: str) -> int:
    """CONN_MAX_AGE as the settings give it to a process started as ``argv`` on PostgreSQL.

    The settings alone decide it: the process reads them without django.setup(), whose app
    loading cost six times more CPU than the answer (12 processes)."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CONN_MAX_AGE")}
    code = (f"import sys; sys.argv = {argv!r}; import json; "
            "from django.conf import settings; "
            "print(json.dumps(settings.DATABASES['default']['CONN_MAX_AGE']))")
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings",
             "DATABASE_URL": "postgres://muster@db.example.org:5432/muster", **env})
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize("argv", [
    ["manage.py", "runserver", "127.0.0.1:8000"],
    ["/usr/bin/django-admin", "runserver"],
    ["/venv/lib/python3.11/site-packages/django/__main__.py", "runserver", "0.0.0.0:8080"],
])
def test_the_development_server_closes_its_connections(argv):
    assert conn_max_age(argv) == 0
    assert conn_max_age(argv, CONN_MAX_AGE="60") == 0  # a thread per request: never kept


@pytest.mark.parametrize("argv", [
    ["/venv/bin/gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"],
    ["/venv/bin/celery", "-A", "config", "worker", "--concurrency", "2"],
    ["manage.py", "migrate"],
])
def test_long_lived_processes_keep_their_connections(argv):
    assert conn_max_age(argv) == 60
    assert conn_max_age(argv, CONN_MAX_AGE="0") == 0


@pytest.fixture
def refusing_database(tmp_path) -> Iterator[None]:
    """The database refuses every new connection: PostgreSQL on a closed port, SQLite in a
    folder that does not exist. The test database's settings come back afterwards (the tests
    using it are OWN_CONNECTIONS)."""
    settings_dict = connection.settings_dict
    saved = dict(settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = str(tmp_path / "missing" / "muster.sqlite3")
    else:
        settings_dict.update(HOST="127.0.0.1", PORT=str(free_port()))
    try:
        yield
    finally:
        connection.close()
        settings_dict.clear()
        settings_dict.update(saved)


@OWN_CONNECTIONS
def test_a_page_answers_503_with_retry_after(refusing_database):
    response = Client().get("/tournaments/any-event/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    page = response.content.decode()
    assert "<h1>503</h1>" in page and BUSY in page


@OWN_CONNECTIONS
@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/tournaments/", None),
    ("post", "/accounts/", {"username": "burst-1", "password": "correct-horse-battery-9",
                            "email": "burst-1@example.org"}),
])
def test_the_api_answers_503_in_its_error_shape(refusing_database, method, path, body):
    response = getattr(client_for(None), method)(f"{API}{path}", body, format="json")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json() == {"detail": response.json()["detail"], "code": "service_unavailable"}
    assert response.json()["detail"].startswith(BUSY)


@OWN_CONNECTIONS
def test_a_refusal_met_outside_a_view_is_a_503_too(refusing_database):
    """Django's 500 handler sees the error a middleware met, and answers 503 for it."""
    request = RequestFactory().get("/tournaments/any-event/")
    try:
        connection.ensure_connection()
    except Exception:  # noqa: BLE001 - the handler reads it from sys.exc_info(), as Django's does
        response = server_error(request)
    assert response.status_code == 503 and response["Retry-After"]
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(request).status_code == 500


@pytest.mark.django_db
def test_an_error_on_an_open_connection_is_not_a_refusal():
    with pytest.raises(Exception) as raised, connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table_at_all")
    assert not refused_connection(raised.value)
    assert not refused_connection(ValueError("not a database error"))
