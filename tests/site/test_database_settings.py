"""Database settings: SQLite queues its writers (WAL, busy timeout, immediate transactions);
PostgreSQL keeps its connections between requests."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PRINT_DB = ("import json; from django.conf import settings; "
            "print(json.dumps(settings.DATABASES['default'], default=str))")


def database_settings(**env: str) -> dict:
    """settings.DATABASES['default'] as a fresh process computes it from ``env``."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CONN_MAX_AGE", "PREPARED_STATEMENTS")}
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {PRINT_DB}"], cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True, text=True, check=True)
    return json.loads(result.stdout.splitlines()[-1])


def test_sqlite_queues_writers(tmp_path):
    db = database_settings(DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert db["OPTIONS"]["timeout"] >= 20
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]
    assert db["CONN_MAX_AGE"] == 0


def test_postgres_keeps_connections_open():
    db = database_settings(DATABASE_URL="postgres://muster@db.example.org:5432/muster")
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)
    # psycopg may keep statements prepared; only config.plain_rows.cursor asks it to.
    assert db["OPTIONS"] == {"prepare_threshold": 5}
    # Behind a pooler (one process for both settings: each costs a Django start-up).
    pooled = database_settings(DATABASE_URL="postgres://muster@db.example.org/muster",
                               CONN_MAX_AGE="0", PREPARED_STATEMENTS="false")
    assert (pooled["CONN_MAX_AGE"], pooled["OPTIONS"]) == (0, {})


@pytest.mark.django_db
def test_the_sqlite_test_database_is_a_file_in_wal_mode():
    """The tests run on SQLite as `make run` does, so the concurrency tests mean something."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    assert connection.transaction_mode == "IMMEDIATE"
