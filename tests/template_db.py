"""On PostgreSQL under pytest-xdist, the migrations run once per test run, not once per worker.

Each worker used to migrate its own test database (many data migrations: 15-18 CPU-seconds a
worker, on a machine where the suite is CPU-bound). Now the first worker to take an advisory
lock (on the server's ``postgres`` database) migrates its database as before and copies it to a
template named after the run's id; the others wait on that lock, then make theirs with
``CREATE DATABASE ... TEMPLATE``, and serialize it as Django would have after its migrations
(serialized_rollback restores from that). The controller drops the template before the workers
start and after they end: no run can clone an earlier run's migrations. SQLite, a single process
and ``--reuse-db`` keep pytest-django's usual path.
"""
from __future__ import annotations

import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.backends.postgresql.creation import DatabaseCreation
from pytest_django.plugin import blocking_manager_key

_create_test_db = DatabaseCreation.create_test_db
_template = ""  # set on a worker by configure()


def template_name(run_id: str) -> str:
    """At most 63 characters (PostgreSQL's limit), unique to the run."""
    return f"test_{connection.settings_dict['NAME']}"[:40] + f"_tpl_{run_id[:12]}"


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@contextmanager
def _run_lock(creation: DatabaseCreation) -> Iterator[None]:
    """Held on a connection of its own: closing it (even by a crash) releases the lock."""
    key = zlib.crc32(_template.encode())
    with creation._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [key])
        try:
            yield
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def _template_exists(creation: DatabaseCreation) -> bool:
    with creation._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [_template])
        return cursor.fetchone() is not None


def _copy(creation: DatabaseCreation, source: str, target: str) -> None:
    """CREATE DATABASE ... TEMPLATE fails while anyone is connected to the source."""
    creation.connection.close()
    with creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {_quote(target)}")
        cursor.execute(f"CREATE DATABASE {_quote(target)} TEMPLATE {_quote(source)}")


def _clone(creation: DatabaseCreation, verbosity: int) -> str:
    """What create_test_db does, with the migrations replaced by a copy of the template."""
    name = creation._get_test_db_name()
    if verbosity >= 1:
        creation.log(f"Cloning test database {name} from {_template}...")
    _copy(creation, _template, name)
    alias = creation.connection.alias
    settings.DATABASES[alias]["NAME"] = name
    creation.connection.settings_dict["NAME"] = name
    call_command("createcachetable", database=alias)
    creation.connection.ensure_connection()
    return name


def create_test_db(self: DatabaseCreation, verbosity: int = 1, autoclobber: bool = False,
                   serialize: bool = True, keepdb: bool = False) -> str:
    if (keepdb or self.connection.alias != DEFAULT_DB_ALIAS
            or self.connection.settings_dict["TEST"].get("TEMPLATE")):
        return _create_test_db(self, verbosity, autoclobber, serialize, keepdb)
    with _run_lock(self):
        if _template_exists(self):
            name = _clone(self, verbosity)
        else:
            name = _create_test_db(self, verbosity, autoclobber, serialize=False)
            _copy(self, name, _template)
            self.connection.ensure_connection()
    # As Django's create_test_db, outside the lock: the other workers need not wait for it.
    if serialize:
        self.connection._test_serialized_contents = self.serialize_db_to_string()
    return name


def _drop_template(config: pytest.Config, name: str) -> None:
    with config.stash[blocking_manager_key].unblock(), connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {_quote(name)}")


def configure(config: pytest.Config) -> None:
    """On the controller: the run's id and the template's drops; on a worker: the clone path."""
    global _template
    if connection.vendor != "postgresql":
        return
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        if workerinput["workercount"] > 1:
            _template = template_name(workerinput["testrunuid"])
            DatabaseCreation.create_test_db = create_test_db
    elif getattr(config.option, "tx", None):  # xdist will start workers (-n, --tx)
        # The workers receive this id (xdist's NodeManager reads the option when it starts them).
        config.option.testrunuid = config.option.testrunuid or uuid.uuid4().hex
        name = template_name(config.option.testrunuid)
        _drop_template(config, name)  # a --testrunuid reused from a run that crashed
        config.add_cleanup(lambda: _drop_template(config, name))
