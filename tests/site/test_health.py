"""/healthz/ and X-Muster-Node (shared/deploy-v1.md): what a load balancer and an orchestrator
read. The shallow check touches nothing (a test without database access proves it); the deep
one checks the database, the cache, the broker, the storage and the migrations in threads of
their own, with connections of their own: they see what is committed, never the test's
transaction, so these tests change what the code has, not what the database has."""
from __future__ import annotations

import json
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import override_settings

from config import health
from config.celery import app as celery_app
from config.node import HEADER
from tests.site.own_redis import OwnRedis, free_port

CHECKS = {"database", "cache", "broker", "storage", "migrations"}


@pytest.fixture
def release_ahead(tmp_path, monkeypatch, settings) -> str:
    """The code of the next release: one app's migrations plus one the database has not
    applied (a copy of the real ones under MIGRATION_MODULES, and a new leaf after them)."""
    app = apps.get_app_config("venue")
    leaf = max(name for label, name in MigrationLoader(None).graph.leaf_nodes()
               if label == app.label)
    package = tmp_path / "release_ahead_migrations"
    shutil.copytree(Path(app.path) / "migrations", package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (package / "9999_release_ahead.py").write_text(
        "from django.db import migrations\n\n\n"
        "class Migration(migrations.Migration):\n"
        f"    dependencies = [({app.label!r}, {leaf!r})]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    settings.MIGRATION_MODULES = {app.label: package.name}
    return app.label


@contextmanager
def broker_at(url: str, *, eager: bool) -> Iterator[None]:
    """Celery's broker moved to ``url`` (its environment variable wins over its settings)."""
    conf = celery_app.conf
    previous = conf.broker_url, conf.task_always_eager, os.environ.get("CELERY_BROKER_URL")
    conf.broker_url, conf.task_always_eager = url, eager
    os.environ["CELERY_BROKER_URL"] = url
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager = previous[:2]
        if previous[2] is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = previous[2]


def body(response) -> dict:
    return json.loads(response.content)


def test_shallow_check_needs_no_database_session_or_host(client, settings):
    settings.MUSTER_NODE_NAME = "web-7"
    settings.ALLOWED_HOSTS = ["muster.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    # A probe comes by the pod's address over plain HTTP: no host check, no redirect.
    response = client.get("/healthz/", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200
    assert body(response) == {"status": "ok", "node": "web-7"}
    assert response[HEADER] == "web-7"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies  # no session, no CSRF cookie


def test_node_defaults_to_hostname_and_pid(client, settings):
    settings.MUSTER_NODE_NAME = ""
    response = client.get("/healthz/")
    assert body(response)["node"] == response[HEADER] == f"{socket.gethostname()}:{os.getpid()}"


def test_health_is_not_rate_limited(client):
    statuses = {client.get("/healthz/").status_code for _ in range(40)}
    assert statuses == {200}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/no-such-page/", "/api/v1/no-such-thing/"])
def test_errors_carry_the_node_header_too(client, settings, path):
    settings.MUSTER_NODE_NAME = "web-2"
    response = client.get(path)
    assert response.status_code == 404
    assert response[HEADER] == "web-2"


def test_a_refused_request_carries_the_node_header(client, settings):
    settings.MUSTER_NODE_NAME = "web-3"
    response = client.get("/api/v1/tournaments/", HTTP_X_SOMETHING="a\x00b")
    assert response.status_code == 400
    assert response[HEADER] == "web-3"


def test_only_get_and_head_are_answered_by_health(client):
    assert client.head("/healthz/").status_code == 200
    assert client.post("/healthz/").status_code == 404


@pytest.mark.django_db
def test_deep_check_says_ok_for_each_part(client, settings):
    settings.MUSTER_NODE_NAME = "web-1"
    with connection.execute_wrapper(lambda *args: pytest.fail("query in the request thread")):
        response = client.get("/healthz/?deep=1")
    assert response.status_code == 200, response.content
    assert body(response) == {"status": "ok", "node": "web-1",
                              "checks": dict.fromkeys(CHECKS, "ok")}


@pytest.mark.django_db
def test_pending_migrations_make_the_deep_check_fail(client, release_ahead):
    """New code on an old database (its `migrate` step has not run): 503 with "pending";
    the shallow check still says the process serves."""
    response = client.get("/healthz/?deep=1")
    assert response.status_code == 503
    assert body(response)["status"] == "failing"
    assert body(response)["checks"] == {**dict.fromkeys(CHECKS, "ok"), "migrations": "pending"}
    assert client.get("/healthz/").status_code == 200


@pytest.mark.django_db
def test_migrations_check_reads_the_database(release_ahead, settings):
    assert health.run_checks({"migrations": health.migrations}) == {"migrations": "pending"}
    settings.MIGRATION_MODULES = {}  # the release's migrate step has run: the code agrees
    assert health.run_checks({"migrations": health.migrations}) == {"migrations": "ok"}


@pytest.mark.django_db
def test_unreachable_cache_and_broker_are_named(client):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    caches = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": dead, "OPTIONS": {"socket_connect_timeout": 1}}}
    with override_settings(CACHES=caches), broker_at(dead, eager=False):
        response = client.get("/healthz/?deep=1")
    assert response.status_code == 503
    checks = body(response)["checks"]
    assert (checks["cache"], checks["broker"]) == ("unreachable", "unreachable")
    assert (checks["database"], checks["migrations"], checks["storage"]) == ("ok", "ok", "ok")
    assert "6379" not in response.content.decode() and dead not in response.content.decode()


def test_embedded_mode_has_no_broker_to_fail():
    dead = f"redis://127.0.0.1:{free_port()}/0"
    with broker_at(dead, eager=True):
        assert health.broker() == "ok"
    with broker_at(dead, eager=False):
        assert health.run_checks({"broker": health.broker}) == {"broker": "unreachable"}


def test_a_reachable_broker_and_cache_are_ok():
    server = OwnRedis()
    server.start()
    try:
        caches = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                              "LOCATION": server.url}}
        with override_settings(CACHES=caches), broker_at(server.url, eager=False):
            checks = health.run_checks({"broker": health.broker, "cache": health.cache_check})
    finally:
        server.stop()
    assert checks == {"broker": "ok", "cache": "ok"}


def test_a_check_that_hangs_says_timeout_and_the_others_still_answer():
    release = threading.Event()
    try:
        results = health.run_checks({"stuck": lambda: "ok" if release.wait(30) else "late",
                                     "quick": lambda: "ok"}, seconds=0.2)
    finally:
        release.set()
    assert results == {"stuck": "timeout", "quick": "ok"}


def test_a_failing_check_gives_a_short_reason_not_its_message():
    def boom() -> str:
        raise RuntimeError("password=hunter2 at db.internal")

    assert health.run_checks({"x": boom}) == {"x": "error"}


@pytest.mark.django_db
def test_the_deep_check_as_a_command_for_workers(capsys, release_ahead):
    """`python -m config.health`, a Celery worker's readiness probe: exit status and checks."""
    assert health.main() == 1
    assert json.loads(capsys.readouterr().out)["migrations"] == "pending"


def test_the_database_checks_share_one_thread_and_so_one_connection():
    assert health.thread_groups(health.CHECKS) == [
        ("database", "migrations"), ("cache",), ("broker",), ("storage",)]
    assert health.thread_groups(["migrations"]) == [("migrations",)]
