"""Prometheus metrics: django-prometheus's (requests, latencies; with metrics on, the database and
the cache) and Muster's own, served at ``/metrics`` to ``Authorization: Bearer
<MUSTER_METRICS_TOKEN>`` only (config/node.py answers it; anyone else gets the site's 404).

Muster's own:
- ``muster_packs_built_total{kind}`` and ``muster_pack_build_seconds{kind}`` (a histogram):
  ``record_pack_built``, called by the pack build when a pack is stored;
- ``muster_tasks_queued_total{task}``: ``config.celery.queue``, the one place tasks are queued;
- ``muster_reports_total{kind}`` (``reported``, ``confirmed``): events/services/results.py,
  once the transaction has committed; ``rate(muster_reports_total[1m]) * 60`` is per minute.

Counts live in the process that makes them. Several gunicorn workers on one host share theirs
through files: set ``PROMETHEUS_MULTIPROC_DIR`` to an empty folder (wiped at each start) for
every process of the host, and /metrics adds them up. A Celery worker builds the packs: with
``MUSTER_WORKER_METRICS_PORT`` it serves its own counts on that port (inside the private
network only: it has no token), its pool's children sharing PROMETHEUS_MULTIPROC_DIR."""
from __future__ import annotations

import hmac
import logging
import os
from typing import Any

import prometheus_client
from celery import signals
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django_prometheus.exports import ExportToDjangoView
from django_prometheus.middleware import PrometheusAfterMiddleware
from django_prometheus.utils import Time
from prometheus_client import Counter, Histogram, multiprocess

logger = logging.getLogger(__name__)

PACKS_BUILT = Counter("muster_packs_built", "Packs (mission packs, turn packs, wall sheets) built",
                      ["kind"])
PACK_SECONDS = Histogram("muster_pack_build_seconds", "Time to build and store a pack", ["kind"],
                         buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200))
TASKS_QUEUED = Counter("muster_tasks_queued", "Tasks queued (run at once when embedded)",
                       ["task"])
REPORTS = Counter("muster_reports", "Result reports and confirmations saved", ["kind"])


def record_pack_built(kind: str, seconds: float) -> None:
    """A pack of ``kind`` was built and stored in ``seconds``."""
    PACKS_BUILT.labels(kind=kind).inc()
    PACK_SECONDS.labels(kind=kind).observe(max(0.0, seconds))


def record_task_queued(name: str) -> None:
    TASKS_QUEUED.labels(task=name).inc()


def record_report(kind: str) -> None:
    """``kind``: "reported" (a player's or staff's report) or "confirmed"."""
    REPORTS.labels(kind=kind).inc()


def authorized(request: HttpRequest) -> bool:
    token = getattr(settings, "MUSTER_METRICS_TOKEN", "")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode())


def respond(request: HttpRequest) -> HttpResponse | None:
    """The metrics for a request with the token, else None (the request goes on to a 404)."""
    if not authorized(request):
        return None
    response = ExportToDjangoView(request)
    response["Cache-Control"] = "no-store"
    return response


def registry() -> prometheus_client.CollectorRegistry:
    """This process's metrics, or every process's of the host in multiprocess mode."""
    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        return prometheus_client.REGISTRY
    shared = prometheus_client.CollectorRegistry()
    multiprocess.MultiProcessCollector(shared)
    return shared


def serve_worker_metrics(port: int, address: str = "0.0.0.0") -> Any:
    """Serve this host's metrics on ``port`` in a thread (a Celery worker has no web server);
    returns the server, whose ``shutdown()`` stops it."""
    server, _thread = prometheus_client.start_http_server(port, addr=address, registry=registry())
    logger.info("worker metrics on port %s", port)
    return server


@signals.worker_ready.connect
def _serve_worker_metrics(sender=None, **kwargs) -> None:
    port = int(getattr(settings, "MUSTER_WORKER_METRICS_PORT", 0) or 0)
    if port:
        serve_worker_metrics(port)


class AfterMiddleware(PrometheusAfterMiddleware):
    """django-prometheus's, last in MIDDLEWARE; its request counts again, except that a
    Content-Length that is not a number (Django reads it as 0) counts as 0 instead of failing
    the request with a 500."""

    def process_request(self, request: HttpRequest) -> None:
        method = self._method(request)
        self.label_metric(self.metrics.requests_by_method, request, method=method).inc()
        self.label_metric(self.metrics.requests_by_transport, request,
                          transport=self._transport(request)).inc()
        if request.headers.get("x-requested-with") == "XMLHttpRequest":
            self.label_metric(self.metrics.requests_ajax, request).inc()
        length = request.META.get("CONTENT_LENGTH") or ""
        self.label_metric(self.metrics.requests_body_bytes, request).observe(
            int(length) if length.isdigit() else 0)
        request.prometheus_after_middleware_event = Time()
