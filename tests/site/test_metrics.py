"""/metrics (shared/deploy-v1.md): django-prometheus's metrics and Muster's own, for
``Authorization: Bearer <MUSTER_METRICS_TOKEN>`` only; a 404 like any missing page otherwise."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from prometheus_client import REGISTRY

from config import metrics
from config.celery import queue
from config.deploy_settings import instrumented_cache, instrumented_database
from tests.site.own_redis import free_port
from tests.tournament_fixtures import build_event, client_for, confirm, expect, pair, report

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a-long-random-metrics-token"
PROMETHEUS_MIDDLEWARE = ("django_prometheus.middleware.PrometheusBeforeMiddleware",
                         "config.metrics.AfterMiddleware")


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db
@pytest.mark.parametrize("token, header", [
    ("", f"Bearer {TOKEN}"),  # metrics off: no /metrics at all
    (TOKEN, ""),
    (TOKEN, "Bearer not-the-token"),
    (TOKEN, f"Basic {TOKEN}"),
])
def test_metrics_are_a_404_without_the_token(client, settings, token, header):
    settings.MUSTER_METRICS_TOKEN = token
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = client.get("/metrics", **extra)
    assert response.status_code == 404
    assert b"muster_" not in response.content and b"django_http" not in response.content


def test_metrics_with_the_token(client, settings):
    settings.MUSTER_METRICS_TOKEN = TOKEN
    settings.ALLOWED_HOSTS = ["muster.example.org"]  # Prometheus scrapes each node by address
    metrics.record_task_queued("league.example")
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}",
                          HTTP_HOST="10.0.0.5:8000")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    for name in ("django_http_requests_total_by_method_total", "muster_tasks_queued_total",
                 "muster_pack_build_seconds", "muster_packs_built_total", "muster_reports_total"):
        assert name in text
    assert 'muster_tasks_queued_total{task="league.example"}' in text


def test_packs_built_and_their_duration():
    count = sample("muster_pack_build_seconds_count", kind="wall_sheets")
    built = sample("muster_packs_built_total", kind="wall_sheets")
    slow = sample("muster_pack_build_seconds_bucket", kind="wall_sheets", le="10.0")
    metrics.record_pack_built("wall_sheets", 12.5)
    assert sample("muster_pack_build_seconds_count", kind="wall_sheets") == count + 1
    assert sample("muster_packs_built_total", kind="wall_sheets") == built + 1
    assert sample("muster_pack_build_seconds_bucket", kind="wall_sheets", le="10.0") == slow
    assert sample("muster_pack_build_seconds_bucket", kind="wall_sheets", le="20.0") >= 1


@pytest.mark.django_db
def test_tasks_queued_are_counted_by_name():
    before = sample("muster_tasks_queued_total", task="league.sweep_notices")
    queue("league.sweep_notices")  # embedded: queued and run here
    assert sample("muster_tasks_queued_total", task="league.sweep_notices") == before + 1


@pytest.mark.django_db
def test_reports_and_confirmations_are_counted_once_committed(
        staff_user, django_capture_on_commit_callbacks):
    event = build_event(staff_user, 2, prefix="m-")
    game = expect(pair(event.staff, event.slug), 201)["games"][0]
    a, b = game["players"]
    reported, confirmed = sample("muster_reports_total", kind="reported"), \
        sample("muster_reports_total", kind="confirmed")
    with django_capture_on_commit_callbacks(execute=True):
        expect(report(event.client(a), game["id"], a, {a: 700, b: 300}), 200)
        assert sample("muster_reports_total", kind="reported") == reported  # not committed yet
    assert sample("muster_reports_total", kind="reported") == reported + 1
    with django_capture_on_commit_callbacks(execute=True):
        expect(confirm(client_for(event.users[b]), game["id"]), 200)
    assert sample("muster_reports_total", kind="confirmed") == confirmed + 1
    assert sample("muster_reports_total", kind="reported") == reported + 1


@pytest.mark.django_db
def test_the_metrics_middlewares_cost_no_query(client, settings):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/v1/tournaments/").status_code == 200
        return len(captured)

    with_metrics = queries()
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m not in PROMETHEUS_MIDDLEWARE]
    assert queries() == with_metrics


@pytest.mark.django_db
def test_a_content_length_that_is_not_a_number_is_no_500(client):
    response = client.get("/api/v1/tournaments/", CONTENT_LENGTH="abc")
    assert response.status_code == 200


def test_instrumented_backends_only_replace_what_they_wrap():
    assert instrumented_database({"ENGINE": "django.db.backends.postgresql", "NAME": "m"}) == {
        "ENGINE": "django_prometheus.db.backends.postgresql", "NAME": "m"}
    assert instrumented_database({"ENGINE": "other.engine"}) == {"ENGINE": "other.engine"}
    redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://x"}
    assert instrumented_cache(redis)["BACKEND"] == \
        "django_prometheus.cache.backends.redis.NativeRedisCache"


def test_with_a_token_the_database_and_cache_are_instrumented(tmp_path):
    """A fresh process with MUSTER_METRICS_TOKEN: django-prometheus's backends, and they work
    (a query and a cache read through them)."""
    program = (
        "import json, django; django.setup()\n"
        "from django.conf import settings; from django.core.cache import cache\n"
        "from django.db import connection\n"
        "cache.set('k', 1); connection.cursor().execute('SELECT 1')\n"
        "print(json.dumps([settings.DATABASES['default']['ENGINE'],"
        " settings.CACHES['default']['BACKEND'], cache.get('k')]))")
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")}
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "MUSTER_METRICS_TOKEN": TOKEN,
             "MUSTER_DATA_DIR": str(tmp_path)})
    engine, cache_backend, value = json.loads(result.stdout.splitlines()[-1])
    assert engine == "django_prometheus.db.backends.sqlite3"
    assert cache_backend == "django_prometheus.cache.backends.locmem.LocMemCache"
    assert value == 1
    assert not django_settings.MUSTER_METRICS_TOKEN  # this process: plain backends


def test_a_worker_serves_its_metrics_on_its_own_port():
    port = free_port()
    metrics.record_pack_built("mission_pack", 3.0)
    server = metrics.serve_worker_metrics(port, address="127.0.0.1")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            text = answer.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    assert 'muster_packs_built_total{kind="mission_pack"}' in text
